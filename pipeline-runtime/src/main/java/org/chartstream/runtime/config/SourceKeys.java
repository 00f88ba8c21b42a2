package org.chartstream.runtime.config;

import java.util.List;
import java.util.Map;
import org.chartstream.connectors.DebeziumConfigs;

/** The rules every registered source's keys (source.* or source.<id>.*) must meet. */
final class SourceKeys {
    private static final List<String> KINDS = List.of("postgres", "mariadb", "mysql", "sqlserver");

    private SourceKeys() {
    }

    static void define(Map<String, String[]> k) {
        k.put("source.id", new String[] {"ehr", "id of the clinical source (part of every chunk id)"});
        k.put("source.kind", new String[] {"postgres", "postgres | mariadb | mysql | sqlserver"});
        k.put("source.topic-prefix", new String[] {"ehr", "Debezium topic prefix of the source"});
        k.put("source.binding", new String[] {"", "the source's binding file (docs/BINDING.md): how its tables are read (role, patient,"
                + " time, shown fields and labels, dictionaries, embedding); a path, or classpath:<resource> for a dataset's shipped one."
                + " With it, the patient-*, excluded-fields and fields.* keys come from the file (setting one as well is an error)"
                + " and source.tables, if set, selects bound tables (the dictionaries and encounter tables they use come along)"});
        k.put("source.tables", new String[] {"patients,encounters,conditions,medications,clinical_notes", "allow-listed tables, in snapshot order (patients first)"});
        k.put("source.excluded-fields", new String[] {"", "comma list of table.field that never leave the source"});
        k.put("source.patient-table", new String[] {"patients", "table holding patient identity"});
        k.put("source.patient-id-column", new String[] {"patient_id", "patient id column (same name in child tables)"});
        k.put("source.patient-name-columns", new String[] {"first_name,last_name", "columns forming the patient's display name"});
        k.put("source.patient-number-column", new String[] {"patient_no", "the patient's business number (used by the one-patient filter)"});
        k.put("source.patient-birth-date-column", new String[] {"birth_date", "the patient table's birth date column: the birth year in a patient's label (none there: no birth year)"});
        k.put("source.host", new String[] {"", "database host; empty: the embedded PostgreSQL (postgres kind only)"});
        k.put("source.port", new String[] {"0", "database port; 0: the kind's default (5432, 3306, 1433)"});
        k.put("source.database", new String[] {"", "database name (the MariaDB/MySQL database is also the topic namespace)"});
        k.put("source.user", new String[] {"", "user Debezium connects as (needs replication rights)"});
        k.put("source.password", new String[] {"", "password of that user (never printed)"});
        k.put("source.schema", new String[] {"", "schema holding the tables (postgres: public, sqlserver: dbo when empty)"});
        k.put("source.poll-interval-ms", new String[] {DebeziumConfigs.POLL_INTERVAL_MS, "how long Debezium sleeps when the source had no new change (poll.interval.ms; Debezium's default is 500)"});
        k.put("source.catalog-check-ms", new String[] {"10000", "how often the capturing process looks for registered tables gone from the source catalog (a dropped or renamed table's rows then leave the index)"});
        k.put("sources", new String[] {"", "comma list of source ids, each configured by source.<id>.<key> (the source.* key names; unset"
                + " ones fall back to source.*, topic-prefix to the id); empty: the one source of the source.* keys."
                + " Allow-list fields per table with source[.<id>].fields.<table>=a,b,c"});
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
