package org.chartstream.app.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * All configuration in one typed place. Every key has a default (DESIGN.md §5); a properties file overrides the
 * defaults and environment variables override the file ({@code embedding.model} ← {@code CHARTSTREAM_EMBEDDING_MODEL}).
 */
public final class ChartstreamConfig {
    /** Every known key with its default and what it means (also printed by {@code --help}). */
    public static final Map<String, String[]> KEYS = keys();

    private final Map<String, String> values;
    private final Map<String, String> origins;

    private ChartstreamConfig(Map<String, String> values, Map<String, String> origins) {
        this.values = values;
        this.origins = origins;
    }

    private static Map<String, String[]> keys() {
        Map<String, String[]> k = new LinkedHashMap<>();
        k.put("data.dir", new String[] {".chartstream", "where the embedded broker, database, index and caches live"});
        k.put("kafka.bootstrap", new String[] {"", "external Kafka bootstrap servers; empty runs the embedded KRaft broker"});
        k.put("source.id", new String[] {"ehr", "id of the clinical source (part of every chunk id)"});
        k.put("source.kind", new String[] {"postgres", "postgres | mariadb | mysql | sqlserver"});
        k.put("source.topic-prefix", new String[] {"ehr", "Debezium topic prefix of the source"});
        k.put("source.tables", new String[] {"patients,encounters,conditions,medications,clinical_notes", "allow-listed tables, in snapshot order (patients first)"});
        k.put("source.excluded-fields", new String[] {"", "comma list of table.field that never leave the source"});
        k.put("source.patient-table", new String[] {"patients", "table holding patient identity"});
        k.put("source.patient-id-column", new String[] {"patient_id", "patient id column (same name in child tables)"});
        k.put("source.patient-name-columns", new String[] {"first_name,last_name", "columns forming the patient's display name"});
        k.put("source.patient-number-column", new String[] {"patient_no", "the patient's business number (used by the one-patient filter)"});
        k.put("embedding.model", new String[] {"all-minilm-l6-v2", "embedding model id (index contract: a new model means a new generation)"});
        k.put("embedding.threads", new String[] {"2", "ONNX Runtime intra-op threads"});
        k.put("chunk.window-tokens", new String[] {"0", "tokens per chunk window; 0 = the model's maximum minus special tokens"});
        k.put("chunk.overlap-tokens", new String[] {"32", "tokens shared by consecutive windows"});
        k.put("ingest.batch-chunks", new String[] {"64", "chunks per embedding call"});
        k.put("ingest.linger-ms", new String[] {"500", "longest wait for an embedding batch to fill"});
        k.put("query.per-side", new String[] {"50", "candidates per search side"});
        k.put("query.rrf-k", new String[] {"60", "reciprocal rank fusion constant"});
        k.put("query.top-k", new String[] {"6", "passages cited by default"});
        k.put("query.gate-threshold", new String[] {"0.40", "refuse when the best bi-encoder cosine among the cited passages is below this (provisional: set from the demo questions until `calibrate` exists)"});
        k.put("query.max-question-chars", new String[] {"4000", "longer questions get an error reply"});
        k.put("dataset.seed", new String[] {"42", "seed of the synthetic clinical data (Synthea + aci-bench notes)"});
        k.put("dataset.patients", new String[] {"50", "synthetic patients loaded by demo and run"});
        k.put("dataset.aci-bench-dir", new String[] {"", "aci-bench folder with challenge_data/*.csv; empty: $CHARTSTREAM_ACI_BENCH_DIR, else the copy in data/aci-bench"});
        return k;
    }

    public static ChartstreamConfig defaults() {
        return load(null, Map.of());
    }

    /**
     * @param file a properties file, or null for none
     * @param env  the environment (System.getenv() in production)
     */
    public static ChartstreamConfig load(Path file, Map<String, String> env) {
        Map<String, String> values = new HashMap<>();
        Map<String, String> origins = new HashMap<>();
        KEYS.forEach((key, spec) -> {
            values.put(key, spec[0]);
            origins.put(key, "default");
        });
        if (file != null) {
            Properties props = new Properties();
            try (Reader r = Files.newBufferedReader(file)) {
                props.load(r);
            } catch (IOException e) {
                throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
            }
            for (String key : props.stringPropertyNames()) {
                if (!KEYS.containsKey(key)) {
                    throw new ConfigException("unknown configuration key '" + key + "' in " + file + "; known keys: " + String.join(", ", KEYS.keySet()));
                }
                values.put(key, props.getProperty(key).trim());
                origins.put(key, file.toString());
            }
        }
        for (String key : KEYS.keySet()) {
            String var = envName(key);
            if (env.containsKey(var)) {
                values.put(key, env.get(var).trim());
                origins.put(key, "environment " + var);
            }
        }
        ChartstreamConfig config = new ChartstreamConfig(values, origins);
        config.validate();
        return config;
    }

    public static String envName(String key) {
        return "CHARTSTREAM_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public ChartstreamConfig with(String key, String value) {
        if (!KEYS.containsKey(key)) {
            throw new ConfigException("unknown configuration key '" + key + "'");
        }
        Map<String, String> v = new HashMap<>(values);
        Map<String, String> o = new HashMap<>(origins);
        v.put(key, value);
        o.put(key, "command line");
        ChartstreamConfig c = new ChartstreamConfig(v, o);
        c.validate();
        return c;
    }

    private void validate() {
        positive("embedding.threads");
        nonNegative("chunk.window-tokens");
        nonNegative("chunk.overlap-tokens");
        positive("ingest.batch-chunks");
        positive("ingest.linger-ms");
        positive("query.per-side");
        positive("query.rrf-k");
        positive("query.top-k");
        positive("query.max-question-chars");
        positive("dataset.patients");
        integer("dataset.seed");
        double gate = decimal("query.gate-threshold");
        if (gate < -1 || gate > 1) {
            throw bad("query.gate-threshold", "must be between -1 and 1");
        }
        if (!List.of("postgres", "mariadb", "mysql", "sqlserver").contains(string("source.kind"))) {
            throw bad("source.kind", "must be one of postgres, mariadb, mysql, sqlserver");
        }
        if (tables().isEmpty()) {
            throw bad("source.tables", "must name at least one table");
        }
    }

    public String string(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new ConfigException("unknown configuration key '" + key + "'");
        }
        return v;
    }

    public long integer(String key) {
        try {
            return Long.parseLong(string(key));
        } catch (NumberFormatException e) {
            throw bad(key, "must be a whole number");
        }
    }

    public double decimal(String key) {
        try {
            return Double.parseDouble(string(key));
        } catch (NumberFormatException e) {
            throw bad(key, "must be a number");
        }
    }

    public List<String> list(String key) {
        return Arrays.stream(string(key).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private void positive(String key) {
        if (integer(key) < 1) {
            throw bad(key, "must be at least 1");
        }
    }

    private void nonNegative(String key) {
        if (integer(key) < 0) {
            throw bad(key, "must not be negative");
        }
    }

    private ConfigException bad(String key, String rule) {
        return new ConfigException("configuration '" + key + "' = '" + values.get(key) + "' (from " + origins.get(key) + ") " + rule);
    }

    public Path dataDir() {
        return Path.of(string("data.dir")).toAbsolutePath().normalize();
    }

    public List<String> tables() {
        return list("source.tables");
    }

    /** The effective configuration with each value's origin, for {@code --show-config} style output. */
    public Map<String, String> describe() {
        Map<String, String> out = new TreeMap<>();
        values.forEach((k, v) -> out.put(k, v + "  (" + origins.get(k) + ")"));
        return out;
    }
}
