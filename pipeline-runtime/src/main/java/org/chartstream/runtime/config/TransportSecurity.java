package org.chartstream.runtime.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.store.documentdb.DocumentDbSettings;

/**
 * Transport security of the Kafka clients and of DocumentDB, from the {@code kafka.security.*}, {@code kafka.ssl.*},
 * {@code kafka.sasl.*} and {@code documentdb.tls*} keys. Certificate validation is on by default; host name
 * verification of the broker can only be switched off by naming it ({@code ...endpoint-identification-algorithm=none}),
 * and the runtime says so when it starts.
 */
public final class TransportSecurity {
    private static final List<String> PROTOCOLS = List.of("PLAINTEXT", "SSL", "SASL_SSL", "SASL_PLAINTEXT");

    private TransportSecurity() {
    }

    /**
     * The Kafka client properties every producer, consumer, admin client and Streams instance of the runtime gets
     * besides {@code bootstrap.servers}: empty for the embedded broker and for a plaintext external one.
     */
    public static Map<String, String> kafkaClientProperties(ChartstreamConfig config) {
        Map<String, String> p = new LinkedHashMap<>();
        String protocol = config.string("kafka.security.protocol");
        if (config.string("kafka.bootstrap").isEmpty() || protocol.equals("PLAINTEXT")) {
            return p;
        }
        p.put("security.protocol", protocol);
        if (protocol.startsWith("SASL")) {
            putIfSet(p, "sasl.mechanism", config.string("kafka.sasl.mechanism"));
            putIfSet(p, "sasl.jaas.config", config.string("kafka.sasl.jaas-config"));
        }
        if (protocol.endsWith("SSL")) {
            String algorithm = config.string("kafka.ssl.endpoint-identification-algorithm");
            p.put("ssl.endpoint.identification.algorithm", algorithm.equals("none") ? "" : algorithm);
            putIfSet(p, "ssl.truststore.location", config.string("kafka.ssl.truststore.location"));
            putIfSet(p, "ssl.truststore.password", config.string("kafka.ssl.truststore.password"));
            putIfSet(p, "ssl.truststore.type", config.string("kafka.ssl.truststore.type"));
            putIfSet(p, "ssl.keystore.location", config.string("kafka.ssl.keystore.location"));
            putIfSet(p, "ssl.keystore.password", config.string("kafka.ssl.keystore.password"));
            putIfSet(p, "ssl.key.password", config.string("kafka.ssl.key.password"));
            putIfSet(p, "ssl.keystore.type", config.string("kafka.ssl.keystore.type"));
        }
        return p;
    }

    /** A warning to print at start when the configuration weakens TLS, or null. */
    public static String warning(ChartstreamConfig config) {
        Map<String, String> p = kafkaClientProperties(config);
        if ("".equals(p.get("ssl.endpoint.identification.algorithm"))) {
            return "WARNING: Kafka TLS host name verification is OFF (kafka.ssl.endpoint-identification-algorithm=none):"
                    + " a server with any certificate from a trusted CA can impersonate the broker";
        }
        return null;
    }

    /** The DocumentDB transport security of {@code documentdb.tls*}. */
    public static DocumentDbSettings.Tls documentDbTls(ChartstreamConfig config) {
        String ca = config.string("documentdb.tls.ca-file");
        boolean allowInvalid = Boolean.parseBoolean(config.string("documentdb.tls.allow-invalid-certificates"));
        boolean enabled = Boolean.parseBoolean(config.string("documentdb.tls")) || !ca.isEmpty() || allowInvalid;
        return new DocumentDbSettings.Tls(enabled, ca.isEmpty() ? null : Path.of(ca), allowInvalid);
    }

    static void validate(ChartstreamConfig config) {
        String protocol = config.string("kafka.security.protocol");
        if (!PROTOCOLS.contains(protocol)) {
            throw config.invalid("kafka.security.protocol", "must be one of " + String.join(", ", PROTOCOLS));
        }
        if (!protocol.equals("PLAINTEXT") && config.string("kafka.bootstrap").isEmpty()) {
            throw config.invalid("kafka.security.protocol", "applies to an external broker: set kafka.bootstrap"
                    + " (the embedded broker listens in plaintext on loopback only)");
        }
        String algorithm = config.string("kafka.ssl.endpoint-identification-algorithm");
        if (!algorithm.equals("https") && !algorithm.equals("none")) {
            throw config.invalid("kafka.ssl.endpoint-identification-algorithm",
                    "must be https (verify the broker's host name) or none (switch the check off explicitly)");
        }
        if (protocol.startsWith("SASL") && config.string("kafka.sasl.mechanism").isEmpty()) {
            throw config.invalid("kafka.sasl.mechanism", "must be set with kafka.security.protocol=" + protocol);
        }
        for (String key : List.of("kafka.ssl.truststore.location", "kafka.ssl.keystore.location", "documentdb.tls.ca-file")) {
            String file = config.string(key);
            if (!file.isEmpty() && !Files.isRegularFile(Path.of(file))) {
                throw config.invalid(key, "names no readable file");
            }
        }
    }

    private static void putIfSet(Map<String, String> p, String key, String value) {
        if (!value.isEmpty()) {
            p.put(key, value);
        }
    }
}
