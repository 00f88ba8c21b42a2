-- The chartstream user (POSTGRES_USER) owns database ehr and may replicate: Debezium (pgoutput) creates its slot and
-- publication. wal_level=logical is set on the server's command line in docker-compose.yml.
ALTER ROLE chartstream WITH REPLICATION;
