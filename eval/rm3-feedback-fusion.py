#!/usr/bin/env python3
"""Re-fuses the side lists of one `eval --rankings` file that holds modes hybrid and hybrid+rm3 (session 9,
docs/history/EVALUATION-sessions-1-21.md): the pipeline's final orders, the adaptive weight offline (without the anchor
factor), the RM3 lexical list alone, fixed weights over the RM3 lists, three lists together, and the per-query best
fixed weight (an oracle). Ids and scores only.

Usage: eval/rm3-feedback-fusion.py RANKINGS.jsonl
"""
import json, sys
from offline_fusion import per_row, normalised, ndcg10
def standout(side, depth=20):
    if len(side) < 2: return len(side)
    sc=[s for _,s in side]; mx,mn=max(sc),min(sc)
    if not mx>mn: return 0
    places=min(depth,len(side))-1
    return 1-sum((sc[i]-mn)/(mx-mn) for i in range(1,places+1))/places
def adaptive_w(vec, lex):
    v,l=standout(vec),standout(lex)
    return v/(v+l) if v+l>0 else 0.4
def fuse(lists, ws):
    ns=[normalised(l) for l in lists]
    docs=set().union(*[set(n) for n in ns])
    return sorted(docs, key=lambda d:(-sum(w*n.get(d,0) for w,n in zip(ws,ns)), d))
def load(path):
    by={}
    for line in open(path):
        r=json.loads(line); by.setdefault(r['mode'],{})[r['query']]=r
    return by
by=load(sys.argv[1])
H=by['hybrid']; R=by.get('hybrid+rm3')
qs=sorted(H)
def mean(f): return sum(f(q) for q in qs)/len(qs)
print('final hybrid', mean(lambda q: ndcg10(H[q]['final'] if isinstance(H[q]['final'][0],str) else [h['doc'] for h in H[q]['final']], H[q]['judgments'])))
def fin(r): return [h if isinstance(h,str) else h['doc'] for h in r['final']]
print('final rm3', mean(lambda q: ndcg10(fin(R[q]),R[q]['judgments'])))
def adaptive2(q):
    v=per_row(H[q]['vector']); l=per_row(H[q]['lexical']); w=adaptive_w(v,l)
    return ndcg10(fuse([v,l],[w,1-w]),H[q]['judgments'])
print('offline adaptive hybrid', mean(adaptive2))
def adaptive_rm3(q):
    v=per_row(R[q]['vector']); l=per_row(R[q]['lexical']); w=adaptive_w(v,l)
    return ndcg10(fuse([v,l],[w,1-w]),R[q]['judgments'])
print('offline adaptive rm3', mean(adaptive_rm3))
print('rm3 lex alone', mean(lambda q: ndcg10([d for d,_ in per_row(R[q]['lexical'])],R[q]['judgments'])))
for w in [0.1,0.2,0.3,0.4,0.5]:
    print('fixed w',w,'rm3', round(mean(lambda q: ndcg10(fuse([per_row(R[q]['vector']),per_row(R[q]['lexical'])],[w,1-w]),R[q]['judgments'])),4))
# weight from first-pass lists, applied to rm3 lex
def w_first(q):
    v=per_row(H[q]['vector']); l=per_row(H[q]['lexical']); w=adaptive_w(v,l)
    return ndcg10(fuse([v,per_row(R[q]['lexical'])],[w,1-w]),H[q]['judgments'])
print('weight from first lists, rm3 lex', mean(w_first))
# three lists
def three(q,a):
    v=per_row(H[q]['vector']); l=per_row(H[q]['lexical']); w=adaptive_w(v,l); l2=per_row(R[q]['lexical'])
    return ndcg10(fuse([v,l,l2],[w,(1-w)*a,(1-w)*(1-a)]),H[q]['judgments'])
for a in [0.25,0.5,0.75]:
    print('three lists a',a, round(mean(lambda q: three(q,a)),4))
ws=[i/20 for i in range(21)]
def oracle(q,src):
    v=per_row(src[q]['vector']); l=per_row(src[q]['lexical'])
    return max(ndcg10(fuse([v,l],[w,1-w]),src[q]['judgments']) for w in ws)
print('per-query oracle weight hybrid', round(mean(lambda q: oracle(q,H)),4), 'rm3', round(mean(lambda q: oracle(q,R)),4))
