#!/usr/bin/env python3
"""Re-fuses the side lists of `eval --rankings` files offline, as the query pipeline fuses them (one hit per row and
side, min-max normalised side scores, convex combination; a side that did not return a row gives it 0; ties by row
id), and prints nDCG@10 per dataset for fixed vector weights 0, 0.05, ..., 1 and the best of them (the per-dataset
oracle that the query-adaptive fusion is compared with). Ids and scores only.

Usage: eval/fusion-fixed-weights.py NAME=RANKINGS.jsonl ...   (lines of mode "hybrid" are used)
"""
import json
import sys

from offline_fusion import fuse, ndcg10, normalised, per_row


def load(path):
    rows = []
    for line in open(path):
        r = json.loads(line)
        if r["mode"] == "hybrid":
            rows.append(r)
    return rows


def main(args):
    sets = {}
    for a in args:
        name, path = a.split("=", 1)
        sets[name] = load(path)
    weights = [round(0.05 * i, 2) for i in range(21)]
    print("%-22s %s" % ("weight", " ".join("%6s" % n[:6] for n in sets)))
    best = {n: (0, -1) for n in sets}
    for w in weights:
        vals = []
        for n, rows in sets.items():
            v = sum(ndcg10(fuse(per_row(r["vector"]), per_row(r["lexical"]), w), r["judgments"]) for r in rows) / len(rows)
            vals.append(v)
            if v > best[n][0]:
                best[n] = (v, w)
        print("%-22s %s" % ("w=%.2f" % w, " ".join("%6.3f" % v for v in vals)))
    print("%-22s %s" % ("oracle weight", " ".join("%6.2f" % best[n][1] for n in sets)))
    print("%-22s %s" % ("oracle nDCG@10", " ".join("%6.3f" % best[n][0] for n in sets)))


if __name__ == "__main__":
    main(sys.argv[1:])
