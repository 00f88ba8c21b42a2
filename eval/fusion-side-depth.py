#!/usr/bin/env python3
"""Session 12b (docs/history/EVALUATION-sessions-1-21.md, "Session 12b: eval depth"): does the fusion depend on how deep
each side is searched, and can its normalisation be made independent of the depth? Re-fuses the side lists of
`eval --rankings` files (mode "hybrid"; eval/offline_fusion.py's loader and anchor checks) with each side's chunk list
cut to its first DEPTH chunks, as a search with --per-side DEPTH would return it, and prints nDCG@10 per rule, set and
depth.

Rules: the shipped one (min-max over the whole list, stand-out over places 2-20 of it), and "floor at row K": each side
normalised between its first row and its K-th row, rows below the K-th at 0, the stand-out on the same scale, so that
nothing below row K changes a score (depth-independent whenever both depths give a side K rows or more).

Usage: eval/fusion-side-depth.py --cp 'app/target/lib/*' --depths 100,50,v50:l100 NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX ...
"""
import itertools, tempfile

import offline_fusion as ws
ndcg10, share, standout, normalised = ws.ndcg10, ws.share, ws.standout, ws.normalised
whole_list = ws.per_row


def floored(side, k):
    if not side:
        return {}
    hi, lo = side[0][1], side[min(k, len(side)) - 1][1]
    return {d: (max(0.0, (s - lo) / (hi - lo)) if hi > lo else 1.0) for d, s in side}


def floored_standout(side, k, depth=20):
    if len(side) < 2:
        return float(len(side))
    n = floored(side, k)
    if side[0][1] <= side[min(k, len(side)) - 1][1]:
        return 0.0
    places = min(depth, len(side)) - 1
    return 1 - sum(n[side[i][0]] for i in range(1, places + 1)) / places


def anchor(q, w):
    return w * ws.ANCHORED_FACTOR if q.anchored and q.lex_mentions else w


def combine(nv, nl, w):
    return sorted(set(nv) | set(nl), key=lambda d: (-(w * nv.get(d, 0) + (1 - w) * nl.get(d, 0)), d))


def shipped(q):
    return combine(normalised(q.vec), normalised(q.lex), anchor(q, share(standout(q.vec), standout(q.lex))))


def floor_rule(k):
    return lambda q: combine(floored(q.vec, k), floored(q.lex, k),
                             anchor(q, share(floored_standout(q.vec, k), floored_standout(q.lex, k))))


def main():
    ap = ws.parser()
    ap.add_argument("--depths", default="100,50")
    a = ap.parse_args()
    depths = a.depths.split(",")
    rules = {"shipped (min-max over the whole list)": shipped}
    for k in (10, 15, 20, 25, 30, 35, 40):
        rules["floor at row %d" % k] = floor_rule(k)
    for k in (25, 30, 40):
        rules["floor at row %d, normalisation only" % k] = lambda q, k=k: combine(
            floored(q.vec, k), floored(q.lex, k), anchor(q, share(standout(q.vec), standout(q.lex))))
        rules["floor at row %d, stand-out only" % k] = lambda q, k=k: combine(
            normalised(q.vec), normalised(q.lex), anchor(q, share(floored_standout(q.vec, k), floored_standout(q.lex, k))))
    work = tempfile.mkdtemp(prefix="fusion-depth-")
    results, short = {}, {}
    for depth in depths:
        # a depth is N (both sides) or vN:lM (vector and lexical side apart); the loader reads the vector side first
        v, l = (int(x[1:]) for x in depth.split(":")) if ":" in depth else (int(depth), int(depth))
        cuts = itertools.cycle([v, l])
        ws.per_row = lambda hits: whole_list(hits[:next(cuts)])
        for spec in a.sets:
            name, qs, _, _ = ws.load(spec, a.cp, work)
            for r, rule in rules.items():
                results[(r, name, depth)] = sum(ndcg10(rule(q) if q.fused else q.final, q.j) for q in qs) / len(qs)
            short[(name, depth)] = min(min(len(q.vec), len(q.lex)) for q in qs if q.vec and q.lex)
    names = [s.split("=", 1)[0] for s in a.sets]
    print("%-40s %s" % ("rule (nDCG@10) @depth", " ".join("%10s" % ("%s@%s" % (n[:4], d)) for n in names for d in depths)))
    for r in rules:
        print("%-40s %s" % (r, " ".join("%10.4f" % results[(r, n, d)] for n in names for d in depths)))
    print("fewest rows on a side of a fused question: " + ", ".join("%s@%s %d" % (n, d, short[(n, d)]) for n in names for d in depths))


if __name__ == "__main__":
    main()
