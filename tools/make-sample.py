#!/usr/bin/env python3
"""Rebuilds the bundled sample corpus from ../shared/data (run from the project root).

SciFact abstracts (ODC-By 1.0): the abstracts judged relevant to the first 150 test claims, then
more abstracts in corpus order up to 300. FaQuAD paragraphs (CC BY 4.0): the first 120 paragraphs
in file order. Output: BEIR-style JSON Lines with _id, title, text and a source metadata field.
"""
import json, os, sys

root = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
out = "ctxpack-app/src/main/resources/dev/ctxpack/app/samples"

corpus = [json.loads(l) for l in open(os.path.join(root, "scifact/beir_test/corpus.jsonl"), encoding="utf-8")]
qrels = [l.rstrip("\n").split("\t") for l in open(os.path.join(root, "scifact/beir_test/qrels/test.tsv"))][1:]
queries = []
for q, d, _ in qrels:
    if q not in queries:
        queries.append(q)
wanted = []
for q, d, _ in qrels:
    if q in queries[:150] and d not in wanted:
        wanted.append(d)
by_id = {d["_id"]: d for d in corpus}
chosen = [by_id[d] for d in wanted if d in by_id]
for d in corpus:
    if len(chosen) >= 300:
        break
    if d["_id"] not in wanted:
        chosen.append(d)
with open(os.path.join(out, "scifact-sample.jsonl"), "w", encoding="utf-8") as f:
    for d in chosen:
        f.write(json.dumps({"_id": "scifact-" + d["_id"], "title": d["title"], "text": d["text"],
                            "metadata": {"source": "SciFact (ODC-By 1.0)"}}, ensure_ascii=False) + "\n")

faquad = json.load(open(os.path.join(root, "faquad/train.json"), encoding="utf-8"))["data"]
n = 0
with open(os.path.join(out, "faquad-sample.jsonl"), "w", encoding="utf-8") as f:
    for art in faquad:
        for i, p in enumerate(art["paragraphs"]):
            if n >= 120:
                break
            f.write(json.dumps({"_id": "faquad-%s-%d" % (art["title"].replace(" ", "_"), i), "title": art["title"],
                                "text": p["context"], "metadata": {"source": "FaQuAD (CC BY 4.0)"}},
                               ensure_ascii=False) + "\n")
            n += 1
print(len(chosen), "SciFact abstracts,", n, "FaQuAD paragraphs")
