package org.chartstream.datasets;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The on-disk cache of a generated dataset: {@code <cacheDir>/<spec.cacheKey()>/} holding {@code manifest.json}
 * and one JSON-lines file per table ({@code <table>.jsonl}, one object per row, column to value, values in their
 * canonical string form). A cache entry is used only when its manifest matches the spec, the format version, the
 * reference date and the aci-bench fingerprint; it is written to a temporary folder and moved into place.
 */
final class DatasetCache {

    /** Bump when the generation or mapping changes, so that old cache entries are regenerated. */
    static final int FORMAT_VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private DatasetCache() {
    }

    static Path entryDir(Path cacheDir, DatasetSpec spec) {
        return cacheDir.resolve(spec.cacheKey());
    }

    static Map<String, Object> manifest(DatasetSpec spec, String aciFingerprint, Map<String, Integer> rowCounts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT_VERSION);
        m.put("seed", spec.seed());
        m.put("patients", spec.patients());
        m.put("maxEncountersPerPatient", spec.maxEncountersPerPatient());
        m.put("maxConditionsPerPatient", spec.maxConditionsPerPatient());
        m.put("maxMedicationsPerPatient", spec.maxMedicationsPerPatient());
        m.put("referenceDate", DatasetSpec.REFERENCE_DATE.toString());
        m.put("synthea", "org.mitre.synthea:synthea:3.3.0");
        m.put("aciBenchFingerprint", aciFingerprint);
        if (rowCounts != null) {
            m.put("rowCounts", rowCounts);
        }
        return m;
    }

    /** The cached dataset, if a valid entry for this spec exists. */
    static Optional<ClinicalDataset> read(Path cacheDir, DatasetSpec spec, String aciFingerprint) {
        Path dir = entryDir(cacheDir, spec);
        Path manifestFile = dir.resolve("manifest.json");
        if (!Files.isRegularFile(manifestFile)) {
            return Optional.empty();
        }
        try {
            Map<String, Object> stored = JSON.readValue(manifestFile.toFile(), new TypeReference<>() { });
            Map<String, Object> expected = manifest(spec, aciFingerprint, null);
            for (Map.Entry<String, Object> e : expected.entrySet()) {
                if (!String.valueOf(e.getValue()).equals(String.valueOf(stored.get(e.getKey())))) {
                    return Optional.empty();
                }
            }
            Map<String, List<ClinicalRow>> tables = new LinkedHashMap<>();
            for (String table : ClinicalSchema.TABLES) {
                tables.put(table, readTable(dir.resolve(table + ".jsonl"), table));
            }
            return Optional.of(new ClinicalDataset(spec, cast(tables.get(ClinicalSchema.PATIENTS)),
                    cast(tables.get(ClinicalSchema.ENCOUNTERS)), cast(tables.get(ClinicalSchema.CONDITIONS)),
                    cast(tables.get(ClinicalSchema.MEDICATIONS)), cast(tables.get(ClinicalSchema.CLINICAL_NOTES))));
        } catch (IOException | RuntimeException e) {
            // unreadable or partial entry: regenerate
            return Optional.empty();
        }
    }

    /** Writes the dataset into its cache entry (replacing a stale one) and returns the entry folder. */
    static Path write(Path cacheDir, ClinicalDataset d, String aciFingerprint) {
        Path dir = entryDir(cacheDir, d.spec());
        try {
            Files.createDirectories(cacheDir);
            Path tmp = Files.createTempDirectory(cacheDir, "." + d.spec().cacheKey() + "-");
            try {
                for (String table : ClinicalSchema.TABLES) {
                    writeTable(tmp.resolve(table + ".jsonl"), d.rows(table));
                }
                JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.resolve("manifest.json").toFile(),
                        manifest(d.spec(), aciFingerprint, d.rowCounts()));
                if (Files.exists(dir)) {
                    deleteTree(dir);
                }
                try {
                    Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, dir);
                } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                    // another process wrote the same entry meanwhile: keep theirs
                }
            } finally {
                if (Files.exists(tmp)) {
                    deleteTree(tmp);
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write dataset cache " + dir, e);
        }
    }

    private static void writeTable(Path file, List<? extends ClinicalRow> rows) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (ClinicalRow row : rows) {
                ClinicalSchema.Table t = ClinicalSchema.table(row.table());
                Map<String, Object> values = row.values();
                Map<String, Object> out = new LinkedHashMap<>();
                for (ClinicalSchema.Column c : t.dataColumns()) {
                    out.put(c.name(), c.type().format(values.get(c.name())));
                }
                w.write(JSON.writeValueAsString(out));
                w.write('\n');
            }
        }
    }

    private static List<ClinicalRow> readTable(Path file, String table) throws IOException {
        List<ClinicalRow> rows = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.isBlank()) {
                    Map<String, Object> values = JSON.readValue(line, new TypeReference<>() { });
                    rows.add(ClinicalRow.fromValues(table, values));
                }
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static <R extends ClinicalRow> List<R> cast(List<ClinicalRow> rows) {
        return (List<R>) (List<?>) rows;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
