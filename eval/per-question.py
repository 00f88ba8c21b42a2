#!/usr/bin/env python3
"""Per-question nDCG@10 of every mode in one `chartstream eval --rankings` file (ids and scores only, never text):
each mode's mean of the final order and of its vector list alone (rows in list order), then, for every question whose
final nDCG@10 differs between the modes after the first two (or for the question ids given), each mode's
final / vector-list figure, and per mode against `hybrid` how many questions went up and down and by how much.

Usage: eval/per-question.py RANKINGS.jsonl [ID,ID,...]
"""
import collections
import json
import math
import sys


def ndcg10(ranked, judgments):
    dcg = sum((2 ** judgments.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
    ideal = sorted(judgments.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def per_row(hits):
    seen, out = set(), []
    for h in hits:
        if h["doc"] not in seen:
            seen.add(h["doc"])
            out.append(h["doc"])
    return out


def main(path, ids=None):
    per = collections.defaultdict(dict)
    for line in open(path):
        r = json.loads(line)
        final = [f["doc"] if isinstance(f, dict) else f for f in r["final"]]
        per[r["mode"]][r["query"]] = (ndcg10(final, r["judgments"]), ndcg10(per_row(r["vector"]), r["judgments"]))
    modes = list(per)
    for m in modes:
        n = len(per[m])
        print("%-28s final %.4f  vector list %.4f" % (m, sum(v[0] for v in per[m].values()) / n,
                                                       sum(v[1] for v in per[m].values()) / n))
    if "hybrid" in per:
        for m in modes:
            if m.startswith("hybrid+"):
                d = [per[m][q][0] - per["hybrid"][q][0] for q in per["hybrid"]]
                print("%-28s vs hybrid: %d up (+%.3f), %d down (%.3f)" % (
                    m, sum(1 for x in d if x > 1e-9), sum(x for x in d if x > 0),
                    sum(1 for x in d if x < -1e-9), sum(x for x in d if x < 0)))
    for q in per[modes[0]]:
        vals = [per[m][q][0] for m in modes]
        if ids is None and len(set(round(v, 4) for v in vals[2:])) <= 1:
            continue
        if ids is not None and q not in ids:
            continue
        print(q, " ".join("%s=%.3f/%.3f" % (m, *per[m][q]) for m in modes))


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None)
