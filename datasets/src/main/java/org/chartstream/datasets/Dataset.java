package org.chartstream.datasets;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A dataset the product runs by name ({@code run --dataset NAME}): how to fill an empty source database with it, and
 * the configuration its source needs (schema, and its binding file: tables, roles, patient columns, dictionaries;
 * docs/BINDING.md), shipped with it as configuration keys and resources. Table and column names of a dataset live in
 * its files, never in the pipeline's code.
 */
public interface Dataset {

    /** The name {@code --dataset} takes. */
    String name();

    /** One line saying what the dataset is, for {@code --help} and errors. */
    String description();

    /**
     * The configuration keys this dataset's source needs, in the format of a properties file given with
     * {@code --config}; the user's own configuration overrides each of them. Empty: the defaults fit.
     */
    Map<String, String> configuration();

    /**
     * Creates the dataset's tables in an empty database and fills them, saying on {@code progress} what it loaded
     * (table names and row counts, never row values).
     *
     * @return rows per table, in load order
     */
    Map<String, Integer> load(Connection connection, Consumer<String> progress) throws SQLException;
}
