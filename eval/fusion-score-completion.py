#!/usr/bin/env python3
"""Session 16 (docs/history/EVALUATION-sessions-1-21.md, "Session 16: depth and score completion"): would fusion gain if
a row that one side's first CUT chunks miss got that side's real score instead of 0? Reads one `eval --rankings` file
taken deep enough to hold every row on both sides (e.g. `--per-side 500` on liveqa-med-clean's 446 passages), cuts each
side's chunk list to its first CUT chunks (what `--per-side CUT` returns; the shipped fusion on it reproduces the
pipeline at that depth), and re-fuses the union of the cut lists' rows three ways:

- shipped@cut: the shipped rule (eval/fusion-side-depth.py) on the cut lists;
- shipped@full: the shipped rule on the whole lists;
- completed: the weight and each side's min-max range from the cut lists, but every row of the union scored on both
  sides with its score in the whole list (a row in neither list gets that side's lowest score), not clamped, so a
  row below the cut list's minimum gets a negative share; "clamp -0.5" floors it at -0.5.

Usage: eval/fusion-score-completion.py --cp 'app/target/lib/*' --cut 50 NAME=RANKINGS.jsonl,BEIR_DIR,PREFIX
"""
import argparse, importlib.util, os, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("fusion_depth", os.path.join(HERE, "fusion-side-depth.py"))
fd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fd)
ws = fd.ws


def load(spec, cp, work, cut):
    ws.per_row = (lambda hits: fd.whole_list(hits[:cut])) if cut else fd.whole_list
    return {q.id: q for q in ws.load(spec, cp, work)[1]}


def completed(cut, whole, clamp=None):
    w = fd.anchor(cut, ws.share(ws.standout(cut.vec), ws.standout(cut.lex)))
    union = {d for d, _ in cut.vec} | {d for d, _ in cut.lex}

    def scores(side_cut, side_whole):
        kept = [s for _, s in side_cut]
        hi, lo = (max(kept), min(kept)) if kept else (1.0, 0.0)
        real = dict(side_whole)
        lowest = min(real.values()) if real else 0.0
        out = {}
        for d in union:
            v = (real.get(d, lowest) - lo) / (hi - lo) if hi > lo else 1.0
            out[d] = v if clamp is None else max(clamp, v)
        return out

    nv, nl = scores(cut.vec, whole.vec), scores(cut.lex, whole.lex)
    return sorted(union, key=lambda d: (-(w * nv[d] + (1 - w) * nl[d]), d))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cp", required=True)
    ap.add_argument("--cut", type=int, default=50)
    ap.add_argument("set")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="score-completion-")
    whole, cut = load(a.set, a.cp, work, 0), load(a.set, a.cp, work, a.cut)
    rules = {"shipped@cut": lambda c, w: fd.shipped(c), "shipped@full": lambda c, w: fd.shipped(w),
             "completed": completed, "completed, clamp -0.5": lambda c, w: completed(c, w, -0.5)}
    for name, rule in rules.items():
        total = sum(ws.ndcg10(rule(q, whole[qid]) if q.fused else q.final, q.j) for qid, q in cut.items())
        print("%-24s %.4f" % (name, total / len(cut)))


if __name__ == "__main__":
    main()
