#!/usr/bin/env python3
"""Simulates relevance-line rules on what `ctxpack pack` scores, without rerunning it.

Usage (the relevance evaluation's work folder, after `ctxpack-bench.jar relevance --work W`):

  java -jar ctxpack-app/target/ctxpack.jar pack --index W/index --batch W/batch-fit.jsonl \
      --min-relevance 1 > fit.jsonl          # a line no sentence clears: every candidate sentence
                                             # is in the trace with its probability and tokens (a
                                             # hand-set line reads no coverage: --min-coverage auto)
  python3 tools/relevance-rules.py W fit.jsonl ../shared/data

For each request it reads every compression drop of the trace (document, span, probability,
tokens), and for each rule it keeps the eligible sentences (those dropped below the line or for
the budget, not as noise, repeats or off-topic) that the rule keeps. Retained: a gold answer
string is in the kept sentences' text; tokens: the kept sentences' tokens plus OVERHEAD per
source (the block's label and metadata; about 39 on SQuAD, so absolute tokens are estimates and
only the comparison between rules holds). Rules: the shipped one (a gate on the best sentence, then
every sentence at least RELATIVE as likely as it), an absolute floor beside the relative line, and
a residual-mass line (drop the least likely sentences while their summed probability stays under
EPS).
"""
import collections
import json
import re
import sys

OVERHEAD = 12


def load(work, path, data):
    docs = {}
    for line in open(f'{work}/squad-dev-paragraphs.jsonl', encoding='utf-8'):
        d = json.loads(line)
        docs[d['id']] = d['text']
    gold = {}
    for a in json.load(open(f'{data}/squad_v2_en/dev-v2.0.json', encoding='utf-8'))['data']:
        for p in a['paragraphs']:
            for q in p['qas']:
                gold[q['id']] = list({(x if isinstance(x, str) else x['text']).strip() for x in q['answers']} - {''})
    span = re.compile(r'^(\S+) \[(\d+), (\d+)\) score ([0-9.]+)$')
    reqs = []
    for line in open(path, encoding='utf-8'):
        j = json.loads(line)
        sents = []
        for t in j['trace']:
            if t['stage'] != 'compress' or t['action'] != 'drop' or not t['rule'].startswith('compress:'):
                continue
            m = span.match(t['reason'])
            if not m:
                continue
            doc, s, e, p = m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4))
            sents.append(dict(doc=doc, p=p, tok=t['tokensSaved'], rule=t['rule'][9:], text=docs[doc][s:e]))
        qid = j['id']
        kind = 'off-corpus' if qid.startswith('cran-') else ('answerable' if gold.get(qid) else 'unanswerable')
        reqs.append(dict(kind=kind, sents=sents, answers=gold.get(qid, [])))
    return reqs


def simulate(reqs, rule):
    out = collections.defaultdict(lambda: [0, 0, 0, 0])
    for r in reqs:
        eligible = [x for x in r['sents'] if x['rule'] in ('below-relevance', 'budget')]
        kept = rule(eligible)
        o = out[r['kind']]
        o[0] += 1
        if not kept:
            o[3] += 1
            continue
        text = '\n'.join(x['text'] for x in kept)
        if any(a in text for a in r['answers']):
            o[1] += 1
        o[2] += sum(x['tok'] for x in kept) + OVERHEAD * len({x['doc'] for x in kept})
    return {k: (v[0], 100 * v[1] / v[0], v[2] / v[0], 100 * v[3] / v[0]) for k, v in out.items()}


def relative(gate, share, floor=0.0):
    def rule(el):
        best = max((x['p'] for x in el), default=0)
        return [] if best < gate else [x for x in el if x['p'] >= max(floor, share * best)]
    return rule


def residual(gate, eps):
    def rule(el):
        best = max((x['p'] for x in el), default=0)
        if best < gate:
            return []
        s = sorted(el, key=lambda x: x['p'])
        acc, cut = 0.0, 0
        for i, x in enumerate(s):
            acc += x['p']
            if acc > eps:
                break
            cut = i + 1
        return s[cut:]
    return rule


def main():
    work, path, data = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else '../shared/data'
    reqs = load(work, path, data)
    rules = [('shipped: gate 0.14, relative 0.1', relative(0.14, 0.1))]
    for gate in (0.10, 0.12, 0.14):
        for share in (0.03, 0.05, 0.1):
            for floor in (0.0, 0.02, 0.05):
                rules.append((f'gate {gate}, relative {share}, floor {floor}', relative(gate, share, floor)))
        for eps in (0.3, 0.5, 0.8, 1.0):
            rules.append((f'gate {gate}, residual mass {eps}', residual(gate, eps)))
    print('| rule | ' + ' | '.join(f'{k}: retained, tokens, insufficient' for k in ('answerable', 'unanswerable', 'off-corpus')) + ' |')
    print('|---|---|---|---|')
    for name, rule in rules:
        s = simulate(reqs, rule)
        print(f'| {name} | ' + ' | '.join(
            f'{s[k][1]:.1f} %, {s[k][2]:.0f}, {s[k][3]:.1f} %' for k in ('answerable', 'unanswerable', 'off-corpus')) + ' |')


if __name__ == '__main__':
    main()
