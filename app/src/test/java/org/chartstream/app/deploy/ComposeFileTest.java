package org.chartstream.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.StoreSelection;
import org.chartstream.store.documentdb.DocumentDbSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The production shape's files, checked without a Docker engine (none runs on the build machine): docker-compose.yml
 * parses and declares what the README says, every file it mounts from the repository exists, and the services'
 * configuration (docker/chartstream.properties + the compose environment) is a valid chartstream configuration
 * selecting DocumentDB with TLS validation on. Whether the images start is NOT checked here.
 */
class ComposeFileTest {
    private static final Path ROOT = Files.exists(Path.of("docker-compose.yml")) ? Path.of("") : Path.of("..");

    @TempDir
    Path dir;

    private static JsonNode compose() throws Exception {
        // SnakeYAML resolves the `<<: *chartstream` merge keys as Docker Compose does
        Object yaml = new Yaml().load(Files.readString(ROOT.resolve("docker-compose.yml")));
        return new ObjectMapper().valueToTree(yaml);
    }

    @Test
    void theComposeFileDeclaresTheProductionShape() throws Exception {
        JsonNode services = compose().get("services");
        assertThat(services.get("kafka").get("image").asText()).startsWith("apache/kafka:");
        assertThat(services.get("kafka").at("/environment/KAFKA_PROCESS_ROLES").asText()).isEqualTo("broker,controller");
        assertThat(services.get("documentdb").get("image").asText()).startsWith("ghcr.io/microsoft/documentdb/documentdb-local");
        assertThat(services.get("postgres").get("command").toString()).contains("wal_level=logical");
        assertThat(Files.readString(ROOT.resolve("docker/mysql/binlog.cnf"))).contains("binlog_format = ROW", "binlog_row_image = FULL");
        assertThat(services.get("sqlserver").at("/environment/MSSQL_AGENT_ENABLED").asText()).isEqualTo("true");
        assertThat(Files.readString(ROOT.resolve("docker/sqlserver/enable-cdc.sql"))).contains("sys.sp_cdc_enable_db", "sys.sp_cdc_enable_table");
        assertThat(services.get("ingest").get("command").toString()).isEqualTo("[\"run\",\"--role\",\"ingest\"]");
        assertThat(services.get("query").get("command").toString()).isEqualTo("[\"run\",\"--role\",\"query\"]");
        assertThat(services.get("ingest").get("build").asText()).isEqualTo(".");
        for (String role : List.of("ingest", "query")) {
            assertThat(services.get(role).at("/healthcheck/test").toString()).as(role).contains("/ready");
        }
        assertThat(Files.readString(ROOT.resolve("Dockerfile"))).contains("COPY app/target/chartstream-app.jar", "COPY app/target/lib/");
    }

    @Test
    void everyFileTheComposeFileMountsFromTheRepositoryExists() throws Exception {
        List<String> sources = new ArrayList<>();
        compose().get("services").forEach(service -> {
            if (service.has("volumes")) {
                service.get("volumes").forEach(v -> sources.add(v.asText().split(":")[0]));
            }
        });
        List<String> files = sources.stream().filter(s -> s.startsWith("./")).toList();
        assertThat(files).isNotEmpty();
        for (String file : files) {
            Path path = ROOT.resolve(file);
            if (file.startsWith("./docker/certs")) {
                // made on the deploying host by docker/make-certs.sh, never committed
                assertThat(Files.readString(ROOT.resolve("docker/make-certs.sh"))).contains("ca.pem", "documentdb.pem", "documentdb.key");
            } else {
                assertThat(path).as(file).exists();
            }
        }
    }

    @Test
    void theServicesConfigurationIsValidAndSelectsDocumentDbWithCertificateValidation() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "stands in for the mounted CA file");
        Map<String, String> env = new java.util.HashMap<>();
        compose().get("x-chartstream").get("environment").fields().forEachRemaining(e -> {
            assertThat(e.getKey()).startsWith("CHARTSTREAM_");
            if (!e.getKey().equals("CHARTSTREAM_CONFIG")) {
                assertThat(ChartstreamConfig.KEYS.keySet().stream().map(ChartstreamConfig::envName)).as(e.getKey()).contains(e.getKey());
                env.put(e.getKey(), "secret");
            }
        });
        env.put(ChartstreamConfig.envName("documentdb.tls.ca-file"), ca.toString());
        ChartstreamConfig config = ChartstreamConfig.load(ROOT.resolve("docker/chartstream.properties"), env);
        assertThat(config.string("kafka.bootstrap")).isEqualTo("kafka:9092");
        assertThat(config.string("source.host")).isEqualTo("postgres");
        assertThat(config.string("store.kind")).isEqualTo("documentdb");
        DocumentDbSettings settings = StoreSelection.documentDbSettings(config, 384);
        assertThat(settings.connectionString()).isEqualTo("mongodb://chartstream:secret@documentdb:10260/?tls=true");
        assertThat(settings.tls().enabled()).isTrue();
        assertThat(settings.tls().caFile()).isEqualTo(ca);
        assertThat(settings.tls().allowInvalidCertificates()).isFalse();
    }
}
