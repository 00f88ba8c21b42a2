#!/usr/bin/env python3
"""Compares two `chartstream eval --rankings` files query by query (ids and scores, never text).

For each mode and query: are the two search sides' inputs identical (ids, chunk indexes, scores), and if so is
everything downstream (fused order, rerank scores, final order) identical too? Where the sides differ it says how:
only the order within groups of equal scores (Lucene breaks ties by document number, which follows indexing order),
or scores that differ (and by how much). A refactor of the pure stages must show "downstream differs: 0".

usage: eval/compare-rankings.py BEFORE.jsonl AFTER.jsonl
"""
import json
import sys
from collections import Counter, defaultdict


def load(path):
    with open(path) as f:
        return {(r["mode"], r["query"]): r for r in map(json.loads, f)}


def hits(side):
    return [(h["doc"], h.get("chunk"), h["score"]) for h in side]


def how_sides_differ(x, y):
    sx, sy = [h[2] for h in x], [h[2] for h in y]
    if sx == sy:
        gx, gy = defaultdict(set), defaultdict(set)
        for h in x:
            gx[h[2]].add(h[:2])
        for h in y:
            gy[h[2]].add(h[:2])
        cut = sx[-1] if sx else None
        inside = all(gx[s] == gy[s] for s in gx if s != cut)
        return "same scores, order differs within equal-score groups" + ("" if inside else " (and at the cut)")
    if len(sx) == len(sy):
        return "scores differ, max |delta| %.3g" % max(abs(p - q) for p, q in zip(sx, sy))
    return "different lengths"


def main(before_path, after_path):
    before, after = load(before_path), load(after_path)
    if before.keys() != after.keys():
        sys.exit("the files hold different (mode, query) pairs")
    counts, reasons = Counter(), Counter()
    for key in sorted(before):
        x, y = before[key], after[key]
        same_sides = all(hits(x[s]) == hits(y[s]) for s in ("vector", "lexical"))
        strip = lambda r: {k: v for k, v in r.items() if not k.endswith("_ms")}
        if same_sides:
            counts[(key[0], "sides identical", "downstream identical" if strip(x) == strip(y) else "downstream differs")] += 1
        else:
            counts[(key[0], "sides differ", "final identical" if x["final"] == y["final"] else "final differs")] += 1
            for s in ("vector", "lexical"):
                if hits(x[s]) != hits(y[s]):
                    reasons[(s, how_sides_differ(hits(x[s]), hits(y[s])))] += 1
    for (mode, sides, downstream), n in sorted(counts.items()):
        print(f"{mode:14} {sides:16} {downstream:22} {n}")
    for (side, why), n in sorted(reasons.items()):
        print(f"  {side} side: {why}: {n}")
    differs = sum(n for (m, s, d), n in counts.items() if d == "downstream differs")
    print(json.dumps({"pairs": len(before), "downstream_differs_with_identical_sides": differs}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
