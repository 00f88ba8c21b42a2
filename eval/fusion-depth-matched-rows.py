#!/usr/bin/env python3
"""Session 13 (docs/history/EVALUATION-sessions-1-21.md, "Session 13: lexical side in rows"), offline: re-fuses the side
lists of `eval --rankings` files (mode "hybrid"; eval/offline_fusion.py's loader and anchor checks) with the shipped
rule and with a depth-matched one: both sides normalised and their stand-out taken over the first R rows only, R the
shorter side's row count for that question (rows below the R-th at 0), so neither side's scale depends on how much
deeper it was searched than the other (no constant); and session 12b's "floor at row K" for K 20 and 30 (for
information: K would be a constant read off these sets). Prints nDCG@10 per rule and file.

Usage: eval/fusion-depth-matched-rows.py --cp 'app/target/lib/*' NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX ...
"""
import importlib.util, os, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def module(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


fd = module("fusion_depth", "fusion-side-depth.py")
ws = fd.ws


def matched(q):
    r = min(len(q.vec), len(q.lex)) if q.vec and q.lex else max(len(q.vec), len(q.lex))
    return fd.combine(fd.floored(q.vec, r), fd.floored(q.lex, r),
                      fd.anchor(q, ws.share(fd.floored_standout(q.vec, r), fd.floored_standout(q.lex, r))))


def main():
    a = ws.arguments()
    work = tempfile.mkdtemp(prefix="lexical-rows-")
    rules = {"shipped": fd.shipped, "depth-matched": matched}
    for k in (20, 30):
        rules["floor at row %d" % k] = fd.floor_rule(k)
    for spec in a.sets:
        name, qs, _, _ = ws.load(spec, a.cp, work)
        print(name, "  ".join("%s %.4f" % (r, sum(ws.ndcg10(f(q) if q.fused else q.final, q.j) for q in qs) / len(qs))
                             for r, f in rules.items()))


if __name__ == "__main__":
    main()
