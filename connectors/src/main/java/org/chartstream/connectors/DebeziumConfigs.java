package org.chartstream.connectors;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Debezium 3.5.0.Final embedded-engine properties for each {@link SourceKind}.
 *
 * <p>The events written are the standard Debezium JSON envelope with schemas disabled (the same bytes a Kafka Connect
 * worker with {@code JsonConverter} and {@code schemas.enable=false} writes), on topics named
 * {@code <topicPrefix>.<schema-or-database>.<table>}.
 *
 * <h2>Choices common to every kind</h2>
 * <ul>
 *   <li>{@code snapshot.mode=initial}: snapshot once, then stream; offsets remember that the snapshot is done.</li>
 *   <li><b>Snapshot order = the configured table order.</b> Debezium 3.5 orders the data snapshot by the entries of
 *       {@code table.include.list} (one pattern per table here, so exactly the configured order; see
 *       {@code RelationalSnapshotChangeEventSource#addSignalingCollectionAndSort}, DBZ-1254), unless
 *       {@code snapshot.tables.order.by.row.count} reorders it or {@code snapshot.max.threads > 1} snapshots tables
 *       in parallel. Both are pinned here ({@code disabled}, {@code 1}). The first record of the whole snapshot is
 *       marked {@code source.snapshot=first}: it belongs to the first configured table.</li>
 *   <li>Table entries are dot-escaped regular expressions ({@code public\.patients}); Debezium matches each against
 *       the whole qualified name, so {@code public.patients} cannot also match {@code public.patients_archive}.</li>
 *   <li>{@code decimal.handling.mode=string}: NUMERIC/DECIMAL values are exact strings ({@code "123.45"}), never
 *       base64 bytes or lossy doubles.</li>
 *   <li>{@code time.precision.mode=isostring}: DATE, TIME and TIMESTAMP values are ISO-8601 strings. With schemas
 *       disabled a consumer cannot tell that an integer is "days since epoch", so strings are the only stable,
 *       self-describing choice (TIMESTAMPTZ is always an ISO string in Debezium). Measured shapes on PostgreSQL 17:
 *       DATE {@code "2024-05-06Z"}, TIMESTAMP {@code "2024-05-06T10:11:12.345Z"} (Debezium appends {@code Z} to
 *       zone-less values; they are the wall-clock values stored, not converted), NUMERIC {@code "123.45"}.</li>
 *   <li>{@code binary.handling.mode=base64}, PostgreSQL {@code interval.handling.mode=string} (ISO-8601 durations),
 *       {@code hstore.handling.mode=json}.</li>
 *   <li>{@code tombstones.on.delete=true}: a delete is an {@code op=d} event followed by a tombstone (null value), so
 *       compacted topics and the ingest topology drop the row.</li>
 *   <li>{@code skipped.operations=none}: Debezium's default ({@code t}) drops truncates. With it, PostgreSQL
 *       ({@code pgoutput}; the publication Debezium creates publishes truncates) and MariaDB/MySQL ({@code TRUNCATE
 *       TABLE} in the binlog, parsed as DDL and re-emitted as a data event) write an {@code op=t} event with a null
 *       key and no row images to the table's topic; the ingest side publishes an empty generation for it.</li>
 *   <li>JSON converters with {@code schemas.enable=false} for key and value.</li>
 *   <li>{@code poll.interval.ms=}{@value #POLL_INTERVAL_MS}: how long the connector sleeps when it found no new
 *       change, both reading the source (PostgreSQL's replication stream) and handing events to the engine. With
 *       Debezium's 500 ms default a change committed while it sleeps waits for the rest of that sleep, twice: the
 *       largest part of the time from a commit to the change topic (docs/history/PERFORMANCE-sessions-1-21.md,
 *       "`bench freshness` hops"). An idle wake-up costs a non-blocking socket read. Debezium's hand-over spins for up
 *       to a millisecond at the end of each interval; once the source has been quiet for a second the embedded
 *       connectors ({@link SourceKind#embeddedConnectorClass()}) sleep until a change is queued instead
 *       ({@link IdleQueueWait}).</li>
 *   <li>Offsets in a file ({@link AtomicFileOffsetBackingStore}: Kafka Connect's file store, each write replacing
 *       the file in one step) under {@code offsetsDir}, written after every batch
 *       Kafka acknowledged ({@code offset.flush.interval.ms=}{@value #OFFSET_FLUSH_INTERVAL_MS}). The engine writes
 *       offsets only as it finishes a batch and only if the interval has passed since the last write, so with an
 *       interval (it was 500 ms) the last batches before the source went idle stayed unwritten until the next
 *       change: after a kill -9 the restart re-read them, and when they were the snapshot's last batches
 *       ({@code poll.interval.ms=10} splits a snapshot into many) it snapshotted every table again and the ingest
 *       side built a second generation of each. A write rewrites one small file.
 *       {@code bootstrap.servers} is set as well: Kafka Connect 4.2+ requires it even with file offsets.</li>
 *   <li>Notifications on the {@code sink} channel, to {@link #notificationTopic(String)}. The ingest side reads
 *       the initial snapshot's {@code TABLE_SCAN_COMPLETED} notice (with {@code total_rows_scanned}) for the one case
 *       the row markers cannot tell: a first table with a single row, whose only row is marked {@code first} and
 *       never {@code last_in_data_collection}.</li>
 *   <li>{@link SourceConnection#extra()} is applied last and may override anything above.</li>
 * </ul>
 *
 * <h2>PostgreSQL</h2>
 * {@code pgoutput} (built into PostgreSQL 10+), replication slot {@code chartstream_<id>_slot} and publication
 * {@code chartstream_<id>_pub} derived from the source id, {@code publication.autocreate.mode=filtered} (the
 * publication holds only the configured tables). The user needs REPLICATION and must own the tables (or the
 * publication must exist). Tables should have {@code REPLICA IDENTITY FULL} for full {@code before} images.
 *
 * <h2>MariaDB and MySQL</h2>
 * {@code io.debezium.connector.mariadb.MariaDbConnector} / {@code io.debezium.connector.mysql.MySqlConnector},
 * a {@code database.server.id} derived from the source id (override with {@code extra}), {@code database.include.list}
 * = the database, {@code include.schema.changes=false} (no schema-change topic), schema history in a file
 * ({@code FileSchemaHistory}) next to the offsets, holding only the captured tables' DDL. The server needs
 * {@code log-bin}, {@code binlog_format=ROW} and {@code binlog_row_image=FULL}. The binlog client checks its connection
 * every 5 s ({@code connect.keep.alive.interval.ms}; Debezium's default is 60 s), so streaming resumes within seconds
 * of a server restart.
 *
 * <h2>SQL Server (configured, not run here)</h2>
 * {@code io.debezium.connector.sqlserver.SqlServerConnector} with {@code database.names=<database>}, CDC enabled on the
 * database and tables by the DBA ({@code sys.sp_cdc_enable_db}, {@code sys.sp_cdc_enable_table}), file schema
 * history, and {@code topic.naming.strategy=io.debezium.schema.SchemaTopicNamingStrategy}: without it Debezium 2+
 * names SQL Server topics {@code <prefix>.<database>.<schema>.<table>}; with it they follow the
 * {@code <prefix>.<schema>.<table>} convention used for every source (one database per source, so no clash). The
 * Microsoft JDBC driver encrypts by default; a site with a self-signed certificate adds
 * {@code database.trustServerCertificate=true} (or its trust store) through {@code extra}. The connector jar
 * ({@code io.debezium:debezium-connector-sqlserver:3.5.0.Final}) is not a dependency of this module.
 */
public final class DebeziumConfigs {

    /** Debezium's {@code poll.interval.ms}: the sleep when the source had no new change, in ms. */
    public static final String POLL_INTERVAL_MS = "10";
    /** The least time between two offset writes, in ms: none, so the offsets cover every batch Kafka acknowledged. */
    public static final String OFFSET_FLUSH_INTERVAL_MS = "0";
    /** How often the MariaDB/MySQL binlog client checks its connection and reconnects, in ms. */
    public static final String BINLOG_KEEP_ALIVE_MS = "5000";
    /** Base of the derived MariaDB/MySQL {@code database.server.id}. */
    public static final int SERVER_ID_BASE = 5400;

    /** Suffix of {@link #notificationTopic(String)}; the ingest side names the same topic. */
    public static final String NOTIFICATION_TOPIC_SUFFIX = "debezium-notifications";

    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]+");

    private DebeziumConfigs() {
    }

    /**
     * Embedded-engine properties for one source.
     *
     * @param src              the source
     * @param topicPrefix      Debezium {@code topic.prefix}; topics are {@code <topicPrefix>.<namespace>.<table>}
     * @param offsetsDir       directory for the offsets file (and schema history of the binlog/SQL Server kinds)
     * @param bootstrapServers Kafka bootstrap servers (required by Kafka Connect 4.2+ even with file offsets)
     */
    public static Properties forSource(SourceConnection src, String topicPrefix, Path offsetsDir,
                                       String bootstrapServers) {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(offsetsDir, "offsetsDir");
        requireTopicPrefix(topicPrefix);
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers is required (Kafka Connect 4.2+ needs it)");
        }
        Properties p = new Properties();
        // engine
        p.setProperty("name", engineName(src.sourceId()));
        p.setProperty("connector.class", src.kind().embeddedConnectorClass());
        p.setProperty("tasks.max", "1");
        p.setProperty("bootstrap.servers", bootstrapServers);
        p.setProperty("offset.storage", AtomicFileOffsetBackingStore.class.getName());
        p.setProperty("offset.storage.file.filename", offsetsFile(offsetsDir, src.sourceId()).toString());
        p.setProperty("offset.flush.interval.ms", OFFSET_FLUSH_INTERVAL_MS);
        p.setProperty("offset.flush.timeout.ms", "5000");
        p.setProperty("poll.interval.ms", POLL_INTERVAL_MS);
        // JSON, schemas disabled (key and value; "converter." applies to both)
        p.setProperty("converter.schemas.enable", "false");
        p.setProperty("key.converter.schemas.enable", "false");
        p.setProperty("value.converter.schemas.enable", "false");
        // connection
        p.setProperty("database.hostname", src.host());
        p.setProperty("database.port", Integer.toString(src.port()));
        p.setProperty("database.user", src.user());
        if (src.password() != null) {
            p.setProperty("database.password", src.password());
        }
        // what and in which order
        p.setProperty("topic.prefix", topicPrefix);
        p.setProperty("table.include.list", tableIncludeList(src));
        p.setProperty("snapshot.mode", "initial");
        p.setProperty("snapshot.max.threads", "1");
        p.setProperty("snapshot.tables.order.by.row.count", "disabled");
        p.setProperty("notification.enabled.channels", "sink");
        p.setProperty("notification.sink.topic.name", notificationTopic(topicPrefix));
        // value shapes
        p.setProperty("decimal.handling.mode", "string");
        p.setProperty("time.precision.mode", "isostring");
        p.setProperty("binary.handling.mode", "base64");
        p.setProperty("tombstones.on.delete", "true");
        p.setProperty("provide.transaction.metadata", "false");
        // Debezium skips truncates by default ("t"); a TRUNCATE must empty the table's index (an empty generation)
        p.setProperty("skipped.operations", "none");

        switch (src.kind()) {
            case POSTGRES -> postgres(src, p);
            case MARIADB, MYSQL -> binlog(src, offsetsDir, p);
            case SQLSERVER -> sqlServer(src, offsetsDir, p);
            default -> throw new IllegalArgumentException("unsupported kind " + src.kind());
        }
        src.extra().forEach(p::setProperty);
        return p;
    }

    private static void postgres(SourceConnection src, Properties p) {
        p.setProperty("database.dbname", src.database());
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", slotName(src.sourceId()));
        p.setProperty("publication.name", publicationName(src.sourceId()));
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("slot.drop.on.stop", "false");
        p.setProperty("interval.handling.mode", "string");
        p.setProperty("hstore.handling.mode", "json");
    }

    private static void binlog(SourceConnection src, Path offsetsDir, Properties p) {
        p.setProperty("database.server.id", Integer.toString(serverId(src.sourceId())));
        p.setProperty("database.include.list", src.database());
        p.setProperty("include.schema.changes", "false");
        // the binlog client notices a lost connection (a server restart) only at its keep-alive tick: the default
        // 60 s kept changes waiting up to ~110 s after a restart in MariaDbAbruptStopIT; 5 s costs one ping
        p.setProperty("connect.keep.alive.interval.ms", BINLOG_KEEP_ALIVE_MS);
        schemaHistory(src, offsetsDir, p);
    }

    private static void sqlServer(SourceConnection src, Path offsetsDir, Properties p) {
        p.setProperty("database.names", src.database());
        p.setProperty("include.schema.changes", "false");
        p.setProperty("topic.naming.strategy", "io.debezium.schema.SchemaTopicNamingStrategy");
        schemaHistory(src, offsetsDir, p);
    }

    private static void schemaHistory(SourceConnection src, Path offsetsDir, Properties p) {
        p.setProperty("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.setProperty("schema.history.internal.file.filename", schemaHistoryFile(offsetsDir, src.sourceId()).toString());
        p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
        p.setProperty("schema.history.internal.store.only.captured.databases.ddl", "true");
    }

    /**
     * {@code table.include.list}: one anchored, dot-escaped pattern per table, in the configured order (the order
     * Debezium snapshots them in).
     */
    public static String tableIncludeList(SourceConnection src) {
        String ns = regexLiteral(src.namespace());
        return src.tables().stream().map(t -> ns + "\\." + regexLiteral(t)).collect(Collectors.joining(","));
    }

    /** The topic Debezium writes a table's events to: {@code <topicPrefix>.<namespace>.<table>}. */
    public static String topicFor(SourceConnection src, String topicPrefix, String table) {
        requireTopicPrefix(topicPrefix);
        return topicPrefix + "." + src.namespace() + "." + table;
    }

    /**
     * The topic Debezium's notifications (snapshot progress) go to: {@code <topicPrefix>.debezium-notifications}. It
     * has one name part after the prefix, so no {@code <namespace>.<table>} topic can have the same name.
     */
    public static String notificationTopic(String topicPrefix) {
        requireTopicPrefix(topicPrefix);
        return topicPrefix + "." + NOTIFICATION_TOPIC_SUFFIX;
    }

    /** Every table's topic, in the configured table order. */
    public static List<String> topicsFor(SourceConnection src, String topicPrefix) {
        return src.tables().stream().map(t -> topicFor(src, topicPrefix, t)).toList();
    }

    /** Engine (connector) name. */
    public static String engineName(String sourceId) {
        return "chartstream-" + sourceId;
    }

    /** PostgreSQL replication slot name: lower case, {@code [a-z0-9_]}, at most 63 characters. */
    public static String slotName(String sourceId) {
        return pgIdentifier("chartstream_" + sourceId, "_slot");
    }

    /** PostgreSQL publication name. */
    public static String publicationName(String sourceId) {
        return pgIdentifier("chartstream_" + sourceId, "_pub");
    }

    /** The offsets file of a source. */
    public static Path offsetsFile(Path offsetsDir, String sourceId) {
        return offsetsDir.resolve(sourceId + ".offsets.dat");
    }

    /** The schema-history file of a MariaDB/MySQL/SQL Server source. */
    public static Path schemaHistoryFile(Path offsetsDir, String sourceId) {
        return offsetsDir.resolve(sourceId + ".schema-history.dat");
    }

    /**
     * A stable MariaDB/MySQL {@code database.server.id} for the source: {@value #SERVER_ID_BASE} plus a hash of the
     * id (it must differ from every other replica of the server; override with {@code extra} if it clashes).
     */
    public static int serverId(String sourceId) {
        return SERVER_ID_BASE + Math.floorMod(sourceId.hashCode(), 1_000_000);
    }

    private static String pgIdentifier(String base, String suffix) {
        String s = (base + suffix).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (s.length() > 63) {
            String hash = Integer.toHexString(base.hashCode());
            s = s.substring(0, 63 - suffix.length() - hash.length() - 1) + "_" + hash + suffix;
        }
        return s;
    }

    private static String regexLiteral(String s) {
        StringBuilder b = new StringBuilder(s.length() + 4);
        for (char c : s.toCharArray()) {
            if ("\\.[]{}()*+?^$|".indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    private static void requireTopicPrefix(String topicPrefix) {
        if (topicPrefix == null || !TOPIC_PREFIX.matcher(topicPrefix).matches()) {
            throw new IllegalArgumentException("topicPrefix must match [A-Za-z0-9._-]+: '" + topicPrefix + "'");
        }
    }
}
