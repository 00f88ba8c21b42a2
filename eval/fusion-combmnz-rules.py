#!/usr/bin/env python3
"""Session 20 (docs/history/EVALUATION-sessions-1-21.md, "Session 20"), offline: two more fusion rules on the side lists
of `eval --rankings` files (mode "hybrid"), every rule on every set, beside the shipped adaptive rule
(eval/fusion-weight-signals.py):

- CombMNZ: the shipped fused score times (1 + beta) for a row that both lists hold (beta 1 is Fox & Shaw's CombMNZ
  on two lists), optionally only when it is in both lists' first `top` rows;
- absent terms: the lexical stand-out times the share of the question's idf that the index holds at all (a question
  term no row holds has the largest idf and no BM25 match, so the lexical list rests on the rest of the question),
  to the power 1 or 2; the terms as the store analyses them (eval/OfflineLists.java bm25).

Usage: eval/fusion-combmnz-rules.py --cp 'app/target/lib/*' NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX ...
  PREFIX: "record: beir docs\\ntext: " for a BEIR folder, "-" for eval/clinical (as eval/offline_fusion.py)
"""
import tempfile

import offline_fusion as ws


def comb_mnz(beta, top=None):
    def rule(q):
        w = ws.shipped_weight(q)
        nv, nl = ws.normalised(q.vec), ws.normalised(q.lex)
        in_vec = {d for d, _ in q.vec[:top]} if top else set(nv)
        in_lex = {d for d, _ in q.lex[:top]} if top else set(nl)
        score = {d: (w * nv.get(d, 0) + (1 - w) * nl.get(d, 0)) * (1 + beta * (d in in_vec and d in in_lex))
                 for d in set(nv) | set(nl)}
        return sorted(score, key=lambda d: (-score[d], d))
    return rule


def main():
    a = ws.arguments()
    for spec in a.sets:
        work = tempfile.mkdtemp(prefix="fusion-rules-s20-")
        name, qs, corpus, prefix = ws.load(spec.replace("\\n", "\n"), a.cp, work)
        fused = [q for q in qs if q.fused]
        stats = ws.bm25(name, qs, corpus, prefix, a.cp, work, {q.id: {"texts": [[1.0, q.text]], "check": []} for q in fused})

        def held_share(q):
            s = stats[q.id]
            idfs = {t["t"]: (ws.idf(t["df"], s["N"]), t["df"] > 0) for t in s["terms"]}
            total = sum(i for i, _ in idfs.values())
            return sum(i for i, held in idfs.values() if held) / total if total else 1.0

        rules = {"shipped (adaptive)": lambda q: ws.fuse(q.vec, q.lex, ws.shipped_weight(q))}
        for beta in (0.25, 0.5, 1.0):
            rules["CombMNZ beta %.2f" % beta] = comb_mnz(beta)
        rules["CombMNZ beta 0.25, first 20 rows"] = comb_mnz(0.25, 20)
        for p in (1, 2):
            rules["lexical stand-out x held idf share^%d" % p] = lambda q, p=p: ws.fuse(q.vec, q.lex, ws.shipped_weight(q, lexical_factor=held_share(q) ** p))
        absent = sum(1 for q in fused if held_share(q) < 1)
        print("%s: %d of %d fused questions have a term no row holds" % (name, absent, len(fused)))
        for r, rule in rules.items():
            vals = [ws.ndcg10(rule(q) if q.fused else q.final, q.j) for q in qs]
            print("  %-42s %.4f" % (r, sum(vals) / len(vals)))


if __name__ == "__main__":
    main()
