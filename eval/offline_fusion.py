#!/usr/bin/env python3
"""The query pipeline's fusion re-done offline, shared by the eval/ scripts that re-fuse the side lists of
`chartstream eval --rankings` files: one hit per row (per_row), min-max per side (normalised), the convex combination
(fuse), the adaptive weight as AdaptiveFusion computes it (standout, share, shipped_weight), nDCG@10, the loader of
a set's questions with the project's anchor checks (load, through eval/OfflineLists.java), the store's row-level BM25
rebuilt in memory (bm25), and the scripts' common arguments (parser, arguments). Ids and scores only.

Import it from a script in this folder: `import offline_fusion as ws`.
"""
import argparse, json, math, os, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
JAVA = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java")
ANCHORED_FACTOR, PRIOR = 0.25, 0.4


def per_row(hits):
    seen, out = set(), []
    for h in hits:
        if h["doc"] not in seen:
            seen.add(h["doc"])
            out.append((h["doc"], h["score"]))
    return out


def normalised(side):
    if not side:
        return {}
    lo, hi = min(s for _, s in side), max(s for _, s in side)
    return {d: ((s - lo) / (hi - lo) if hi > lo else 1.0) for d, s in side}


def ndcg10(ranked, judgments):
    dcg = sum((2 ** judgments.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
    ideal = sorted(judgments.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def fuse(vec, lex, w):
    nv, nl = normalised(vec), normalised(lex)
    return sorted(set(nv) | set(nl), key=lambda d: (-(w * nv.get(d, 0) + (1 - w) * nl.get(d, 0)), d))


def standout(side, depth=20):
    if len(side) < 2:
        return float(len(side))
    sc = [s for _, s in side]
    hi, lo = max(sc), min(sc)
    if not hi > lo:
        return 0.0
    places = min(depth, len(side)) - 1
    return 1 - sum((sc[i] - lo) / (hi - lo) for i in range(1, places + 1)) / places


def gap(side, k):
    """(first − second) / (first − k-th): the first hit's lead against the list's own spread."""
    if len(side) < 2:
        return float(len(side))
    sc = [s for _, s in side]
    k = min(k, len(sc)) - 1
    return (sc[0] - sc[1]) / (sc[0] - sc[k]) if sc[0] > sc[k] else 0.0


def share(v, l):
    return v / (v + l) if v + l > 0 else PRIOR


def shipped_weight(q, vec=None, lexical_factor=1.0, lex=None):
    """The pipeline's adaptive vector weight (AdaptiveFusion) for question q: its vector list (or vec) against its
    lexical list (or lex), whose stand-out may be scaled by lexical_factor; the anchor factor when the pipeline's
    lexical row 1 mentions the question's anchors."""
    w = share(standout(q.vec if vec is None else vec), standout(q.lex if lex is None else lex) * lexical_factor)
    return w * ANCHORED_FACTOR if q.anchored and q.lex_mentions else w


def idf(df, n):
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


class Question:
    pass


def java(cp, *args):
    subprocess.run([JAVA, "-cp", cp, os.path.join(HERE, "OfflineLists.java"), *args], check=True,
                   stdout=subprocess.PIPE if args[0] == "anchors" else None)


def load(spec, cp, work):
    name, rest = spec.split("=", 1)
    rankings, folder, prefix = rest.split(",", 2)
    texts = {json.loads(l)["_id"]: json.loads(l)["text"] for l in open(os.path.join(folder, "queries.jsonl"))}
    corpus = os.path.join(folder, "corpus.jsonl")
    rows = {}
    for l in open(corpus):
        o = json.loads(l)
        rows[o["_id"]] = o["text"].replace("\n", " ").replace("\t", " ")
    qs = []
    for l in open(rankings):
        r = json.loads(l)
        if r["mode"] != "hybrid":
            continue
        q = Question()
        q.id, q.j, q.text = r["query"], r["judgments"], texts[r["query"]].replace("\n", " ").replace("\t", " ")
        q.vec, q.lex = per_row(r["vector"]), per_row(r["lexical"])
        q.final = [h if isinstance(h, str) else h["doc"] for h in r["final"]]
        q.fused = bool(q.vec or q.lex)
        qs.append(q)
    # anchors: the question's, and whether the first lexical / first vector row mentions them
    tsv = os.path.join(work, name + "-anchors.tsv")
    with open(tsv, "w") as f:
        for q in qs:
            first = lambda side: rows.get(side[0][0], "") if side else ""
            f.write("\t".join([q.id, q.text, first(q.lex), first(q.vec)]) + "\n")
    out = subprocess.run([JAVA, "-cp", cp, os.path.join(HERE, "OfflineLists.java"), "anchors", tsv], check=True,
                         capture_output=True, text=True).stdout
    flags = {l.split("\t")[0]: [x == "true" for x in l.rstrip("\n").split("\t")[1:]] for l in out.splitlines()}
    for q in qs:
        q.anchored, q.lex_mentions, q.vec_mentions = flags[q.id]
    return name, qs, corpus, prefix


def bm25(name, qs, corpus, prefix, cp, work, queries):
    """queries: {key: {"texts": [...], "check": [...]}} -> {key: output line}"""
    qf, of = os.path.join(work, name + "-bm25-in.jsonl"), os.path.join(work, name + "-bm25-out.jsonl")
    with open(qf, "w") as f:
        for k, v in queries.items():
            f.write(json.dumps(dict(id=k, **v)) + "\n")
    java(cp, "bm25", corpus, prefix, qf, of)
    return {o["id"]: o for o in map(json.loads, open(of))}


def parser():
    """--cp CLASSPATH NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX ...: the arguments of the scripts that re-fuse side lists."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--cp", required=True)
    ap.add_argument("sets", nargs="+")
    return ap


def arguments():
    return parser().parse_args()
