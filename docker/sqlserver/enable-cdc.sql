-- SQL Server change data capture for a chartstream source (Debezium's SQL Server connector reads the CDC tables).
-- Needs SQL Server Agent running (MSSQL_AGENT_ENABLED=true in docker-compose.yml). Run after the clinical tables
-- exist, e.g.:
--   docker compose exec sqlserver /opt/mssql-tools18/bin/sqlcmd -C -S localhost -U sa -P "$MSSQL_SA_PASSWORD" \
--       -i /docker/sqlserver/enable-cdc.sql
IF DB_ID('lab') IS NULL CREATE DATABASE lab;
GO
USE lab;
GO
IF (SELECT is_cdc_enabled FROM sys.databases WHERE name = 'lab') = 0 EXEC sys.sp_cdc_enable_db;
GO
-- one call per allow-listed table (source.lab.tables), with the table in schema dbo:
DECLARE @table sysname;
DECLARE tables CURSOR FOR
    SELECT t.name FROM sys.tables t
    WHERE t.name IN ('patients', 'encounters', 'conditions', 'medications', 'clinical_notes') AND t.is_tracked_by_cdc = 0;
OPEN tables;
FETCH NEXT FROM tables INTO @table;
WHILE @@FETCH_STATUS = 0
BEGIN
    EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = @table, @role_name = NULL, @supports_net_changes = 0;
    FETCH NEXT FROM tables INTO @table;
END;
CLOSE tables;
DEALLOCATE tables;
GO
