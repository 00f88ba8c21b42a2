#!/usr/bin/env python3
"""Fill the `answer` of every question in eval/mimic/questions.jsonl by running its `sql` on the loaded source.

    eval/mimic/answers.py [--questions FILE] [--conn CONNINFO] [--psql CMD] [--check]

CONNINFO is a psql connection string (default 'dbname=mimic_eval'); CMD is how to start psql (default 'psql';
as root on a Debian cluster, 'runuser -u postgres -- psql'). The file is rewritten in place (one JSON object a
line, keys in their original order); --check only compares and exits 1 when an answer would change.

The keys already present in a question's `answer` say what to fill (their values are replaced):
  patients  distinct integers of the first column, sorted
  values    distinct non-null strings of the LAST column, sorted (for multi-column SQL: the label column)
  rows      every row as returned, in the SQL's ORDER BY; columns named subject_id, hadm_id, icd_version, count or
            patients/admissions/orders (aggregates) become integers, NULL becomes null, the rest strings
  count     the integer of a one-row, one-column result named `count`; otherwise the number of
            patients, rows or values filled for the same question (in that order of preference;
            a list of codes counts codes, so two codes sharing one title count twice)
  refuse    unanswerable questions keep {"refuse": true}; if they carry `sql`, it is a proof of absence
            and must return count 0 (e.g. the patient number asked about does not exist)

Only standard library; prints per kind how many questions were filled, never row values.
"""
import argparse
import collections
import csv
import io
import json
import shlex
import subprocess
import sys

INT_COLUMNS = {"subject_id", "hadm_id", "icd_version", "count", "patients", "admissions", "orders"}
NULL = "\\N"


def run_sql(psql, conn, sql):
    cmd = shlex.split(psql) + ["-X", "--csv", "-v", "ON_ERROR_STOP=1", "-P", "null=" + NULL, "-f", "-", conn]
    out = subprocess.run(cmd, input=sql.rstrip().rstrip(";") + ";\n", capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    table = list(csv.reader(io.StringIO(out.stdout)))
    if not table:
        raise RuntimeError("no output")
    return table[0], table[1:]


def cell(name, value):
    if value == NULL:
        return None
    if name in INT_COLUMNS:
        return int(value)
    return value


def fill(question, header, rows):
    wanted = list(question["answer"].keys())
    answer = {}
    if "patients" in wanted:
        answer["patients"] = sorted({int(r[0]) for r in rows if r[0] != NULL})
    if "values" in wanted:
        answer["values"] = sorted({r[-1] for r in rows if r[-1] != NULL})
    if "rows" in wanted:
        answer["rows"] = [[cell(h, v) for h, v in zip(header, r)] for r in rows]
    if "count" in wanted:
        if header == ["count"] and len(rows) == 1:
            answer["count"] = int(rows[0][0])
        elif "patients" in answer:
            answer["count"] = len(answer["patients"])
        elif "rows" in answer:
            answer["count"] = len(answer["rows"])
        elif "values" in answer:
            answer["count"] = len(answer["values"])
        else:
            raise RuntimeError("count needs a `count` column or a list to count")
    return {k: answer[k] for k in wanted}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", default=__file__.rsplit("/", 1)[0] + "/questions.jsonl")
    ap.add_argument("--conn", default="dbname=mimic_eval")
    ap.add_argument("--psql", default="psql")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()

    with open(args.questions, encoding="utf-8") as f:
        questions = [json.loads(line) for line in f if line.strip()]
    ids = [q["id"] for q in questions]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    if dup:
        sys.exit(f"duplicate ids: {dup}")

    changed, per_kind, empty = [], collections.Counter(), []
    for q in questions:
        per_kind[q["kind"]] += 1
        if q["kind"] == "unanswerable":
            if q.get("sql"):
                header, rows = run_sql(args.psql, args.conn, q["sql"])
                if header != ["count"] or rows != [["0"]]:
                    sys.exit(f"{q['id']}: proof of absence does not hold")
            new = {"refuse": True}
        else:
            try:
                header, rows = run_sql(args.psql, args.conn, q["sql"])
            except RuntimeError as e:
                sys.exit(f"{q['id']}: {e}")
            new = fill(q, header, rows)
            if not rows or (header == ["count"] and rows == [["0"]]):
                empty.append(q["id"])
        if new != q["answer"]:
            changed.append(q["id"])
        q["answer"] = new

    for kind, n in sorted(per_kind.items()):
        print(f"{kind}\t{n}")
    print(f"total\t{len(questions)}")
    if empty:
        print("empty or zero answers: " + ", ".join(empty))
    if args.check:
        if changed:
            print("would change: " + ", ".join(changed))
            sys.exit(1)
        print("all answers match the source")
        return
    with open(args.questions, "w", encoding="utf-8") as f:
        for q in questions:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    print(f"filled {len(questions)} questions ({len(changed)} answers changed)")


if __name__ == "__main__":
    main()
