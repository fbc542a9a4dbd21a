#!/usr/bin/env python3
"""Questions that ask two things: does `ctxpack pack` send the answer to both?

Usage (W: the relevance evaluation's work folder, whose index holds every SQuAD 2.0 dev paragraph:
`java -jar ctxpack-bench/target/ctxpack-bench.jar relevance --work W ...` builds it):

  python3 tools/compound-questions.py ../shared/data W OUT JAR [JAR ...]

Construction: SQuAD 2.0 dev, the REPORT half of the articles (the first byte of the SHA-256 of
the title even, as `CompressData.split`); paragraphs with two answerable questions whose first
answers (their first gold string, found in the paragraph; the data hold no offsets) start in
different sentences (split at '. ') and share no answer string; one pair per
paragraph, at most 200, sampled with seed 42. Each pair becomes one question: the first without
its question mark, ", and ", the second with its first letter lower-cased ("How deep is Lake
Baikal, and when does it freeze?"). Both halves are also asked alone. Each JAR (a CLI jar) runs
`pack --batch` over W/index with `--preset medium` (its defaults otherwise) and once with
`--min-relevance 0` (no line); a half's answer is retained when one of its gold strings is in the
sources' text. Writes OUT/compound-<n>.jsonl (each jar's output) and prints, per jar and setting:
both answers retained, each half, insufficient, and mean sources tokens.
"""
import hashlib
import json
import os
import random
import subprocess
import sys


def report_half(title):
    return hashlib.sha256(title.encode('utf-8')).digest()[0] % 2 == 0


def sentence_of(text, start):
    return text.count('. ', 0, start)


def build(data):
    pairs = []
    for a in json.load(open(f'{data}/squad_v2_en/dev-v2.0.json', encoding='utf-8'))['data']:
        if not report_half(a['title']):
            continue
        for p in a['paragraphs']:
            qs = [q for q in p['qas'] if not q.get('is_impossible') and q['answers']]
            found = None
            for i in range(len(qs)):
                for j in range(i + 1, len(qs)):
                    a1, a2 = qs[i]['answers'], qs[j]['answers']
                    g1 = {(x if isinstance(x, str) else x['text']).strip() for x in a1} - {''}
                    g2 = {(x if isinstance(x, str) else x['text']).strip() for x in a2} - {''}
                    at1 = p['context'].find(sorted(g1)[0]) if g1 else -1
                    at2 = p['context'].find(sorted(g2)[0]) if g2 else -1
                    if at1 < 0 or at2 < 0:
                        continue
                    s1 = sentence_of(p['context'], at1)
                    s2 = sentence_of(p['context'], at2)
                    if s1 != s2 and not (g1 & g2) and not any(x in y or y in x for x in g1 for y in g2):
                        found = (qs[i], qs[j], sorted(g1), sorted(g2))
                        break
                if found:
                    break
            if found:
                pairs.append(found)
    random.Random(42).shuffle(pairs)
    return pairs[:200]


def joined(q1, q2):
    a = q1.strip().rstrip('?').rstrip()
    b = q2.strip()
    return a + ', and ' + b[0].lower() + b[1:]


def main():
    data, work, out, jars = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    pairs = build(data)
    lines = []
    for q1, q2, g1, g2 in pairs:
        lines.append({'id': q1['id'] + '+' + q2['id'], 'query': joined(q1['question'], q2['question']), 'preset': 'medium'})
    batch = os.path.join(out, 'compound-batch.jsonl')
    with open(batch, 'w', encoding='utf-8') as f:
        for l in lines:
            f.write(json.dumps(l) + '\n')
    print(f'{len(pairs)} compound questions, e.g. {lines[0]["query"]!r}')
    for n, jar in enumerate(jars):
        for setting, extra in (('line', []), ('no line', ['--min-relevance', '0'])):
            path = os.path.join(out, f'compound-{n}-{setting.replace(" ", "")}.jsonl')
            with open(path, 'w', encoding='utf-8') as f:
                subprocess.run(['java', '-jar', jar, 'pack', '--index', f'{work}/index', '--batch', batch] + extra,
                               stdout=f, check=False)
            res = [json.loads(l) for l in open(path, encoding='utf-8') if l.strip()]
            both = first = second = insufficient = tokens = 0
            for (q1, q2, g1, g2), r in zip(pairs, res):
                text = ' '.join(s['text'] for s in r.get('sources', []))
                h1 = any(g in text for g in g1)
                h2 = any(g in text for g in g2)
                both += h1 and h2
                first += h1
                second += h2
                insufficient += r.get('evidence', {}).get('status') == 'insufficient'
                tokens += r['budget']['byComponent']['sources']
            k = len(res)
            print(f'{jar} [{setting}]: both {100 * both / k:.1f} %, first {100 * first / k:.1f} %, '
                  f'second {100 * second / k:.1f} %, insufficient {100 * insufficient / k:.1f} %, '
                  f'sources tokens {tokens / k:.0f} (n={k})')


if __name__ == '__main__':
    main()
