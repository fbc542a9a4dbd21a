/**
 * Measures of retrieval quality, outside the request flow: given a ranked list of document ids per
 * query (a <em>run</em>) and graded relevance judgments (<em>qrels</em>), it computes Recall@k,
 * nDCG@k and MRR@k per query ({@link dev.ctxpack.eval.RankingMetrics}) and their means over a set
 * of queries ({@link dev.ctxpack.eval.Evaluation}).
 *
 * <p>The conventions are those of {@code trec_eval}/{@code pytrec_eval} (which BEIR reports), so
 * figures compare with published ones:
 *
 * <ul>
 *   <li>a document is relevant when its gain is &gt; 0; unjudged documents have gain 0;
 *   <li>nDCG uses linear gains and a {@code log2(rank + 1)} discount; its ideal DCG is computed
 *       from <em>all</em> the query's judged documents sorted by gain, not only from the retrieved
 *       ones;
 *   <li>a document repeated in a ranking counts once, at its first position; later copies keep
 *       their positions but earn nothing;
 *   <li>queries without any relevant judgment are excluded from the means and counted; judged
 *       queries that the run does not answer score 0.
 * </ul>
 *
 * <p>The evaluation runner over real data sets ({@code dev.ctxpack.bench.EvalRunner}) lives in
 * {@code ctxpack-bench} and runs on demand; this package depends on the JDK only.
 */
package dev.ctxpack.eval;
