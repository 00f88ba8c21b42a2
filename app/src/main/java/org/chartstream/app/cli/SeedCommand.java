package org.chartstream.app.cli;

import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.runtime.SourceDatabases;
import org.chartstream.runtime.SourceRegistrations;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Loads the synthetic clinical dataset into a configured (external) PostgreSQL source, e.g. the compose database. */
@Command(name = "seed", mixinStandardHelpOptions = true, description = {
        "Load the synthetic clinical dataset into a configured PostgreSQL source.",
        "Creates the clinical schema (patients, encounters, conditions, medications, clinical_notes) and inserts the "
                + "dataset (dataset.* keys). Rows that exist already are kept, so seeding twice changes nothing. For "
                + "demonstrations and the docker-compose shape only: never point it at a real clinical database.", ""})
public final class SeedCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = "--source", paramLabel = "ID", description = "the source to seed (default: the first registered source)")
    String source;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = main.config();
        String id = source != null ? source : config.sourceIds().get(0);
        SourceConnection connection = SourceRegistrations.connection(config, id).orElseThrow(() -> new ConfigException(
                "source '" + id + "' has no host: the embedded PostgreSQL is seeded by `run` itself; set source.host to seed a server"));
        if (connection.kind() != SourceKind.POSTGRES) {
            throw new ConfigException("source '" + id + "' is " + connection.kind().name().toLowerCase(java.util.Locale.ROOT)
                    + ": seed writes the PostgreSQL schema only");
        }
        RunCommand.progress("seeding " + id + " at " + connection.host() + ":" + connection.port() + " (generating the dataset may take a minute)");
        try (Connection c = SourceDatabases.open(connection)) {
            Map<String, Integer> inserted = DemoCommand.datasetLoader(config).load(c);
            System.out.println("rows inserted per table: " + inserted);
        }
        return 0;
    }
}
