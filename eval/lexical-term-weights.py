#!/usr/bin/env python3
"""Session 21 (docs/history/EVALUATION-sessions-1-21.md, "Session 21"), offline: the lexical query with each term
weighted by how much of the question's meaning the embedding model gives it (eval/TermWeights.java), instead of every
term at weight 1. The store's row-level BM25 is rebuilt in memory (eval/OfflineLists.java bm25, as
eval/fusion-weight-signals.py does), each new lexical list cut to as many rows as the pipeline's lexical list held, and
fused with the pipeline's own vector list by the shipped adaptive rule. "as asked" is the same in-memory BM25 with every
term at weight 1: the baseline each variant is compared with (on the clinical folder the in-memory lists differ from the
pipeline's, as in session 10).

Usage: eval/lexical-term-weights.py --cp 'app/target/lib/*' NAME=RANKINGS.jsonl,FOLDER,PREFIX,TERMWEIGHTS.jsonl ...
"""
import json, tempfile

import offline_fusion as ws


def weighted(terms, signal, power=1.0, floor=0.0):
    """[[weight, "=term"], ...]: the signal over the question's largest, to a power, at least floor."""
    top = max((max(t[signal], 0.0) for t in terms), default=0.0)
    if top <= 0:
        return [[1.0, "=" + t[0]] for t in terms]
    return [[max(floor, (max(t[signal], 0.0) / top) ** power), "=" + t[0]] for t in terms]


VARIANTS = {"word-alone cosine / largest, ^%.2f" % p: dict(signal=2, power=p) for p in (0.25, 0.35, 0.5, 0.65, 0.75, 1.0, 2.0)}
VARIANTS.update({"leave-one-out importance / largest, ^%.2f" % p: dict(signal=1, power=p) for p in (0.25, 0.35, 0.5, 0.65, 1.0)})
VARIANTS["leave-one-out importance / largest, at least 0.2"] = dict(signal=1, floor=0.2)


def main():
    a = ws.arguments()
    for spec in a.sets:
        spec = spec.replace("\\n", "\n")
        spec, weights_file = spec.rsplit(",", 1)
        work = tempfile.mkdtemp(prefix="term-weights-s21-")
        name, qs, corpus, prefix = ws.load(spec, a.cp, work)
        weights = {o["query"]: o["terms"] for o in map(json.loads, open(weights_file))}
        fused = [q for q in qs if q.fused]
        queries = {"as asked|" + q.id: {"texts": [[1.0, q.text]]} for q in fused}
        for v, kw in VARIANTS.items():
            for q in fused:
                queries[v + "|" + q.id] = {"texts": weighted(weights[q.id], **kw) if weights[q.id] else [[1.0, q.text]]}
        lists = ws.bm25(name, qs, corpus, prefix, a.cp, work, queries)
        print(name)
        for v in ["as asked"] + list(VARIANTS):
            lexical, hybrid = [], []
            for q in qs:
                if not q.fused:
                    lexical.append(ws.ndcg10(q.final, q.j))
                    hybrid.append(ws.ndcg10(q.final, q.j))
                    continue
                lex = [(h["doc"], h["score"]) for h in lists[v + "|" + q.id]["hits"]][:len(q.lex)]
                w = ws.shipped_weight(q, lex=lex)
                lexical.append(ws.ndcg10([d for d, _ in lex], q.j))
                hybrid.append(ws.ndcg10(ws.fuse(q.vec, lex, w), q.j))
            best = max((sum(ws.ndcg10(ws.fuse(q.vec, [(h["doc"], h["score"]) for h in lists[v + "|" + q.id]["hits"]][:len(q.lex)], fw), q.j)
                            if q.fused else ws.ndcg10(q.final, q.j) for q in qs) / len(qs), fw) for fw in [i / 20 for i in range(21)])
            print("  %-50s lexical %.4f  hybrid %.4f  best fixed weight %.4f at %.2f" % (v, sum(lexical) / len(lexical), sum(hybrid) / len(hybrid), *best))


if __name__ == "__main__":
    main()
