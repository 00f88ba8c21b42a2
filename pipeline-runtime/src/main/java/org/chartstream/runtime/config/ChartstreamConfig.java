package org.chartstream.runtime.config;

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
 * All configuration in one typed place. Every key has a default (README.md, "Configuration"); a properties file
 * overrides the defaults and environment variables override the file ({@code embedding.model} ←
 * {@code CHARTSTREAM_EMBEDDING_MODEL}).
 */
public final class ChartstreamConfig {
    /** Every known key with its default and what it means (also printed by {@code --help}). */
    public static final Map<String, String[]> KEYS = keys();

    /** The source.* keys that a source listed in {@code sources} may set as source.<id>.<suffix>. */
    public static final List<String> SOURCE_SUFFIXES = List.of("kind", "topic-prefix", "binding", "tables", "excluded-fields",
            "patient-table", "patient-id-column", "patient-name-columns", "patient-number-column", "patient-birth-date-column", "host", "port",
            "database", "user", "password", "schema");
    private static final java.util.regex.Pattern FIELDS_KEY =
            java.util.regex.Pattern.compile("source\\.(?:([A-Za-z0-9_-]+)\\.)?fields\\.([A-Za-z0-9_$]+)");
    private static final java.util.regex.Pattern PER_SOURCE_KEY =
            java.util.regex.Pattern.compile("source\\.([A-Za-z0-9_-]+)\\.(" + String.join("|", SOURCE_SUFFIXES) + ")");

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
        k.put("kafka.security.protocol", new String[] {"PLAINTEXT", "PLAINTEXT | SSL | SASL_SSL | SASL_PLAINTEXT for every Kafka client of an external broker (kafka.bootstrap); the embedded broker is plaintext on loopback"});
        k.put("kafka.ssl.truststore.location", new String[] {"", "trust store with the broker's CA (empty: the JVM's default trust store); certificates are always validated"});
        k.put("kafka.ssl.truststore.password", new String[] {"", "password of the trust store (never printed)"});
        k.put("kafka.ssl.truststore.type", new String[] {"", "JKS | PKCS12 | PEM (empty: Kafka's default)"});
        k.put("kafka.ssl.keystore.location", new String[] {"", "key store with this client's certificate, for brokers that require client authentication (mTLS)"});
        k.put("kafka.ssl.keystore.password", new String[] {"", "password of the key store (never printed)"});
        k.put("kafka.ssl.key.password", new String[] {"", "password of the private key in the key store (never printed)"});
        k.put("kafka.ssl.keystore.type", new String[] {"", "JKS | PKCS12 | PEM (empty: Kafka's default)"});
        k.put("kafka.ssl.endpoint-identification-algorithm", new String[] {"https", "https: the broker's certificate must name its host; none switches host name verification off (logged as a warning at start)"});
        k.put("kafka.sasl.mechanism", new String[] {"", "SASL mechanism with SASL_SSL/SASL_PLAINTEXT (PLAIN, SCRAM-SHA-512, ...)"});
        k.put("kafka.sasl.jaas-config", new String[] {"", "sasl.jaas.config of the clients (never printed)"});
        k.put("documentdb.tls", new String[] {"false", "true: TLS to DocumentDB (also on when the connection string says tls=true); certificates are validated"});
        k.put("documentdb.tls.ca-file", new String[] {"", "PEM file with the CA certificate(s) to trust for DocumentDB instead of the JVM's trust store (turns TLS on)"});
        k.put("documentdb.tls.allow-invalid-certificates", new String[] {"false", "true accepts any DocumentDB certificate and host name (development only; logged as a warning at every connect)"});
        k.put("ops.http.host", new String[] {"127.0.0.1", "address the operations endpoint (/metrics, /health, /ready) binds to"});
        k.put("ops.http.port", new String[] {"9464", "port of the operations endpoint; 0 or off: no endpoint"});
        SourceKeys.define(k);
        k.put("index.partitions", new String[] {"1", "partitions of the index log chartstream.index (generation markers go to all of them)"});
        k.put("store.kind", new String[] {"lucene", "lucene (an index under the data directory, one per process) | documentdb (a DocumentDB server at store.documentdb.uri, shared by the processes naming it)"});
        k.put("store.documentdb.uri", new String[] {"", "DocumentDB connection string with store.kind=documentdb, e.g. mongodb://documentdb:10260/?tls=true (credentials in store.documentdb.username / .password)"});
        k.put("store.documentdb.database", new String[] {"chartstream", "database holding the chunk collections"});
        k.put("store.documentdb.username", new String[] {"", "DocumentDB user (added to the connection string)"});
        k.put("store.documentdb.password", new String[] {"", "DocumentDB password (never printed)"});
        k.put("embedding.model", new String[] {"all-minilm-l6-v2-q", "embedding model id (ModelDescriptor: all-minilm-l6-v2, e5-small-v2, bge-small-en-v1.5, each also -q for int8; bge-m3 from files); an index committed for another model is refused"});
        k.put("embedding.threads", new String[] {"2", "ONNX Runtime intra-op threads"});
        k.put("chunk.window-tokens", new String[] {"0", "tokens per chunk window; 0 = the model's maximum minus special tokens"});
        k.put("chunk.overlap-tokens", new String[] {"32", "tokens shared by consecutive windows"});
        k.put("chunk.lead-tokens", new String[] {"64", "most tokens of a long row's opening (first sentences or lines) repeated in every chunk's header; 0 = none"});
        k.put("ingest.vector-cache-texts", new String[] {"4096", "texts whose vectors an ingest process keeps, so a text (a row's embed text under a fields policy, a re-indexed chunk) is embedded once; about 1.5 KB each; 0: none"});
        k.put("ingest.batch-chunks", new String[] {"64", "most chunks one embedding slice (one transaction) takes; a slice also ends after 4 s, even inside a row"});
        k.put("ingest.linger-ms", new String[] {"500", "longest wait for an embedding batch to fill while changes keep arriving"});
        k.put("ingest.quiet-ms", new String[] {"10", "a partial embedding batch is embedded once no change arrived for this long (an idle pipeline embeds a lone change at once);"
                + " also how often the ingest topology checks that (its Kafka Streams poll.ms)"});
        k.put("ingest.stream-threads", new String[] {"2", "Kafka Streams threads of the ingest topology: with 2 the planner task does not wait behind"
                + " an embedding call of its process (the model still runs one call at a time per process); tuned with bench scaleout on the synthetic dataset"});
        k.put("ingest.model-nice", new String[] {"10", "Linux nice value (0-19) of the thread that runs an ingest process's embedding model: above the"
                + " pipeline's other threads (0), so that bulk embedding leaves a core first to the planner, commits, a co-located broker or"
                + " the source database; 0 runs the model on the stream threads at their priority"});
        k.put("ingest.commit-interval-ms", new String[] {"100", "Kafka Streams commit.interval.ms of the ingest topology (each embedded batch also commits at once)"});
        k.put("ingest.partitions", new String[] {"", "partitions of the ingest repartition topic chartstream.ingest.embed, between the per-table"
                + " planner and the embedding tasks (one per partition, shared by the ingest processes of the group); empty: index.partitions."
                + " Must equal index.partitions: the embedding task of partition p writes index-log partition p only (docs/SCALING.md)"});
        k.put("ingest.capture", new String[] {"true", "false: this ingest process runs no change data capture (Debezium) and no embedded source"
                + " database; it only shares the ingest topology's tasks. One ingest process per set of sources captures (docs/SCALING.md)"});
        k.put("ingest.max-field-bytes", new String[] {"1048576", "most UTF-8 bytes one field value of a change keeps; a longer value is truncated before it is written to Kafka (dead letter naming table, row key and field; the row is still indexed)"});
        k.put("kafka.max-record-bytes", new String[] {"16777216", "largest record a pipeline producer writes (max.request.size of the CDC and Kafka Streams producers); the pipeline's topics accept it (max.message.bytes, plus 64 KiB batch overhead). A change still larger after the field cap is dead-lettered and skipped"});
        QueryKeys.define(k);
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
                if (!isKnown(key)) {
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

    /** A fixed key, a per-source key (source.<id>.<suffix>) or a field allow-list (source[.<id>].fields.<table>). */
    public static boolean isKnown(String key) {
        return KEYS.containsKey(key) || FIELDS_KEY.matcher(key).matches() || PER_SOURCE_KEY.matcher(key).matches();
    }

    public ChartstreamConfig with(String key, String value) {
        if (!isKnown(key)) {
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

    /**
     * This configuration over a dataset's {@code layer}: the layer's values where the file and the environment set
     * none, so that the user's own settings override a dataset's shipped configuration.
     */
    public ChartstreamConfig underlay(Map<String, String> layer, String origin) {
        ChartstreamConfig c = new ChartstreamConfig(new HashMap<>(values), new HashMap<>(origins));
        layer.forEach((key, value) -> {
            if (!isKnown(key)) {
                throw new ConfigException("unknown configuration key '" + key + "' in " + origin);
            }
            if (BindingKeys.unset(c.origins.get(key))) {
                c.values.put(key, value.trim());
                c.origins.put(key, origin);
            }
        });
        c.validate();
        return c;
    }

    private void validate() {
        BindingKeys.derive(this, values, origins); // first: the checks below read the keys a binding file sets
        positive("embedding.threads");
        nonNegative("chunk.window-tokens");
        nonNegative("chunk.overlap-tokens");
        nonNegative("chunk.lead-tokens");
        positive("ingest.batch-chunks");
        nonNegative("ingest.vector-cache-texts");
        positive("ingest.linger-ms");
        positive("ingest.quiet-ms");
        if (integer("ingest.quiet-ms") > integer("ingest.linger-ms")) {
            throw bad("ingest.quiet-ms", "must be at most ingest.linger-ms (" + integer("ingest.linger-ms") + ")");
        }
        positive("ingest.commit-interval-ms");
        positive("ingest.stream-threads");
        if (integer("ingest.model-nice") < 0 || integer("ingest.model-nice") > 19) {
            throw bad("ingest.model-nice", "must be between 0 and 19");
        }
        positive("ingest.max-field-bytes");
        positive("kafka.max-record-bytes");
        if (integer("kafka.max-record-bytes") > 1L << 30) {
            throw bad("kafka.max-record-bytes", "must be at most 1073741824 (1 GiB)");
        }
        if (integer("ingest.max-field-bytes") >= integer("kafka.max-record-bytes")) {
            throw bad("ingest.max-field-bytes", "must be smaller than kafka.max-record-bytes (" + integer("kafka.max-record-bytes") + ")");
        }
        QueryKeys.validate(this);
        positive("dataset.patients");
        integer("dataset.seed");
        positive("index.partitions");
        if (!string("ingest.partitions").isEmpty()) {
            positive("ingest.partitions");
            if (integer("ingest.partitions") != integer("index.partitions")) {
                throw bad("ingest.partitions", "must equal index.partitions (" + integer("index.partitions") + "): the embedding task of"
                        + " partition p writes index-log partition p only, so that a generation's marker follows that partition's rows;"
                        + " set both to the same count, or leave ingest.partitions empty");
            }
        }
        nonNegative("source.port");
        opsPort();
        TransportSecurity.validate(this);
        StoreSelection.validate(this);
        for (String flag : List.of("documentdb.tls", "documentdb.tls.allow-invalid-certificates", "ingest.capture")) {
            if (!List.of("true", "false").contains(string(flag))) {
                throw bad(flag, "must be true or false");
            }
        }
        SourceKeys.validate(this);
    }

    /** The registered source ids: those of {@code sources}, or the one {@code source.id}. */
    public List<String> sourceIds() {
        List<String> listed = list("sources");
        return listed.isEmpty() ? List.of(string("source.id")) : listed;
    }

    /** True when the sources are the one source of the flat source.* keys. */
    public boolean singleFlatSource() {
        return list("sources").isEmpty();
    }

    /** The key that configures {@code suffix} of source {@code id}: source.<suffix> or source.<id>.<suffix>. */
    public String sourceKey(String id, String suffix) {
        return singleFlatSource() ? "source." + suffix : "source." + id + "." + suffix;
    }

    /** A source setting; a listed source falls back to the source.* value (its topic prefix to its id). */
    public String sourceValue(String id, String suffix) {
        String own = values.get(sourceKey(id, suffix));
        if (own != null) {
            return own;
        }
        return suffix.equals("topic-prefix") ? id : string("source." + suffix);
    }

    public List<String> sourceList(String id, String suffix) {
        return Arrays.stream(sourceValue(id, suffix).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** The allow-listed fields of a table in text order; empty: every field that is not excluded. */
    public List<String> allowedFields(String id, String table) {
        String key = singleFlatSource() ? "source.fields." + table : "source." + id + ".fields." + table;
        String v = values.getOrDefault(key, "");
        return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
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

    /**
     * The key's value as a constant of {@code type}, named in lower case with '-' for '_' ({@code clauses} for
     * {@code CLAUSES}); any other value is refused naming the key and the values it may take.
     */
    public <E extends Enum<E>> E choice(String key, Class<E> type) {
        String value = string(key);
        List<String> names = new java.util.ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            String name = constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
            if (name.equals(value)) {
                return constant;
            }
            names.add(name);
        }
        String last = names.removeLast();
        throw bad(key, "must be " + (names.isEmpty() ? last : String.join(", ", names) + " or " + last));
    }

    public List<String> list(String key) {
        return Arrays.stream(string(key).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    void positive(String key) {
        if (integer(key) < 1) {
            throw bad(key, "must be at least 1");
        }
    }

    void nonNegative(String key) {
        if (integer(key) < 0) {
            throw bad(key, "must not be negative");
        }
    }

    ConfigException bad(String key, String rule) {
        return new ConfigException("configuration '" + key + "' = '" + values.get(key) + "' (from " + origins.get(key) + ") " + rule);
    }

    /** The operations endpoint's port; 0 when it is off. */
    public int opsPort() {
        if (string("ops.http.port").equalsIgnoreCase("off")) {
            return 0;
        }
        long port = integer("ops.http.port");
        if (port < 0 || port > 65_535) {
            throw bad("ops.http.port", "must be a port number (1-65535), or 0 or off for no endpoint");
        }
        return (int) port;
    }

    /** A ConfigException naming the key, its value and where the value came from. */
    public ConfigException invalid(String key, String rule) {
        return bad(key, rule);
    }

    /** {@code ingest.partitions}, or {@code index.partitions} when it is empty. */
    public int ingestPartitions() {
        return (int) integer(string("ingest.partitions").isEmpty() ? "index.partitions" : "ingest.partitions");
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
        // the fixed keys only: `chartstream config` prints each with its description
        values.forEach((k, v) -> {
            if (KEYS.containsKey(k)) {
                String shown = (k.endsWith("password") || k.endsWith("jaas-config")) && !v.isEmpty() ? "***"
                        : k.endsWith(".uri") ? v.replaceAll("//[^/@]*@", "//***@") : v;
                out.put(k, shown + "  (" + origins.get(k) + ")");
            }
        });
        return out;
    }
}
