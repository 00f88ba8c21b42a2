#!/usr/bin/env python3
"""Session 10 (docs/history/EVALUATION-sessions-1-21.md, "Session 10: issue 14"): per-question weight signals and
lexical query re-weighting, measured offline on the side lists of `eval --rankings` files (mode "hybrid"), every rule on
every set.

Each rule re-fuses a question's two lists as the pipeline does (one hit per row, min-max per side, ties by row id)
with a vector weight of its own; questions the pipeline answered without fusion (codes, cohorts: empty side lists)
keep their final order. The anchor checks run the project's QuestionAnchors (eval/OfflineLists.java anchors); the
lexical re-weightings re-run the store's row-level BM25 in memory (eval/OfflineLists.java bm25), each new lexical
list cut to as many rows as the pipeline's list of 100 chunks held, so that min-max sees the same depth. Row texts
come from the BEIR folder's corpus.jsonl (the clinical folder's rows are close to but not exactly the indexed text:
its lexical figures are compared against its own in-memory baseline, "bm25 as asked"). Ids and scores only.

Usage: eval/fusion-weight-signals.py --cp 'app/target/lib/*' NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX ...
  PREFIX: the projection header of a BEIR row, "record: beir docs\\ntext: ", or "-" (clinical rows hold theirs)
"""
import tempfile

from offline_fusion import ANCHORED_FACTOR, bm25, fuse, gap, idf, load, ndcg10, normalised, share, standout, arguments


def lexical_variants(terms, n):
    """Per-term weights from the collection's document frequencies: what a question-boilerplate filter could use."""
    as_is = [[1.0, "=" + t["t"]] for t in terms]
    out = {"bm25 as asked": as_is}
    for g in (1, 2, 3):
        out["bm25, term weight (1 - df/N)^%d" % g] = [[max(1e-3, (1 - t["df"] / n) ** g), "=" + t["t"]] for t in terms]
    for p in (0.3, 0.5):
        out["bm25 without terms in > %d %% of rows" % (100 * p)] = [[1.0, "=" + t["t"]] for t in terms if t["df"] / n <= p] or as_is
    return out


def main():
    a = arguments()
    work = tempfile.mkdtemp(prefix="weight-signals-")
    sets = [load(s, a.cp, work) for s in a.sets]

    def shipped_anchor(q, w):
        return w * ANCHORED_FACTOR if q.anchored and q.lex_mentions else w

    def fused_rule(weight, anchor=shipped_anchor, lex_of=lambda q: q.lex):
        def rule(q):
            lex = lex_of(q)
            return fuse(q.vec, lex, anchor(q, weight(q, lex)))
        return rule

    so = lambda depth: (lambda q, lex: share(standout(q.vec, depth), standout(lex, depth)))

    def agreement(alpha):
        def weight(q, lex):
            o = len({d for d, _ in q.vec[:10]} & {d for d, _ in lex[:10]}) / 10
            return (1 - alpha * o) * so(20)(q, lex) + alpha * o * 0.5
        return weight

    def cross(c):
        def weight(q, lex):
            nv, nl = normalised(q.vec), normalised(lex)
            v = standout(q.vec) * (1 + c * (nl.get(q.vec[0][0], 0) if q.vec else 0))
            l = standout(lex) * (1 + c * (nv.get(lex[0][0], 0) if lex else 0))
            return share(v, l)
        return weight

    rules = {
        "adaptive, anchor factor on every anchored question (session 9)": fused_rule(so(20), lambda q, w: w * ANCHORED_FACTOR if q.anchored else w),
        "adaptive, anchor factor only if lexical row 1 mentions the anchors": fused_rule(so(20)),
    }
    for d in (10, 30, 50, 100):
        rules["stand-out at depth %d" % d] = fused_rule(so(d))
    for k in (10, 20, 50):
        rules["gap (s1 - s2) / (s1 - s%d) per side" % k] = fused_rule(lambda q, lex, k=k: share(gap(q.vec, k), gap(lex, k)))
    for alpha in (0.5, 1.0):
        rules["agreement of the top 10s pulls w to 0.5, x %.1f" % alpha] = fused_rule(agreement(alpha))
    for c in (0.5, 1.0, 2.0):
        rules["each side's first row confirmed by the other, x %.1f" % c] = fused_rule(cross(c))

    results = {r: {} for r in rules}
    for name, qs, corpus, prefix in sets:
        for r, rule in rules.items():
            results[r][name] = sum(ndcg10(rule(q) if q.fused else q.final, q.j) for q in qs) / len(qs)
        # lexical query re-weighting and the lexical first row's share of the question's idf
        fused = [q for q in qs if q.fused]
        base = bm25(name, qs, corpus, prefix, a.cp, work,
                    {q.id: {"texts": [[1.0, q.text]], "check": [q.lex[0][0]] if q.lex else []} for q in fused})
        variants = {}
        for q in fused:
            for v, texts in lexical_variants(base[q.id]["terms"], base[q.id]["N"]).items():
                variants[v + "|" + q.id] = {"texts": texts}
        lists = bm25(name, qs, corpus, prefix, a.cp, work, variants)
        for v in lexical_variants([], 1):
            lex_of = lambda q, v=v: [(h["doc"], h["score"]) for h in lists[v + "|" + q.id]["hits"]][:len(q.lex)]
            rule = fused_rule(so(20), lex_of=lex_of)
            results.setdefault("fused, " + v, {})[name] = sum(ndcg10(rule(q) if q.fused else q.final, q.j) for q in qs) / len(qs)
            results.setdefault("lexical alone, " + v, {})[name] = sum(
                ndcg10([d for d, _ in lex_of(q)] if q.fused else q.final, q.j) for q in qs) / len(qs)

        def coverage(q):
            stats = base[q.id]
            terms = [t for t in stats["terms"] if t["df"] > 0]
            total = sum(idf(t["df"], stats["N"]) for t in terms)
            held = sum(idf(t["df"], stats["N"]) for t in terms if t["rows"])
            return held / total if total else 0.0
        for alpha in (0.5, 1.0):
            rule = fused_rule(lambda q, lex, alpha=alpha: share(standout(q.vec), standout(lex) * coverage(q) ** alpha))
            results.setdefault("lexical stand-out x (idf share of the question in lexical row 1)^%.1f" % alpha, {})[name] = \
                sum(ndcg10(rule(q) if q.fused else q.final, q.j) for q in qs) / len(qs)
        ws = [i / 20 for i in range(21)]
        results.setdefault("oracle: best fixed weight per question (hindsight)", {})[name] = sum(
            max(ndcg10(fuse(q.vec, q.lex, w), q.j) for w in ws) if q.fused else ndcg10(q.final, q.j) for q in qs) / len(qs)
        results.setdefault("pipeline's own final order", {})[name] = sum(ndcg10(q.final, q.j) for q in qs) / len(qs)

    names = [s[0] for s in sets]
    print("%-80s %s" % ("rule (nDCG@10)", " ".join("%9s" % n[:9] for n in names)))
    for r, vals in results.items():
        print("%-80s %s" % (r[:80], " ".join("%9.4f" % vals[n] for n in names)))


if __name__ == "__main__":
    main()
