#!/usr/bin/env python3
"""Session 21 (docs/history/EVALUATION-sessions-1-21.md, "Session 21"), offline: a dense side of two embedding models.
Two `eval --rankings` files of one set, the default model's and a second model's (CHARTSTREAM_EMBEDDING_MODEL), hold the
same lexical lists and two vector lists per question; each rule makes one vector list of the two and fuses it with the
lexical list by the shipped adaptive rule (eval/offline_fusion.py shipped_weight), so the "first model" line reproduces
the pipeline's hybrid and the "second model" line the second model's.

Usage: eval/dense-model-ensemble.py --cp 'app/target/lib/*' NAME=FIRST.jsonl+SECOND.jsonl,BEIR_DIR,PREFIX ...
  PREFIX: "record: beir docs\\ntext: " for a BEIR folder, "-" for eval/clinical (as eval/offline_fusion.py)
"""
import tempfile

import offline_fusion as ws


def mean_normalised(a, b):
    """Each list min-max normalised, a row one list misses scored 0 there, the mean of the two."""
    na, nb = ws.normalised(a), ws.normalised(b)
    score = {d: (na.get(d, 0) + nb.get(d, 0)) / 2 for d in set(na) | set(nb)}
    return sorted(score.items(), key=lambda e: (-e[1], e[0]))


def mean_raw(a, b):
    """The mean of the two cosines, a row one list misses given that list's last score."""
    da, db = dict(a), dict(b)
    la, lb = (a[-1][1] if a else 0), (b[-1][1] if b else 0)
    score = {d: (da.get(d, la) + db.get(d, lb)) / 2 for d in set(da) | set(db)}
    return sorted(score.items(), key=lambda e: (-e[1], e[0]))


def rrf(a, b, k=60):
    score = {}
    for side in (a, b):
        for i, (d, _) in enumerate(side):
            score[d] = score.get(d, 0) + 1 / (k + i + 1)
    return sorted(score.items(), key=lambda e: (-e[1], e[0]))


def main():
    a = ws.arguments()
    for spec in a.sets:
        spec = spec.replace("\\n", "\n")
        name, rest = spec.split("=", 1)
        files, tail = rest.split(",", 1)
        first, second = files.split("+")
        work = tempfile.mkdtemp(prefix="model-ensemble-s21-")
        _, qs, _, _ = ws.load("%s=%s,%s" % (name, first, tail), a.cp, work)
        _, qs2, _, _ = ws.load("%s2=%s,%s" % (name, second, tail), a.cp, work)
        other = {q.id: q for q in qs2}
        rules = {
            "first model": lambda q, o: q.vec,
            "second model": lambda q, o: o.vec,
            "mean of min-max": lambda q, o: mean_normalised(q.vec, o.vec),
            "mean of cosines": lambda q, o: mean_raw(q.vec, o.vec),
            "rrf of the two": lambda q, o: rrf(q.vec, o.vec),
        }
        print(name)
        for r, rule in rules.items():
            vals, vec_only = [], []
            for q in qs:
                o = other[q.id]
                if not q.fused:
                    vals.append(ws.ndcg10(q.final, q.j))
                    vec_only.append(ws.ndcg10(q.final, q.j))
                    continue
                lex = q.lex if r != "second model" else o.lex
                v = rule(q, o)
                w = ws.shipped_weight(q if r != "second model" else o, vec=v)
                vals.append(ws.ndcg10(ws.fuse(v, lex, w), q.j))
                vec_only.append(ws.ndcg10([d for d, _ in v], q.j))
            print("  %-20s vector %.4f  hybrid %.4f" % (r, sum(vec_only) / len(vec_only), sum(vals) / len(vals)))


if __name__ == "__main__":
    main()
