package org.chartstream.datasets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * What to generate. Equal specs (and equal aci-bench data) give identical datasets.
 *
 * @param seed                     seed for Synthea (population and clinician seeds) and for the generated ids
 * @param patients                 number of patients
 * @param maxEncountersPerPatient  most recent encounters kept per patient
 * @param maxConditionsPerPatient  conditions kept per patient (distinct SNOMED codes)
 * @param maxMedicationsPerPatient medications kept per patient (distinct RxNorm codes)
 * @param aciBenchDir              the aci-bench folder (holding {@code challenge_data/}); null means
 *                                 {@link #defaultAciBenchDir()}
 */
public record DatasetSpec(long seed, int patients, int maxEncountersPerPatient, int maxConditionsPerPatient,
                          int maxMedicationsPerPatient, Path aciBenchDir) {

    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_PATIENTS = 50;
    public static final int DEFAULT_MAX_ENCOUNTERS = 10;
    public static final int DEFAULT_MAX_CONDITIONS = 20;
    public static final int DEFAULT_MAX_MEDICATIONS = 15;

    /** Environment variable that overrides the default aci-bench folder. */
    public static final String ENV_ACI_BENCH_DIR = "CHARTSTREAM_ACI_BENCH_DIR";
    /** The default aci-bench folder, relative to the working directory. */
    public static final String DEFAULT_ACI_BENCH_RELATIVE = "../shared/data/aci-bench";
    /** The copy shipped in the repository (found from the working directory or its parents). */
    public static final String BUNDLED_ACI_BENCH_RELATIVE = "data/aci-bench";
    /** System property the launcher sets to the repository root. */
    public static final String HOME_PROPERTY = "chartstream.home";

    /**
     * The fixed "today" of the synthetic world: Synthea simulates up to this instant, ages are relative to it, and
     * no generated date lies after it. Fixed so that two runs give identical data.
     */
    public static final LocalDate REFERENCE_DATE = LocalDate.of(2025, 1, 1);

    public DatasetSpec {
        if (patients < 1) {
            throw new IllegalArgumentException("patients must be >= 1, got " + patients);
        }
        if (maxEncountersPerPatient < 0 || maxConditionsPerPatient < 0 || maxMedicationsPerPatient < 0) {
            throw new IllegalArgumentException("per-patient caps must be >= 0");
        }
        aciBenchDir = aciBenchDir == null ? defaultAciBenchDir() : aciBenchDir;
    }

    /** seed 42, 50 patients, caps 10 / 20 / 15, the default aci-bench folder. */
    public static DatasetSpec defaults() {
        return new DatasetSpec(DEFAULT_SEED, DEFAULT_PATIENTS, DEFAULT_MAX_ENCOUNTERS, DEFAULT_MAX_CONDITIONS,
                DEFAULT_MAX_MEDICATIONS, null);
    }

    public DatasetSpec withSeed(long newSeed) {
        return new DatasetSpec(newSeed, patients, maxEncountersPerPatient, maxConditionsPerPatient,
                maxMedicationsPerPatient, aciBenchDir);
    }

    public DatasetSpec withPatients(int newPatients) {
        return new DatasetSpec(seed, newPatients, maxEncountersPerPatient, maxConditionsPerPatient,
                maxMedicationsPerPatient, aciBenchDir);
    }

    public DatasetSpec withCaps(int maxEncounters, int maxConditions, int maxMedications) {
        return new DatasetSpec(seed, patients, maxEncounters, maxConditions, maxMedications, aciBenchDir);
    }

    public DatasetSpec withAciBenchDir(Path dir) {
        return new DatasetSpec(seed, patients, maxEncountersPerPatient, maxConditionsPerPatient,
                maxMedicationsPerPatient, dir);
    }

    /**
     * Cache folder name: {@code dataset-s<seed>-p<patients>}, plus {@code -e<enc>-c<cond>-m<med>} when a cap differs
     * from its default.
     */
    public String cacheKey() {
        String key = "dataset-s" + seed + "-p" + patients;
        if (maxEncountersPerPatient != DEFAULT_MAX_ENCOUNTERS || maxConditionsPerPatient != DEFAULT_MAX_CONDITIONS
                || maxMedicationsPerPatient != DEFAULT_MAX_MEDICATIONS) {
            key += "-e" + maxEncountersPerPatient + "-c" + maxConditionsPerPatient + "-m" + maxMedicationsPerPatient;
        }
        return key;
    }

    /** {@link #REFERENCE_DATE} at 00:00 UTC, in epoch milliseconds. */
    public static long referenceEpochMillis() {
        return REFERENCE_DATE.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }

    /**
     * The aci-bench folder: {@value #ENV_ACI_BENCH_DIR} if set; otherwise {@value #DEFAULT_ACI_BENCH_RELATIVE}
     * relative to the working directory. When that does not exist, the same relative path is tried from each parent
     * of the working directory (so that it also resolves when run from a module folder such as {@code app/}); if none
     * exists the working-directory candidate is returned, and generation reports it as missing.
     */
    public static Path defaultAciBenchDir() {
        String env = System.getenv(ENV_ACI_BENCH_DIR);
        if (env != null && !env.isBlank()) {
            return Path.of(env.trim()).toAbsolutePath().normalize();
        }
        return BundledData.find(List.of(BUNDLED_ACI_BENCH_RELATIVE, DEFAULT_ACI_BENCH_RELATIVE), "challenge_data")
                .orElseGet(() -> Path.of("").toAbsolutePath().resolve(BUNDLED_ACI_BENCH_RELATIVE).normalize());
    }
}
