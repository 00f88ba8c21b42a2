#!/usr/bin/env python3
"""Session 13 (docs/history/EVALUATION-sessions-1-21.md, "Session 13: lexical side in rows"): how many distinct rows
each search side's list holds, per mode, from `chartstream eval --rankings` files (ids only, never text): min / median /
max over the queries whose list is not empty, and the mean chunks per row.

usage: eval/side-rows.py RANKINGS.jsonl [MODE]   (MODE default hybrid)
"""
import json
import statistics
import sys


def main():
    path = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "hybrid"
    sizes = {"vector": [], "lexical": []}
    chunks = {"vector": [], "lexical": []}
    with open(path) as f:
        for r in map(json.loads, f):
            if r["mode"] != mode:
                continue
            for side in sizes:
                hits = r.get(side) or []
                if hits:
                    sizes[side].append(len({h["doc"] for h in hits}))
                    chunks[side].append(len(hits))
    for side, n in sizes.items():
        if n:
            print("%-8s rows min %d / median %s / max %d; hits median %s; queries %d" % (
                side, min(n), statistics.median(n), max(n), statistics.median(chunks[side]), len(n)))


if __name__ == "__main__":
    main()
