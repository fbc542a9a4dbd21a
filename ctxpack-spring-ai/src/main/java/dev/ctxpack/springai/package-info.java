/**
 * ctxpack inside Spring AI. What a Spring AI RAG application plugs in:
 *
 * <ul>
 *   <li>{@link dev.ctxpack.springai.CtxpackDocumentPostProcessor}, a {@code DocumentPostProcessor} for
 *       {@code RetrievalAugmentationAdvisor}: the documents its retrievers found go through ctxpack's
 *       dedup cascade (merged provenance, overlap stitching), MMR, verbatim compression to a token
 *       budget and ordering, and come back labelled {@code S1..Sn};
 *   <li>{@link dev.ctxpack.springai.CtxpackQueryAugmenter}, a {@code QueryAugmenter}: the augmented
 *       query is ctxpack's prompt (instructions, fenced SOURCES, question), in the question's language;
 *   <li>{@link dev.ctxpack.springai.CtxpackAdvisor}, a {@code BaseAdvisor} that packs evidence and chat
 *       memory into one budget for the model's window and checks the answer's citations afterwards;
 *   <li>{@link dev.ctxpack.springai.CtxpackDocumentRetriever}, a {@code DocumentRetriever} over a
 *       ctxpack index ({@code lucene:DIR}).
 * </ul>
 *
 * {@link dev.ctxpack.springai.CtxpackDocuments} names the metadata keys read and written. The Spring
 * Boot auto-configuration is in {@code dev.ctxpack.springai.autoconfigure}.
 */
package dev.ctxpack.springai;
