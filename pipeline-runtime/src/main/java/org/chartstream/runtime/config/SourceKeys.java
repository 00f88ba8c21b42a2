package org.chartstream.runtime.config;

import java.util.List;

/** The rules every registered source's keys (source.* or source.<id>.*) must meet. */
final class SourceKeys {
    private static final List<String> KINDS = List.of("postgres", "mariadb", "mysql", "sqlserver");

    private SourceKeys() {
    }

    static void validate(ChartstreamConfig c) {
        for (String id : c.sourceIds()) {
            if (!id.matches("[A-Za-z0-9_-]+")) {
                throw c.bad("sources", "must list ids made of letters, digits, '_' and '-'");
            }
            if (!KINDS.contains(c.sourceValue(id, "kind"))) {
                throw c.bad(c.sourceKey(id, "kind"), "must be one of postgres, mariadb, mysql, sqlserver");
            }
            if (c.sourceList(id, "tables").isEmpty()) {
                throw c.bad(c.sourceKey(id, "tables"), "must name at least one table");
            }
            try {
                if (Integer.parseInt(c.sourceValue(id, "port")) < 0) {
                    throw c.bad(c.sourceKey(id, "port"), "must not be negative");
                }
            } catch (NumberFormatException e) {
                throw c.bad(c.sourceKey(id, "port"), "must be a whole number");
            }
            try {
                if (Integer.parseInt(c.sourceValue(id, "poll-interval-ms")) < 1) {
                    throw c.bad(c.sourceKey(id, "poll-interval-ms"), "must be at least 1");
                }
            } catch (NumberFormatException e) {
                throw c.bad(c.sourceKey(id, "poll-interval-ms"), "must be a whole number");
            }
        }
        if (c.sourceIds().stream().distinct().count() != c.sourceIds().size()) {
            throw c.bad("sources", "lists a source twice");
        }
    }
}
