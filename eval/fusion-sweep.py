#!/usr/bin/env python3
"""Re-fuses the side lists of `eval --rankings` files offline, as the query pipeline fuses them (one hit per row and
side, min-max normalised side scores, convex combination; a side that did not return a row gives it 0; ties by row
id), and prints nDCG@10 per dataset for fixed vector weights 0, 0.05, ..., 1 and the best of them (the per-dataset
oracle that the query-adaptive fusion is compared with). Ids and scores only.

Usage: eval/fusion-sweep.py NAME=RANKINGS.jsonl ...   (lines of mode "hybrid" are used)
"""
import json
import math
import re
import sys


def per_row(hits):
    seen, out = set(), []
    for h in hits:
        if h["doc"] not in seen:
            seen.add(h["doc"])
            out.append((h["doc"], h["score"]))
    return out


def normalised(side):
    if not side:
        return {}
    lo, hi = min(s for _, s in side), max(s for _, s in side)
    return {d: ((s - lo) / (hi - lo) if hi > lo else 1.0) for d, s in side}


def fuse(vec, lex, w):
    nv, nl = normalised(vec), normalised(lex)
    docs = set(nv) | set(nl)
    return sorted(docs, key=lambda d: (-(w * nv.get(d, 0) + (1 - w) * nl.get(d, 0)), d))


def ndcg10(ranked, judgments):
    dcg = sum((2 ** judgments.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
    ideal = sorted(judgments.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


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
