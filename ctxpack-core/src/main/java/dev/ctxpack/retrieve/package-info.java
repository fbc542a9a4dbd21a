/**
 * The first stage of the flow: sparse, dense and hybrid retrieval over a {@link
 * dev.ctxpack.index.SearchableIndex}, and the fusions (reciprocal rank, weighted) that combine signals while
 * keeping each candidate's score per signal.
 */
package dev.ctxpack.retrieve;
