/**
 * {@code ctxpack eval order}: where each pack order puts the gold evidence (SQuAD 2.0 dev, FaQuAD),
 * what repeating the key passage costs, and the topic order's thresholds fitted on article labels.
 */
package dev.ctxpack.bench.order;
