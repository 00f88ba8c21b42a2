package org.chartstream.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.debezium.config.Configuration;
import io.debezium.connector.mariadb.MariaDbConnectorConfig;
import io.debezium.connector.postgresql.PostgresConnectorConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class DebeziumConfigsTest {

    private static final Path OFFSETS = Path.of("/var/lib/chartstream/offsets");
    private static final String BOOTSTRAP = "127.0.0.1:9092";
    private static final List<String> TABLES = List.of("patients", "encounters", "conditions", "allergies");

    private static SourceConnection source(SourceKind kind, String schema) {
        return SourceConnection.of("ehr-main", kind, "db.local", kind.defaultPort(), "clinic", "dbz", "s3cret",
                schema, TABLES);
    }

    private static final List<String> COMMON_KEYS = List.of(
            "name", "connector.class", "bootstrap.servers", "offset.storage", "offset.storage.file.filename",
            "offset.flush.interval.ms", "poll.interval.ms", "key.converter.schemas.enable", "value.converter.schemas.enable",
            "database.hostname", "database.port", "database.user", "database.password", "topic.prefix",
            "table.include.list", "snapshot.mode", "snapshot.max.threads", "snapshot.tables.order.by.row.count",
            "decimal.handling.mode", "time.precision.mode", "tombstones.on.delete");

    @Test
    void postgresProperties() {
        Properties p = DebeziumConfigs.forSource(source(SourceKind.POSTGRES, null), "cs", OFFSETS, BOOTSTRAP);

        assertThat(p.stringPropertyNames()).containsAll(COMMON_KEYS);
        assertThat(p).containsEntry("connector.class", IdleWaitingPostgresConnector.class.getName())
                .containsEntry("name", "chartstream-ehr-main")
                .containsEntry("plugin.name", "pgoutput")
                .containsEntry("slot.name", "chartstream_ehr_main_slot")
                .containsEntry("publication.name", "chartstream_ehr_main_pub")
                .containsEntry("publication.autocreate.mode", "filtered")
                .containsEntry("database.dbname", "clinic")
                .containsEntry("snapshot.mode", "initial")
                .containsEntry("decimal.handling.mode", "string")
                .containsEntry("time.precision.mode", "isostring")
                .containsEntry("tombstones.on.delete", "true")
                .containsEntry("key.converter.schemas.enable", "false")
                .containsEntry("value.converter.schemas.enable", "false")
                .containsEntry("offset.storage", "org.chartstream.connectors.AtomicFileOffsetBackingStore")
                .containsEntry("offset.storage.file.filename", OFFSETS.resolve("ehr-main.offsets.dat").toString())
                .containsEntry("offset.flush.interval.ms", "0")
                .containsEntry("poll.interval.ms", "10")
                .containsEntry("bootstrap.servers", BOOTSTRAP)
                .containsEntry("topic.prefix", "cs")
                .containsEntry("database.port", "5432");
        assertThat(p).doesNotContainKeys("database.server.id", "schema.history.internal", "database.include.list");
    }

    @Test
    void tableOrderIsKeptInIncludeListAndTopics() {
        SourceConnection pg = source(SourceKind.POSTGRES, null);
        Properties p = DebeziumConfigs.forSource(pg, "cs", OFFSETS, BOOTSTRAP);

        assertThat(Arrays.asList(p.getProperty("table.include.list").split(",")))
                .containsExactly("public\\.patients", "public\\.encounters", "public\\.conditions", "public\\.allergies");
        assertThat(DebeziumConfigs.topicsFor(pg, "cs"))
                .containsExactly("cs.public.patients", "cs.public.encounters", "cs.public.conditions", "cs.public.allergies");
        // nothing may reorder the snapshot
        assertThat(p).containsEntry("snapshot.max.threads", "1")
                .containsEntry("snapshot.tables.order.by.row.count", "disabled");

        SourceConnection reversed = SourceConnection.of("x", SourceKind.POSTGRES, "h", 5432, "d", "u", null, "emr",
                List.of("zeta", "alpha"));
        assertThat(DebeziumConfigs.forSource(reversed, "cs", OFFSETS, BOOTSTRAP).getProperty("table.include.list"))
                .isEqualTo("emr\\.zeta,emr\\.alpha");
    }

    @Test
    void includeListPatternsMatchExactlyTheConfiguredTables() {
        String list = DebeziumConfigs.tableIncludeList(source(SourceKind.POSTGRES, null));
        var first = java.util.regex.Pattern.compile(list.split(",")[0]);
        assertThat(first.matcher("public.patients").matches()).isTrue();
        assertThat(first.matcher("publicXpatients").matches()).isFalse();
        assertThat(first.matcher("public.patients_archive").matches()).isFalse();
    }

    @Test
    void mariadbAndMysqlProperties() {
        for (SourceKind kind : List.of(SourceKind.MARIADB, SourceKind.MYSQL)) {
            SourceConnection src = source(kind, "ignored");
            Properties p = DebeziumConfigs.forSource(src, "cs", OFFSETS, BOOTSTRAP);
            assertThat(p.stringPropertyNames()).containsAll(COMMON_KEYS);
            assertThat(p).containsEntry("connector.class", kind.embeddedConnectorClass())
                    .containsEntry("database.include.list", "clinic")
                    .containsEntry("include.schema.changes", "false")
                    .containsEntry("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory")
                    .containsEntry("schema.history.internal.file.filename",
                            OFFSETS.resolve("ehr-main.schema-history.dat").toString())
                    .containsEntry("database.port", "3306")
                    .containsEntry("connect.keep.alive.interval.ms", "5000")
                    .containsEntry("table.include.list",
                            "clinic\\.patients,clinic\\.encounters,clinic\\.conditions,clinic\\.allergies");
            int serverId = Integer.parseInt(p.getProperty("database.server.id"));
            assertThat(serverId).isGreaterThanOrEqualTo(DebeziumConfigs.SERVER_ID_BASE)
                    .isEqualTo(DebeziumConfigs.serverId("ehr-main"));
            assertThat(p).doesNotContainKeys("plugin.name", "slot.name", "publication.name");
            assertThat(DebeziumConfigs.topicFor(src, "cs", "patients")).isEqualTo("cs.clinic.patients");
        }
        assertThat(SourceKind.MARIADB.connectorClass()).isEqualTo("io.debezium.connector.mariadb.MariaDbConnector");
        assertThat(SourceKind.MYSQL.connectorClass()).isEqualTo("io.debezium.connector.mysql.MySqlConnector");
    }

    @Test
    void everyKindEmitsTruncatesInsteadOfSkippingThem() {
        for (SourceKind kind : SourceKind.values()) {
            Properties p = DebeziumConfigs.forSource(source(kind, null), "cs", OFFSETS, BOOTSTRAP);
            assertThat(p.getProperty("skipped.operations")).as("skipped.operations of %s", kind).isEqualTo("none");
        }
    }

    @Test
    void sqlServerProperties() {
        SourceConnection src = source(SourceKind.SQLSERVER, null);
        Properties p = DebeziumConfigs.forSource(src, "cs", OFFSETS, BOOTSTRAP);
        assertThat(p.stringPropertyNames()).containsAll(COMMON_KEYS);
        assertThat(p).containsEntry("connector.class", "io.debezium.connector.sqlserver.SqlServerConnector")
                .containsEntry("database.names", "clinic")
                .containsEntry("topic.naming.strategy", "io.debezium.schema.SchemaTopicNamingStrategy")
                .containsEntry("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory")
                .containsEntry("include.schema.changes", "false")
                .containsEntry("database.port", "1433")
                .containsEntry("table.include.list", "dbo\\.patients,dbo\\.encounters,dbo\\.conditions,dbo\\.allergies");
        assertThat(DebeziumConfigs.topicFor(src, "cs", "patients")).isEqualTo("cs.dbo.patients");
    }

    @Test
    void postgresAndMariadbConnectorsAcceptTheValues() {
        // Debezium's own field validation: enum values (isostring, string, filtered, pgoutput ...) are accepted
        List<String> problems = new ArrayList<>();
        Configuration pg = Configuration.from(
                DebeziumConfigs.forSource(source(SourceKind.POSTGRES, null), "cs", OFFSETS, BOOTSTRAP));
        assertThat(pg.validateAndRecord(PostgresConnectorConfig.ALL_FIELDS, problems::add)).as("%s", problems).isTrue();

        Configuration maria = Configuration.from(
                DebeziumConfigs.forSource(source(SourceKind.MARIADB, null), "cs", OFFSETS, BOOTSTRAP));
        assertThat(maria.validateAndRecord(MariaDbConnectorConfig.ALL_FIELDS, problems::add)).as("%s", problems).isTrue();
    }

    @Test
    void extraOverridesDefaultsAndPasswordIsOptional() {
        SourceConnection src = SourceConnection.of("s1", SourceKind.POSTGRES, "h", 5432, "d", "postgres", null,
                null, List.of("patients")).withExtra(Map.of("snapshot.mode", "no_data", "database.sslmode", "require"));
        Properties p = DebeziumConfigs.forSource(src, "cs", OFFSETS, BOOTSTRAP);
        assertThat(p).containsEntry("snapshot.mode", "no_data").containsEntry("database.sslmode", "require")
                .doesNotContainKey("database.password");
    }

    @Test
    void derivedPostgresNamesAreValidIdentifiers() {
        String longId = "A-very-long-source-identifier-that-goes-on-and-on-and-on-forever-x";
        assertThat(DebeziumConfigs.slotName(longId)).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9_]+").endsWith("_slot");
        assertThat(DebeziumConfigs.publicationName(longId)).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9_]+");
        assertThat(DebeziumConfigs.slotName(longId)).isNotEqualTo(DebeziumConfigs.slotName(longId + "y"));
    }

    @Test
    void validation() {
        SourceConnection pg = source(SourceKind.POSTGRES, null);
        assertThatThrownBy(() -> DebeziumConfigs.forSource(pg, "bad prefix", OFFSETS, BOOTSTRAP))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DebeziumConfigs.forSource(pg, "cs", OFFSETS, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bootstrap");
        assertThatThrownBy(() -> SourceConnection.of("bad id", SourceKind.POSTGRES, "h", 1, "d", "u", null, null,
                List.of("t"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SourceConnection.of("id", SourceKind.POSTGRES, "h", 1, "d", "u", null, null,
                List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SourceConnection.of("id", SourceKind.POSTGRES, "h", 1, "d", "u", null, null,
                List.of("public.patients"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SourceConnection.of("id", SourceKind.POSTGRES, "h", 1, "d", "u", null, null,
                List.of("a", "a"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringHidesThePassword() {
        assertThat(source(SourceKind.POSTGRES, null).toString()).doesNotContain("s3cret").contains("***");
    }

    @Test
    void producerSettingsAreAtLeastOnce() {
        Properties p = EmbeddedDebeziumRunner.producerProperties("n", BOOTSTRAP,
                Map.of("acks", "0", "enable.idempotence", "false", "linger.ms", "20"));
        assertThat(p).containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
                .containsEntry("linger.ms", "20").containsEntry("bootstrap.servers", BOOTSTRAP);
    }
}
