#!/usr/bin/env python3
"""Refits the compressor's calibration map p = sigmoid(a * logit(p_shipped) + b) three ways on the
FIT half of `./ctxpack eval calibration --predictions FILE` and reports each on both halves.

Every variant is a two-parameter (Platt) map on the shipped model's score, so it keeps the ranking:
  mle      pointwise maximum likelihood over every sentence (what FitCompressor does)
  perq     the same with each question weighing the same, whatever its number of sentences
  p>=.05   the same over the sentences the shipped model gives at least 0.05 (where lines sit)
Then, for the shipped map, 95 % intervals (1,000 resamples of whole questions, seed 1) of the gap
in [0.2, 0.8) and in the 0.7-0.8 bin.
Usage: python3 tools/calibration-variants.py /tmp/calibration-predictions.tsv   (numpy needed)
"""
import collections
import sys

import numpy as np


def figures(p, y, bins=10):
    b = np.minimum(bins - 1, np.floor(p * bins).astype(int))
    ece = sum((b == k).sum() / len(p) * abs(y[b == k].mean() - p[b == k].mean()) for k in range(bins) if (b == k).any())
    mid = (p >= 0.2) & (p < 0.8)
    return ece, ((p - y) ** 2).mean(), (y[mid].mean() - p[mid].mean()) if mid.any() else float("nan")


def platt(z, y, w):
    a, b = 1.0, 0.0
    for _ in range(100):
        p = 1 / (1 + np.exp(-(a * z + b)))
        g = np.array([np.sum(w * (p - y) * z), np.sum(w * (p - y))])
        h = w * p * (1 - p)
        step = np.linalg.solve(np.array([[np.sum(h * z * z), np.sum(h * z)], [np.sum(h * z), np.sum(h)]]), g)
        a, b = a - step[0], b - step[1]
        if abs(step).max() < 1e-10:
            break
    return a, b


def main(path):
    rows = collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            _, model, models, half, q, p, y = line.rstrip("\n").split("\t")
            if models == "shipped":
                rows[(model, half)].append((int(q), float(p), int(y)))
    print("| model | variant | a | b | FIT ECE | FIT Brier | FIT gap 0.2-0.8 | REPORT ECE | REPORT Brier | REPORT gap 0.2-0.8 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for model in dict.fromkeys(m for m, _ in rows):
        fit, rep = np.array(rows[(model, "FIT")]), np.array(rows[(model, "REPORT")])
        logit = lambda r: np.log(np.clip(r[:, 1], 1e-12, 1 - 1e-12) / (1 - np.clip(r[:, 1], 1e-12, 1 - 1e-12)))
        zf, yf, qf, zr, yr = logit(fit), fit[:, 2], fit[:, 0].astype(int), logit(rep), rep[:, 2]
        keep = zf >= np.log(0.05 / 0.95)
        variants = {
            "shipped": (1.0, 0.0),
            "mle": platt(zf, yf, np.ones_like(zf)),
            "perq": platt(zf, yf, 1.0 / np.bincount(qf)[qf]),
            "p>=.05": platt(zf[keep], yf[keep], np.ones(keep.sum())),
        }
        for name, (a, b) in variants.items():
            f = figures(1 / (1 + np.exp(-(a * zf + b))), yf)
            r = figures(1 / (1 + np.exp(-(a * zr + b))), yr)
            print("| %s | %s | %.3f | %.3f | %.4f | %.4f | %+.3f | %.4f | %.4f | %+.3f |" % ((model, name, a, b) + f + r))


def intervals(path):
    rows = collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            _, model, models, half, q, p, y = line.rstrip("\n").split("\t")
            if models == "shipped":
                rows[(model, half)].append((int(q), float(p), int(y)))
    rng = np.random.default_rng(1)

    def gap(p, y, lo, hi):
        s = (p >= lo) & (p < hi)
        return y[s].mean() - p[s].mean() if s.any() else float("nan")

    print()
    print("| model | half | gap 0.2-0.8 [95 % CI] | gap in 0.7-0.8 [95 % CI] | questions in 0.7-0.8 |")
    print("|---|---|---|---|---:|")
    for (model, half), r in rows.items():
        r = np.array(r)
        q, p, y = r[:, 0].astype(int), r[:, 1], r[:, 2]
        members = [np.where(q == k)[0] for k in range(q.max() + 1)]
        mids, highs = [], []
        for _ in range(1000):
            sel = np.concatenate([members[k] for k in rng.integers(0, len(members), len(members))])
            mids.append(gap(p[sel], y[sel], 0.2, 0.8))
            highs.append(gap(p[sel], y[sel], 0.7, 0.8))
        print("| %s | %s | %+.3f [%+.3f, %+.3f] | %+.3f [%+.3f, %+.3f] | %d |" % (
            model, half, gap(p, y, 0.2, 0.8), np.nanpercentile(mids, 2.5), np.nanpercentile(mids, 97.5),
            gap(p, y, 0.7, 0.8), np.nanpercentile(highs, 2.5), np.nanpercentile(highs, 97.5),
            len(set(q[(p >= 0.7) & (p < 0.8)]))))


if __name__ == "__main__":
    main(sys.argv[1])
    intervals(sys.argv[1])
