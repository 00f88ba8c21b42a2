package org.chartstream.datasets;

import org.chartstream.datasets.AciBenchReader.AciNote;
import org.chartstream.datasets.AciBenchReader.AciPatient;
import org.chartstream.datasets.SyntheaRunner.PersonPlan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Generates the synthetic clinical dataset deterministically from a {@link DatasetSpec}.
 *
 * <ul>
 *   <li>Identities: the distinct aci-bench patients (cleaned first + family name, ordered by their first aci-bench
 *       encounter id) become patients {@code MRN-000001}, {@code MRN-000002}, ...; each gets its aci-bench notes in
 *       {@code clinical_notes}. Patients beyond the aci-bench identities keep Synthea's names and have no notes.</li>
 *   <li>Structured rows: Synthea, run in-process with the spec's seed, generates one person per patient with the
 *       aci-bench patient's gender and age, so that the structured history fits the person. The birth date is set so
 *       that the age on the fixed {@link DatasetSpec#REFERENCE_DATE} (and on every note's date) is the aci-bench age.
 *       Of Synthea's CSV export the most recent encounters are kept, with the conditions and medications recorded at
 *       those encounters plus those still active; conditions and medications are de-duplicated by code per patient
 *       (an active occurrence preferred, then the latest); social/administrative findings are dropped; all lists are
 *       capped per the spec. ICD-10-CM codes come from {@link ClinicalCodes#snomedToIcd10()}.</li>
 *   <li>Ids: UUIDs are name-based (v3) over the seed, table and business key; numeric ids count from 1 in row
 *       order. Nothing depends on the clock or on thread scheduling.</li>
 *   <li>Cache: {@link #generate} stores the rows under {@code <cacheDir>/<spec.cacheKey()>/} and reuses them on the
 *       next run (Synthea needs about 10 s to start and about a second per patient).</li>
 * </ul>
 */
public final class ClinicalDatasetGenerator {

    /** Environment variable overriding the default cache folder. */
    public static final String ENV_CACHE_DIR = "CHARTSTREAM_CACHE_DIR";

    private final Path cacheDir;
    private final Consumer<String> progress;

    /**
     * @param cacheDir folder for cached datasets (created when needed); null means {@link #defaultCacheDir()}
     * @param progress receives human-readable progress lines (never null; use {@code s -> { }} for none)
     */
    public ClinicalDatasetGenerator(Path cacheDir, Consumer<String> progress) {
        this.cacheDir = cacheDir == null ? defaultCacheDir() : cacheDir;
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** {@value #ENV_CACHE_DIR} if set, else {@code ~/.cache/chartstream/datasets}. */
    public static Path defaultCacheDir() {
        String env = System.getenv(ENV_CACHE_DIR);
        if (env != null && !env.isBlank()) {
            return Path.of(env.trim()).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "chartstream", "datasets");
    }

    public Path cacheDir() {
        return cacheDir;
    }

    /** The cache entry folder of a spec (it may not exist yet). */
    public Path cacheEntry(DatasetSpec spec) {
        return DatasetCache.entryDir(cacheDir, spec);
    }

    /** The dataset for the spec: from the cache when a valid entry exists, otherwise generated and cached. */
    public ClinicalDataset generate(DatasetSpec spec) {
        long t0 = System.nanoTime();
        String fingerprint = AciBenchReader.fingerprint(spec.aciBenchDir());
        Optional<ClinicalDataset> cached = DatasetCache.read(cacheDir, spec, fingerprint);
        if (cached.isPresent()) {
            progress.accept(String.format("dataset: %s read from cache %s in %.1f s %s", spec.cacheKey(),
                    cacheEntry(spec), (System.nanoTime() - t0) / 1e9, cached.get().rowCounts()));
            return cached.get();
        }
        ClinicalDataset d = generateFresh(spec);
        Path dir = DatasetCache.write(cacheDir, d, fingerprint);
        progress.accept("dataset: cached in " + dir);
        return d;
    }

    /** Generates the dataset without reading or writing the cache (runs Synthea). */
    public ClinicalDataset generateFresh(DatasetSpec spec) {
        long t0 = System.nanoTime();
        progress.accept("dataset: generating " + spec.cacheKey() + " (aci-bench: " + spec.aciBenchDir() + ")");
        List<AciPatient> aci = AciBenchReader.readPatients(spec.aciBenchDir());
        int named = Math.min(aci.size(), spec.patients());
        progress.accept("aci-bench: " + aci.size() + " distinct patients with notes; using " + named
                + (spec.patients() > aci.size() ? " (+" + (spec.patients() - aci.size()) + " Synthea-named)" : ""));

        List<PersonPlan> plans = new ArrayList<>();
        for (int i = 0; i < spec.patients(); i++) {
            AciPatient a = i < aci.size() ? aci.get(i) : null;
            String gender = a == null || a.gender() == null ? null : a.gender().equals("female") ? "F" : "M";
            Integer age = a == null ? null
                    : a.ageYears() != null ? a.ageYears() : a.ageMonths() != null ? a.ageMonths() / 12 : null;
            plans.add(new PersonPlan(i, SyntheaRunner.personSeed(spec.seed(), i), gender, age));
        }

        Path work;
        try {
            work = Files.createTempDirectory("chartstream-synthea-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            List<String> syntheaIds = SyntheaRunner.run(work, spec.seed(), plans, progress);
            Path csv = work.resolve("csv");
            for (String f : SyntheaRunner.CSV_FILES) {
                if (!Files.isRegularFile(csv.resolve(f))) {
                    throw new IllegalStateException("Synthea did not write " + csv.resolve(f));
                }
            }
            ClinicalDataset d = new Assembly(spec, aci, syntheaIds, csv).build();
            progress.accept(String.format("dataset: generated %s in %.1f s %s", spec.cacheKey(),
                    (System.nanoTime() - t0) / 1e9, d.rowCounts()));
            return d;
        } finally {
            try {
                DatasetCache.deleteTree(work);
            } catch (IOException ignored) {
                // temporary folder; best effort
            }
        }
    }

    /** Name-based UUID of a row: stable for a seed, table and business key. */
    static UUID stableUuid(long seed, String table, String businessKey) {
        return UUID.nameUUIDFromBytes(("chartstream:s" + seed + ":" + table + ":" + businessKey)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** Maps Synthea's CSV export and the aci-bench patients into the rows of the schema. */
    private static final class Assembly {
        private final DatasetSpec spec;
        private final List<AciPatient> aci;
        private final List<String> syntheaIds;
        private final Map<String, Map<String, String>> synPatients;
        private final Map<String, List<Map<String, String>>> synEncounters;
        private final Map<String, List<Map<String, String>>> synConditions;
        private final Map<String, List<Map<String, String>>> synMedications;

        private final List<PatientRow> patients = new ArrayList<>();
        private final List<EncounterRow> encounters = new ArrayList<>();
        private final List<ConditionRow> conditions = new ArrayList<>();
        private final List<MedicationRow> medications = new ArrayList<>();
        private final List<ClinicalNoteRow> notes = new ArrayList<>();

        Assembly(DatasetSpec spec, List<AciPatient> aci, List<String> syntheaIds, Path csv) {
            this.spec = spec;
            this.aci = aci;
            this.syntheaIds = syntheaIds;
            this.synPatients = new HashMap<>();
            for (Map<String, String> r : AciBenchReader.readCsv(csv.resolve("patients.csv"))) {
                synPatients.put(r.get("Id"), r);
            }
            this.synEncounters = byPatient(AciBenchReader.readCsv(csv.resolve("encounters.csv")));
            this.synConditions = byPatient(AciBenchReader.readCsv(csv.resolve("conditions.csv")));
            this.synMedications = byPatient(AciBenchReader.readCsv(csv.resolve("medications.csv")));
        }

        private static Map<String, List<Map<String, String>>> byPatient(List<Map<String, String>> rows) {
            return rows.stream().collect(Collectors.groupingBy(r -> r.get("PATIENT"), LinkedHashMap::new,
                    Collectors.toList()));
        }

        ClinicalDataset build() {
            for (int i = 0; i < spec.patients(); i++) {
                addPatient(i, i < aci.size() ? aci.get(i) : null, syntheaIds.get(i));
            }
            return new ClinicalDataset(spec, patients, encounters, conditions, medications, notes);
        }

        private void addPatient(int index, AciPatient a, String syntheaId) {
            Map<String, String> sp = synPatients.get(syntheaId);
            if (sp == null) {
                throw new IllegalStateException("Synthea patient " + syntheaId + " missing from patients.csv");
            }
            LocalDate ref = DatasetSpec.REFERENCE_DATE;
            SplittableRandom rnd = new SplittableRandom(SyntheaRunner.personSeed(spec.seed(), index) ^ 0x5DEECE66DL);
            String patientNo = String.format("MRN-%06d", index + 1);
            UUID patientId = stableUuid(spec.seed(), ClinicalSchema.PATIENTS, patientNo);

            // birth date: the aci-bench age holds on the reference date and on every note date (notes come after
            // the last birthday, or the last month-day for infants)
            LocalDate birth;
            int noteWindowDays;
            if (a != null && a.ageYears() != null) {
                birth = ref.minusYears(a.ageYears()).minusDays(120 + rnd.nextInt(240));
                noteWindowDays = 30;
            } else if (a != null && a.ageMonths() != null) {
                birth = ref.minusMonths(a.ageMonths()).minusDays(20 + rnd.nextInt(8));
                noteWindowDays = 8;
            } else {
                birth = LocalDate.parse(sp.get("BIRTHDATE"));
                noteWindowDays = 30;
            }
            String gender = a != null && a.gender() != null ? a.gender()
                    : "F".equalsIgnoreCase(sp.get("GENDER")) ? "female" : "male";
            String first = a != null ? a.firstName() : blankToNull(sp.get("FIRST"));
            String last = a != null ? a.lastName() : blankToNull(sp.get("LAST"));
            patients.add(new PatientRow(patientId, patientNo, first, last, birth, gender,
                    blankToNull(sp.get("CITY")), blankToNull(sp.get("STATE"))));

            // encounters: the most recent N that are not before the birth date, kept in time order
            final LocalDate birthDate = birth;
            List<Map<String, String>> kept = synEncounters.getOrDefault(syntheaId, List.of()).stream()
                    .filter(e -> !instant(e.get("START")).toLocalDate().isBefore(birthDate))
                    .sorted(Comparator.comparing((Map<String, String> e) -> instant(e.get("START"))).reversed()
                            .thenComparing(e -> e.get("Id")))
                    .limit(spec.maxEncountersPerPatient())
                    .sorted(Comparator.comparing((Map<String, String> e) -> instant(e.get("START")))
                            .thenComparing(e -> e.get("Id")))
                    .collect(Collectors.toList());
            Map<String, UUID> encounterIds = new HashMap<>();
            for (Map<String, String> e : kept) {
                String encounterNo = String.format("ENC-%06d", encounters.size() + 1);
                UUID id = stableUuid(spec.seed(), ClinicalSchema.ENCOUNTERS, encounterNo);
                encounterIds.put(e.get("Id"), id);
                encounters.add(new EncounterRow(id, encounterNo, patientId, instant(e.get("START")),
                        instantOrNull(e.get("STOP")), blankToNull(e.get("ENCOUNTERCLASS")),
                        blankToNull(e.get("CODE")), blankToNull(e.get("DESCRIPTION")),
                        blankToNull(e.get("REASONCODE")), blankToNull(e.get("REASONDESCRIPTION"))));
            }

            // conditions: at kept encounters or still active; no social/administrative findings; one per code
            Set<String> excluded = ClinicalCodes.excludedConditionCodes();
            List<Entry> conds = new ArrayList<>();
            for (Map<String, String> c : synConditions.getOrDefault(syntheaId, List.of())) {
                String code = blankToNull(c.get("CODE"));
                String system = blankToNull(c.get("SYSTEM"));
                if (code == null || excluded.contains(code) || (system != null && !system.startsWith("SNOMED"))) {
                    continue;
                }
                Entry en = entry(c, code, birth, encounterIds);
                if (en != null) {
                    conds.add(en);
                }
            }
            for (Entry c : pick(conds, spec.maxConditionsPerPatient())) {
                conditions.add(new ConditionRow(conditions.size() + 1L, patientId, c.encounterId, c.start, c.stop,
                        c.code, ClinicalCodes.icd10(c.code), blankToNull(c.row.get("DESCRIPTION"))));
            }

            // medications: prescribed at kept encounters or still taken; one per RxNorm code
            List<Entry> meds = new ArrayList<>();
            for (Map<String, String> m : synMedications.getOrDefault(syntheaId, List.of())) {
                String code = blankToNull(m.get("CODE"));
                if (code == null) {
                    continue;
                }
                Entry en = entry(m, code, birth, encounterIds);
                if (en != null) {
                    meds.add(en);
                }
            }
            for (Entry m : pick(meds, spec.maxMedicationsPerPatient())) {
                medications.add(new MedicationRow(medications.size() + 1L, patientId, m.encounterId, m.start,
                        m.stop, m.code, blankToNull(m.row.get("DESCRIPTION")), blankToNull(m.row.get("REASONCODE")),
                        blankToNull(m.row.get("REASONDESCRIPTION"))));
            }

            // the aci-bench notes, dated within the last weeks before the reference date, oldest first
            if (a != null) {
                int k = a.notes().size();
                int base = 1 + rnd.nextInt(noteWindowDays == 30 ? 30 : 6);
                int step = noteWindowDays == 30 ? 14 : 1;
                for (int j = 0; j < k; j++) {
                    AciNote n = a.notes().get(j);
                    LocalDate date = ref.minusDays(base + (long) (k - 1 - j) * step);
                    notes.add(new ClinicalNoteRow(notes.size() + 1L, n.encounterId(), patientId, null, date,
                            n.chiefComplaint(), n.secondaryComplaints(), n.noteText()));
                }
            }
        }

        /** A condition or medication candidate, or null when it is neither at a kept encounter nor active. */
        private static Entry entry(Map<String, String> row, String code, LocalDate birth,
                                   Map<String, UUID> encounterIds) {
            LocalDate start = date(row.get("START"));
            LocalDate stop = dateOrNull(row.get("STOP"));
            UUID encounterId = encounterIds.get(row.get("ENCOUNTER"));
            if (start == null || (encounterId == null && stop != null)) {
                return null;
            }
            if (stop != null && stop.isBefore(birth)) {
                return null;
            }
            if (start.isBefore(birth)) {
                start = birth;
            }
            return new Entry(row, code, start, stop, encounterId);
        }

        /**
         * One entry per code (an active occurrence preferred, then the latest start), at most {@code max} of them
         * (active first, then the most recent), returned in start-date order.
         */
        private static List<Entry> pick(List<Entry> candidates, int max) {
            Comparator<Entry> preference = Comparator.comparing((Entry e) -> e.stop == null).reversed()
                    .thenComparing(Comparator.comparing((Entry e) -> e.start).reversed())
                    .thenComparing(e -> e.encounterId == null ? 1 : 0)
                    .thenComparing(e -> String.valueOf(e.row.get("ENCOUNTER")));
            Map<String, Entry> best = new LinkedHashMap<>();
            for (Entry e : candidates) {
                best.merge(e.code, e, (x, y) -> preference.compare(x, y) <= 0 ? x : y);
            }
            return best.values().stream()
                    .sorted(preference.thenComparing(e -> e.code))
                    .limit(max)
                    .sorted(Comparator.comparing((Entry e) -> e.start).thenComparing(e -> e.code))
                    .collect(Collectors.toList());
        }

        private static final class Entry {
            final Map<String, String> row;
            final String code;
            final LocalDate start;
            final LocalDate stop;
            final UUID encounterId;

            Entry(Map<String, String> row, String code, LocalDate start, LocalDate stop, UUID encounterId) {
                this.row = row;
                this.code = code;
                this.start = start;
                this.stop = stop;
                this.encounterId = encounterId;
            }
        }
    }

    private static String blankToNull(String s) {
        if (s == null) {
            return null;
        }
        String t = s.strip();
        return t.isEmpty() ? null : t;
    }

    /** Synthea timestamps ({@code 2019-02-10T16:40:18Z}) or dates ({@code 2019-02-10}), as UTC. */
    private static OffsetDateTime instant(String s) {
        String t = Objects.requireNonNull(blankToNull(s), "missing timestamp");
        if (t.length() == 10) {
            return LocalDate.parse(t).atStartOfDay().atOffset(ZoneOffset.UTC);
        }
        return OffsetDateTime.parse(t).withOffsetSameInstant(ZoneOffset.UTC);
    }

    private static OffsetDateTime instantOrNull(String s) {
        return blankToNull(s) == null ? null : instant(s);
    }

    private static LocalDate date(String s) {
        return blankToNull(s) == null ? null : instant(s).toLocalDate();
    }

    private static LocalDate dateOrNull(String s) {
        return date(s);
    }
}
