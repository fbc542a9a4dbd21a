/**
 * Dense embedders and model-backed rerankers. The embedders are the implementations of {@link
 * dev.ctxpack.embed.Embedder} that turn chunks, sentences and queries into unit-length vectors for
 * the dense half of retrieval (ingest writes them into the HNSW index; {@code retrieve} searches it
 * before fusion) and for the semantic steps after it (near-duplicate grouping, MMR).
 *
 * <p>{@link dev.ctxpack.onnx.MiniLmEmbedder} is the default: all-MiniLM-L6-v2, quantized, run
 * in-process by ONNX Runtime from its Maven artifact, so the embedded setup needs no server and no
 * network. {@link dev.ctxpack.onnx.OnnxFileEmbedder} runs any sentence-transformer exported to
 * ONNX from files, and {@link dev.ctxpack.onnx.OpenAiEmbedder} calls any OpenAI-compatible
 * {@code /embeddings} endpoint. {@link dev.ctxpack.onnx.Embedders} picks one from a spec string
 * such as {@code minilm}, {@code onnx:/models/e5/model.onnx} or {@code openai:text-embedding-3-small}.
 *
 * <p>Rerankers, the model-backed implementations of {@link dev.ctxpack.rerank.Reranker}, live here
 * too: {@link dev.ctxpack.onnx.HttpReranker} calls a rerank service (Cohere/Jina or
 * text-embeddings-inference shape) and {@link dev.ctxpack.onnx.OnnxCrossEncoderReranker} runs a
 * cross-encoder exported to ONNX from files; {@link dev.ctxpack.onnx.Rerankers} picks one from a
 * spec such as {@code http:http://localhost:8080/rerank,format=tei} or {@code
 * onnx:/models/ms-marco/model.onnx}.
 *
 * <p>In-process models run one ONNX thread per text and spread a batch over a bounded executor
 * (one thread per core by default), which measured fastest on small machines.
 */
package dev.ctxpack.onnx;
