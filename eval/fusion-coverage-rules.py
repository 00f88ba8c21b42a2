#!/usr/bin/env python3
"""Session 12 (docs/history/EVALUATION-sessions-1-21.md, "Session 12: issue 14"): more per-query fusion rules, measured
offline on the side lists of `eval --rankings` files (mode "hybrid"), every rule on every set. Each rule re-fuses a
question's two lists as the pipeline does (one hit per row, ties by row id; eval/offline_fusion.py's loader, whose
anchor checks run the project's QuestionAnchors); questions answered without fusion keep their final order. Row texts
(for the idf coverage rules) come from each folder's corpus.jsonl, words folded to [a-z0-9]+ with a short stop list.
Prints nDCG@10, then per set the best fixed weight (0-1 by 0.05) and the per-question oracle. Ids and scores only.

Usage: eval/fusion-coverage-rules.py --cp 'app/target/lib/*' NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX ...
  (as eval/offline_fusion.py)
"""
import collections, json, math, re, tempfile

import offline_fusion as ws
fuse, standout, share, ndcg10, normalised = ws.fuse, ws.standout, ws.share, ws.ndcg10, ws.normalised
STOP = set("a an the of to in on for and or is are was were be been do does did can could should would will what which who"
           " how when where why with by at from it its this that i my me you your he she his her they them their as about any"
           " there have has had not no if so than then into".split())


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def anchor(q, w):
    return w * ws.ANCHORED_FACTOR if q.anchored and q.lex_mentions else w


def adaptive(q, vec=None, lex=None):
    return share(standout(q.vec if vec is None else vec), standout(q.lex if lex is None else lex))


def combine(nv, nl, w, bonus=lambda d: 1):
    return sorted(set(nv) | set(nl), key=lambda d: (-(w * nv.get(d, 0) + (1 - w) * nl.get(d, 0)) * bonus(d), d))


def softmax_z(side):
    if not side:
        return {}
    sc = [s for _, s in side]
    m = sum(sc) / len(sc)
    sd = math.sqrt(sum((x - m) ** 2 for x in sc) / len(sc)) or 1
    e = {d: math.exp((s - m) / sd) for d, s in side}
    top = max(e.values())
    return {d: v / top for d, v in e.items()}


def max_normalised(side):
    if not side:
        return {}
    hi = max(s for _, s in side)
    return {d: s / hi for d, s in side} if hi > 0 else {d: 1.0 for d, _ in side}


def within_other(side, other, k):
    """How far this side's best of the other side's first k rows stands out from the rest of them (normalised)."""
    n = normalised(side)
    sc = sorted((n.get(d, 0) for d, _ in other[:k]), reverse=True)
    return sc[0] - sum(sc[1:]) / (len(sc) - 1) if len(sc) > 1 else 0


def main():
    a = ws.arguments()
    work = tempfile.mkdtemp(prefix="fusion-rules-")
    sets = []
    for spec in a.sets:
        name, qs, corpus, prefix = ws.load(spec, a.cp, work)
        rows = {}
        for line in open(corpus):
            o = json.loads(line)
            rows[o["_id"]] = words(o["text"])
        df = collections.Counter(t for s in rows.values() for t in s)
        sets.append((name, qs, rows, df))

    def coverage(q, doc, rows, df):
        n = len(rows)
        idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in words(q.text) if t not in STOP and df.get(t)}
        total = sum(idf.values())
        return sum(v for t, v in idf.items() if t in rows.get(doc, ())) / total if total and doc in rows else 1.0

    def cov_rule(alpha, which):
        def rule(q, rows, df):
            cv = coverage(q, q.vec[0][0], rows, df) if q.vec else 1
            cl = coverage(q, q.lex[0][0], rows, df) if q.lex else 1
            sv, sl = standout(q.vec), standout(q.lex)
            if which == "both":
                sv, sl = sv * cv ** alpha, sl * cl ** alpha
            else:
                sv = sv * cv ** alpha
            return fuse(q.vec, q.lex, anchor(q, share(sv, sl)))
        return rule

    def mnz(k):
        def rule(q, rows, df):
            both = {d for d, _ in q.vec[:k]} & {d for d, _ in q.lex[:k]}
            return combine(normalised(q.vec), normalised(q.lex), anchor(q, adaptive(q)), lambda d: 2 if d in both else 1)
        return rule

    def cross(k, times):
        def rule(q, rows, df):
            v, l = within_other(q.vec, q.lex, k), within_other(q.lex, q.vec, k)
            if times:
                v, l = v * standout(q.vec), l * standout(q.lex)
            return fuse(q.vec, q.lex, anchor(q, share(v, l)))
        return rule

    rules = {
        "adaptive (shipped)": lambda q, rows, df: fuse(q.vec, q.lex, anchor(q, adaptive(q))),
        "no anchor factor": lambda q, rows, df: fuse(q.vec, q.lex, adaptive(q)),
        "anchor factor only when vector row 1 lacks the anchors": lambda q, rows, df: fuse(
            q.vec, q.lex, adaptive(q) * (ws.ANCHORED_FACTOR if q.anchored and q.lex_mentions and not q.vec_mentions else 1)),
        "CombMNZ: x2 for rows in both top 10s": mnz(10),
        "CombMNZ: x2 for rows in both top 20s": mnz(20),
        "softmax of z-scores per side, adaptive w": lambda q, rows, df: combine(softmax_z(q.vec), softmax_z(q.lex), anchor(q, adaptive(q))),
        "softmax of z-scores per side, w 0.5": lambda q, rows, df: combine(softmax_z(q.vec), softmax_z(q.lex), anchor(q, 0.5)),
        "max-normalised sides, adaptive w": lambda q, rows, df: combine(max_normalised(q.vec), max_normalised(q.lex), anchor(q, adaptive(q))),
        "vector min-max, lexical max-normalised": lambda q, rows, df: combine(normalised(q.vec), max_normalised(q.lex), anchor(q, adaptive(q))),
    }
    for alpha in (0.5, 1, 2):
        rules["stand-outs x (idf coverage of each side's row 1)^%s" % alpha] = cov_rule(alpha, "both")
        rules["vector stand-out x (idf coverage of vector row 1)^%s" % alpha] = cov_rule(alpha, "vector")
    for k in (10, 20):
        rules["each side's stand-out within the other's top %d" % k] = cross(k, False)
        rules["the same x the side's own stand-out, top %d" % k] = cross(k, True)

    names = [s[0] for s in sets]
    print("%-60s %s" % ("rule (nDCG@10)", " ".join("%9s" % n[:9] for n in names)))
    for r, rule in rules.items():
        vals = [sum(ndcg10(rule(q, rows, df) if q.fused else q.final, q.j) for q in qs) / len(qs) for _, qs, rows, df in sets]
        print("%-60s %s" % (r[:60], " ".join("%9.4f" % v for v in vals)))
    weights = [i / 20 for i in range(21)]
    for name, qs, rows, df in sets:
        fixed = max((sum(ndcg10(fuse(q.vec, q.lex, w) if q.fused else q.final, q.j) for q in qs) / len(qs), w) for w in weights)
        oracle = sum(max(ndcg10(fuse(q.vec, q.lex, w), q.j) for w in weights) if q.fused else ndcg10(q.final, q.j)
                     for q in qs) / len(qs)
        print("%s: best fixed weight %.2f (%.4f), per-question oracle %.4f" % (name, fixed[1], fixed[0], oracle))


if __name__ == "__main__":
    main()
