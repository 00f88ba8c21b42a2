package org.chartstream.datasets;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * A dataset shipped as files: a PostgreSQL DDL script (a classpath resource) that creates schema-qualified tables,
 * and one gzipped CSV file with a header per table ({@code <table>.csv.gz}) in a folder. Loading runs the DDL, then
 * {@code COPY}s every file in the order the DDL creates the tables (a table's foreign keys name tables created before
 * it, so parents are loaded first), all in one transaction: a failed load leaves no table behind.
 */
public final class CsvTablesDataset implements Dataset {
    private static final Pattern CREATE_TABLE =
            Pattern.compile("(?i)\\bCREATE\\s+TABLE\\s+([A-Za-z_][A-Za-z0-9_]*)\\.([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern LINE_COMMENT = Pattern.compile("--[^\\n]*");

    private final String name;
    private final String description;
    private final String ddlResource;
    private final String configurationResource;
    private final Supplier<Path> folder;

    /**
     * @param ddlResource           classpath resource of the DDL script
     * @param configurationResource classpath resource of the source configuration (a properties file)
     * @param folder                where the {@code <table>.csv.gz} files are; asked when the dataset is loaded
     */
    public CsvTablesDataset(String name, String description, String ddlResource, String configurationResource,
                            Supplier<Path> folder) {
        this.name = name;
        this.description = description;
        this.ddlResource = ddlResource;
        this.configurationResource = configurationResource;
        this.folder = folder;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Map<String, String> configuration() {
        Properties properties = new Properties();
        try (InputStream in = resource(configurationResource)) {
            properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + configurationResource, e);
        }
        Map<String, String> configuration = new TreeMap<>();
        properties.stringPropertyNames().forEach(key -> configuration.put(key, properties.getProperty(key).trim()));
        return configuration;
    }

    /** The DDL script. */
    public String ddl() {
        try (InputStream in = resource(ddlResource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + ddlResource, e);
        }
    }

    /** The schema-qualified tables the DDL creates, in its order (the load order). */
    public List<String> tables() {
        Matcher m = CREATE_TABLE.matcher(LINE_COMMENT.matcher(ddl()).replaceAll(""));
        List<String> tables = new ArrayList<>();
        while (m.find()) {
            tables.add(m.group(1) + "." + m.group(2));
        }
        if (tables.isEmpty()) {
            throw new IllegalStateException(ddlResource + " creates no schema-qualified table");
        }
        return tables;
    }

    @Override
    public Map<String, Integer> load(Connection connection, Consumer<String> progress) throws SQLException {
        Path dir = folder.get();
        List<String> tables = tables();
        for (String table : tables) {
            if (!Files.isReadable(file(dir, table))) {
                throw new IllegalStateException("dataset " + name + ": " + file(dir, table) + " is missing (a clone of"
                        + " the repository carries it under data/; run from the repository, or through ./chartstream)");
            }
        }
        CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
        Map<String, Integer> counts = new LinkedHashMap<>();
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (Statement st = connection.createStatement()) {
                st.execute(ddl());
            }
            for (String table : tables) {
                long t = System.nanoTime();
                counts.put(table, copy(copy, table, file(dir, table)));
                progress.accept(String.format("dataset %s: %s %,d rows (%.1f s)", name, table, counts.get(table),
                        (System.nanoTime() - t) / 1e9));
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        try (Statement st = connection.createStatement()) {
            for (String table : tables) {
                st.execute("ANALYZE " + table); // planner statistics for the snapshot's and the checks' queries
            }
        }
        return counts;
    }

    private static int copy(CopyManager copy, String table, Path file) throws SQLException {
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(file)), 1 << 16)) {
            return Math.toIntExact(copy.copyIn("COPY " + table + " FROM STDIN WITH (FORMAT csv, HEADER true)", in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static Path file(Path dir, String qualifiedTable) {
        return dir.resolve(qualifiedTable.substring(qualifiedTable.indexOf('.') + 1) + ".csv.gz");
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = CsvTablesDataset.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException("no classpath resource " + name);
        }
        return in;
    }
}
