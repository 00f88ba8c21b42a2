#!/usr/bin/env bash
# Load the MIMIC-IV Clinical Database Demo 2.2 (hosp tables chartstream reads) into PostgreSQL.
#
#   eval/mimic/load.sh DATA_DIR CONNINFO
#
#   DATA_DIR  the demo as PhysioNet ships it (holds hosp/*.csv.gz), e.g. ../shared/data/mimic-iv-demo
#   CONNINFO  a psql connection string or database name, e.g. 'dbname=mimic_eval' or
#             'host=127.0.0.1 port=5432 dbname=mimic_eval user=spike'; the database must exist.
#
# Idempotent: in ONE transaction it drops schema mimiciv_hosp (CASCADE), runs the DDL
# datasets/src/main/resources/org/chartstream/datasets/mimic/mimic-iv-demo-hosp.sql, copies the eleven
# CSV files (parents before children, as the foreign keys need) and analyzes them. A failure leaves the
# previous load untouched. Prints one line per table: table name and row count (never row values).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 DATA_DIR CONNINFO" >&2
  exit 2
fi
data_dir=$(cd "$1" && pwd)
conn=$2
here=$(cd "$(dirname "$0")" && pwd)
ddl="$here/../../datasets/src/main/resources/org/chartstream/datasets/mimic/mimic-iv-demo-hosp.sql"

case "$data_dir" in
  *"'"*|*'"'*) echo "DATA_DIR must not contain quotes: $data_dir" >&2; exit 2 ;;
esac

# parents first: dictionaries, patients, admissions, then events
tables="d_icd_diagnoses d_icd_procedures d_labitems patients admissions transfers diagnoses_icd procedures_icd prescriptions microbiologyevents labevents"

for t in $tables; do
  [ -r "$data_dir/hosp/$t.csv.gz" ] || { echo "missing $data_dir/hosp/$t.csv.gz" >&2; exit 1; }
done
[ -r "$ddl" ] || { echo "missing DDL $ddl" >&2; exit 1; }

{
  echo "SET client_min_messages = warning;"
  echo "BEGIN;"
  echo "DROP SCHEMA IF EXISTS mimiciv_hosp CASCADE;"
  cat "$ddl"
  for t in $tables; do
    echo "\\copy mimiciv_hosp.$t FROM PROGRAM 'gzip -dc \"$data_dir/hosp/$t.csv.gz\"' WITH (FORMAT csv, HEADER true)"
  done
  echo "COMMIT;"
  for t in $tables; do
    echo "ANALYZE mimiciv_hosp.$t;"
  done
} | psql "$conn" -X -q -v ON_ERROR_STOP=1 >/dev/null

for t in $tables; do
  printf '%s\t%s\n' "$t" "$(psql "$conn" -X -At -c "SELECT count(*) FROM mimiciv_hosp.$t")"
done
