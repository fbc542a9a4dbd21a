/**
 * ctxpack inside LangChain4j's RAG flow ({@code DefaultRetrievalAugmentor} with {@code AiServices}).
 *
 * <ul>
 *   <li>{@link dev.ctxpack.langchain4j.CtxpackContentRetriever}: a {@code ContentRetriever} over a
 *       ctxpack index, whose segments carry ctxpack's ids and offsets;
 *   <li>{@link dev.ctxpack.langchain4j.CtxpackContentAggregator}: the {@code ContentAggregator}
 *       step: dedup with merged provenance, stitching, MMR, compression to one budget shared with
 *       chat memory, the trace of every decision ({@link dev.ctxpack.langchain4j.PackedEvidence});
 *   <li>{@link dev.ctxpack.langchain4j.CtxpackContentInjector}: the {@code ContentInjector} step:
 *       the user message becomes ctxpack's prompt (template by language, labels, fences, flags,
 *       conflict notes);
 *   <li>{@link dev.ctxpack.langchain4j.CtxpackCitationGuardrail}: after the model answers, its
 *       citations are verified and a failing answer is reprompted with ctxpack's feedback;
 *   <li>{@link dev.ctxpack.langchain4j.CtxpackTokenCountEstimator}: LangChain4j counts as ctxpack does.
 * </ul>
 *
 * See docs/LANGCHAIN4J.md.
 */
package dev.ctxpack.langchain4j;
