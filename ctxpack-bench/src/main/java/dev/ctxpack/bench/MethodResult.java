package dev.ctxpack.bench;

import java.util.Map;

/**
 * One method's figures on one data set.
 *
 * @param metrics metric label (e.g. {@code nDCG@10}) to its mean over the evaluated queries
 * @param p50Ms median wall time of one query (warm, sequential), milliseconds
 * @param p99Ms 99th percentile (nearest rank) of the same, milliseconds
 */
record MethodResult(String name, String pipeline, Map<String, Double> metrics, double p50Ms, double p99Ms, double meanMs,
    int queries) {}
