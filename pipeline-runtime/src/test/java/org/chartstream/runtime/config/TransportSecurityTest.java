package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.chartstream.store.documentdb.DocumentDbSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransportSecurityTest {
    @TempDir
    Path dir;

    @Test
    void theEmbeddedBrokerGetsNoSecuritySettingsAndDocumentDbValidatesCertificatesByDefault() {
        ChartstreamConfig defaults = ChartstreamConfig.defaults();
        assertThat(TransportSecurity.kafkaClientProperties(defaults)).isEmpty();
        assertThat(defaults.string("kafka.ssl.endpoint-identification-algorithm")).isEqualTo("https");
        assertThat(TransportSecurity.warning(defaults)).isNull();
        DocumentDbSettings.Tls tls = TransportSecurity.documentDbTls(defaults);
        assertThat(tls.allowInvalidCertificates()).isFalse();
        assertThat(tls.caFile()).isNull();
        assertThat(tls.enabled()).isFalse(); // then the connection string decides, and a tls=true one is validated
    }

    @Test
    void anExternalTlsBrokerGetsProtocolTrustStoreKeyStoreAndHostNameVerification() throws Exception {
        Path trust = Files.writeString(dir.resolve("trust.p12"), "x");
        Path keys = Files.writeString(dir.resolve("client.p12"), "x");
        ChartstreamConfig config = ChartstreamConfig.load(null, Map.of(
                "CHARTSTREAM_KAFKA_BOOTSTRAP", "kafka.hospital.internal:9093",
                "CHARTSTREAM_KAFKA_SECURITY_PROTOCOL", "SSL",
                "CHARTSTREAM_KAFKA_SSL_TRUSTSTORE_LOCATION", trust.toString(),
                "CHARTSTREAM_KAFKA_SSL_TRUSTSTORE_PASSWORD", "t-secret",
                "CHARTSTREAM_KAFKA_SSL_TRUSTSTORE_TYPE", "PKCS12",
                "CHARTSTREAM_KAFKA_SSL_KEYSTORE_LOCATION", keys.toString(),
                "CHARTSTREAM_KAFKA_SSL_KEYSTORE_PASSWORD", "k-secret",
                "CHARTSTREAM_KAFKA_SSL_KEY_PASSWORD", "p-secret"));
        assertThat(TransportSecurity.kafkaClientProperties(config)).containsOnly(
                Map.entry("security.protocol", "SSL"),
                Map.entry("ssl.endpoint.identification.algorithm", "https"),
                Map.entry("ssl.truststore.location", trust.toString()),
                Map.entry("ssl.truststore.password", "t-secret"),
                Map.entry("ssl.truststore.type", "PKCS12"),
                Map.entry("ssl.keystore.location", keys.toString()),
                Map.entry("ssl.keystore.password", "k-secret"),
                Map.entry("ssl.key.password", "p-secret"));
        assertThat(TransportSecurity.warning(config)).isNull();
        assertThat(config.describe().get("kafka.ssl.truststore.password")).startsWith("***");
        assertThat(config.describe().get("kafka.ssl.key.password")).startsWith("***");
    }

    @Test
    void saslOverTlsCarriesMechanismAndJaasConfigWhichIsNeverPrinted() {
        ChartstreamConfig config = ChartstreamConfig.defaults().with("kafka.bootstrap", "kafka:9094")
                .with("kafka.sasl.mechanism", "SCRAM-SHA-512").with("kafka.security.protocol", "SASL_SSL")
                .with("kafka.sasl.jaas-config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"cs\" password=\"pw\";");
        Map<String, String> p = TransportSecurity.kafkaClientProperties(config);
        assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.endpoint.identification.algorithm", "https").containsKey("sasl.jaas.config");
        assertThat(config.describe().get("kafka.sasl.jaas-config")).startsWith("***").doesNotContain("pw");
    }

    @Test
    void hostNameVerificationIsOffOnlyWhenNamedAndThenWarned() {
        ChartstreamConfig config = ChartstreamConfig.defaults().with("kafka.bootstrap", "10.0.0.5:9093")
                .with("kafka.security.protocol", "SSL").with("kafka.ssl.endpoint-identification-algorithm", "none");
        assertThat(TransportSecurity.kafkaClientProperties(config)).containsEntry("ssl.endpoint.identification.algorithm", "");
        assertThat(TransportSecurity.warning(config)).contains("host name verification is OFF");
        // an empty value (Kafka's own way to switch it off) is refused rather than taken silently
        assertThatThrownBy(() -> config.with("kafka.ssl.endpoint-identification-algorithm", ""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'kafka.ssl.endpoint-identification-algorithm'");
    }

    @Test
    void badSettingsAreRefusedNamingTheKey() {
        ChartstreamConfig external = ChartstreamConfig.defaults().with("kafka.bootstrap", "kafka:9093");
        assertThatThrownBy(() -> external.with("kafka.security.protocol", "TLS"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'kafka.security.protocol' = 'TLS'");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("kafka.security.protocol", "SSL"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("set kafka.bootstrap");
        assertThatThrownBy(() -> external.with("kafka.ssl.truststore.location", dir.resolve("missing.jks").toString()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'kafka.ssl.truststore.location'");
        assertThatThrownBy(() -> external.with("kafka.security.protocol", "SASL_SSL"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'kafka.sasl.mechanism'");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("documentdb.tls", "yes"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'documentdb.tls'");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("ops.http.port", "70000"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'ops.http.port'");
    }

    @Test
    void documentDbTlsFollowsItsKeys() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
        DocumentDbSettings.Tls withCa = TransportSecurity.documentDbTls(ChartstreamConfig.defaults().with("documentdb.tls.ca-file", ca.toString()));
        assertThat(withCa.enabled()).isTrue();
        assertThat(withCa.caFile()).isEqualTo(ca);
        assertThat(withCa.allowInvalidCertificates()).isFalse();
        assertThat(TransportSecurity.documentDbTls(ChartstreamConfig.defaults().with("documentdb.tls", "true")))
                .isEqualTo(new DocumentDbSettings.Tls(true, null, false));
        assertThat(TransportSecurity.documentDbTls(ChartstreamConfig.defaults().with("documentdb.tls.allow-invalid-certificates", "true"))
                .allowInvalidCertificates()).isTrue();
        assertThat(ChartstreamConfig.defaults().with("ops.http.port", "off").opsPort()).isZero();
    }
}
