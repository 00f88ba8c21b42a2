#!/usr/bin/env python3
"""Builds two BEIR evaluation sets from ACI-Bench (../shared/data/aci-bench, CC BY 4.0), deterministically.

Both share one corpus: the 207 clinical notes (document id `<split>:<encounter_id>`, title empty, text the note).
Each query has exactly one relevant note, its own encounter's (grade 1).

- aci-patient-words: the patient's own first description of the problem in the visit dialogue (the first patient
  turn of at least MIN_WORDS words), with the patient's and the doctor's names removed. Lay words against clinical
  prose: the evidence is mostly semantic.
- aci-visit-summary: "<age>-year-old <gender> with <chief complaint>; history of <secondary complaints>" from the
  metadata. Exact clinical terms the note repeats: the evidence is mostly lexical.

Usage: eval/aci-bench/generate.py [--data DIR] [--out DIR] [--check]
  --check regenerates in memory and fails (exit 1) when the committed folders differ.
"""
import argparse
import csv
import json
import os
import re
import sys

SPLITS = ["train", "valid", "clinicalnlp_taskB_test1", "clinicalnlp_taskC_test2", "clef_taskC_test3"]
MIN_WORDS = 15
SETS = ["aci-patient-words", "aci-visit-summary"]


def encounters(data):
    base = os.path.join(data, "challenge_data")
    for split in SPLITS:
        with open(os.path.join(base, split + "_metadata.csv"), newline="", encoding="utf-8") as f:
            meta = {row["encounter_id"]: row for row in csv.DictReader(f)}
        with open(os.path.join(base, split + ".csv"), newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                yield split, row, meta[row["encounter_id"]]


def without_names(text, names):
    for name in names:
        if name:
            text = re.sub(r"\b" + re.escape(name) + r"\b", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+([,.?!])", r"\1", re.sub(r"\s+", " ", text))
    return text.strip(" ,")


def patient_words(dialogue, names):
    for line in dialogue.splitlines():
        line = line.strip()
        if line.startswith("[patient]"):
            said = without_names(line[len("[patient]"):], names)
            if len(said.split()) >= MIN_WORDS:
                return said
    return None


def age(value):
    """An age as a note writes it: "29.0" (how some metadata rows hold it) is "29"; a "29.0-year-old" would be one
    token to BM25 that no note contains."""
    value = value.strip()
    return value[:-2] if re.fullmatch(r"\d+\.0", value) else value


def visit_summary(meta):
    history = [c.strip() for c in meta["2nd_complaints"].split(";") if c.strip()]
    text = "%s-year-old %s with %s" % (age(meta["patient_age"]), meta["patient_gender"], meta["cc"].strip())
    if history:
        text += "; history of " + (", ".join(history[:-1]) + " and " + history[-1] if len(history) > 1 else history[0])
    return text


def build(data):
    corpus, queries = [], {s: [] for s in SETS}
    for split, row, meta in encounters(data):
        doc = split + ":" + row["encounter_id"]
        corpus.append({"_id": doc, "title": "", "text": row["note"].strip()})
        names = [meta["patient_firstname"], meta["patient_familyname"]] + meta.get("doctor_name", "").split()
        said = patient_words(row["dialogue"], names)
        if said:
            queries["aci-patient-words"].append((doc, said))
        if meta["cc"].strip() and meta["patient_age"].strip():
            queries["aci-visit-summary"].append((doc, visit_summary(meta)))
    files = {}
    corpus_text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in corpus)
    for s in SETS:
        q_lines, qrels = [], ["query-id\tcorpus-id\tscore\n"]
        for i, (doc, text) in enumerate(queries[s], 1):
            q_lines.append(json.dumps({"_id": "q%03d" % i, "text": text}, ensure_ascii=False) + "\n")
            qrels.append("q%03d\t%s\t1\n" % (i, doc))
        files[os.path.join(s, "corpus.jsonl")] = corpus_text
        files[os.path.join(s, "queries.jsonl")] = "".join(q_lines)
        files[os.path.join(s, "qrels", "test.tsv")] = "".join(qrels)
    return files


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--data", default=os.path.join(here, "..", "..", "..", "shared", "data", "aci-bench"))
    p.add_argument("--out", default=os.path.dirname(here))
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    files = build(a.data)
    differs = []
    for rel, text in sorted(files.items()):
        path = os.path.join(a.out, rel)
        if a.check:
            if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                differs.append(rel)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    if differs:
        print("differs from a regeneration: " + ", ".join(differs), file=sys.stderr)
        return 1
    for s in SETS:
        n = files[os.path.join(s, "queries.jsonl")].count("\n")
        print("%s: %d queries, %d documents" % (s, n, files[os.path.join(s, "corpus.jsonl")].count("\n")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
