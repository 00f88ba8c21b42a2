#!/usr/bin/env python3
"""Session 19 (docs/history/EVALUATION-sessions-1-21.md, "Session 19: an opening vector per long row"), offline: each
row's vector score becomes the larger of its best chunk's (the `eval --rankings` side list) and its opening's
(eval/LeadVectors.java), the side list is re-ranked to its own length (rows the opening brings in score their opening
only, a lower bound), and the two sides are fused again with the shipped adaptive rule (eval/fusion-weight-signals.py).
Prints nDCG@10 of the vector side and of hybrid, before and after.

Usage: eval/row-opening-vectors.py 'app/target/lib/*' NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX LEADS.jsonl
"""
import sys, json, tempfile
import offline_fusion as ws


def shipped(q, vec):
    """The pipeline's adaptive fusion (AdaptiveFusion) of this vector list with the question's lexical list."""
    return ws.fuse(vec, q.lex, ws.shipped_weight(q, vec))


def with_openings(q, opening):
    """The vector list with each row scored max(best chunk, opening), cut to its own length."""
    scored = dict(q.vec)
    for d, s in sorted(opening.items(), key=lambda x: -x[1])[:len(q.vec)]:
        scored[d] = max(scored.get(d, -1), s)
    for d in scored:
        scored[d] = max(scored[d], opening.get(d, -1))
    return sorted(scored.items(), key=lambda x: (-x[1], x[0]))[:len(q.vec)]


def main():
    cp, spec, leads = sys.argv[1], sys.argv[2], sys.argv[3]
    name, qs, _, _ = ws.load(spec, cp, tempfile.mkdtemp())
    openings = {o["query"]: o["lead"] for o in map(json.loads, open(leads))}
    for label, side in [("base", lambda q: q.vec), ("opening", lambda q: with_openings(q, openings[q.id]))]:
        hybrid, vector = [], []
        for q in qs:
            vec = side(q)
            vector.append(ws.ndcg10([d for d, _ in vec], q.j))
            hybrid.append(ws.ndcg10(shipped(q, vec) if q.fused else q.final, q.j))
        print(f"{name} {label:8s} vector {sum(vector) / len(vector):.4f} hybrid {sum(hybrid) / len(hybrid):.4f}")


if __name__ == "__main__":
    main()
