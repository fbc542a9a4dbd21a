package dev.ctxpack.onnx;

import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.rerank.RerankerContract;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OnnxCrossEncoderReranker} under the {@link RerankerContract}, on the lexical cross-encoder
 * {@link OnnxGraphs} writes (a real ONNX model whose logit counts the query word pieces found in the
 * passage; no trained cross-encoder can be fetched here) with MiniLM's BERT uncased tokenizer.json.
 * {@link OnnxTransformerRerankerContractTest} runs the contract on a real transformer.
 */
class OnnxCrossEncoderRerankerContractTest extends RerankerContract {
  @TempDir static Path dir;
  static OnnxCrossEncoderReranker reranker;

  @BeforeAll
  static void writeModel() throws IOException {
    copyTokenizer(dir);
    Path model = Files.write(dir.resolve("overlap.onnx"), OnnxGraphs.overlapCrossEncoder(false, true));
    reranker = OnnxCrossEncoderReranker.builder(model).build();
  }

  /** MiniLM's tokenizer.json from the langchain4j jar, beside the models in {@code dir}. */
  static void copyTokenizer(Path dir) throws IOException {
    try (InputStream in = OnnxCrossEncoderRerankerContractTest.class.getClassLoader()
        .getResourceAsStream(MiniLmEmbedder.TOKENIZER_RESOURCE)) {
      Files.copy(in, dir.resolve("tokenizer.json"));
    }
  }

  @AfterAll
  static void close() {
    reranker.close();
  }

  @Override
  protected Reranker reranker() {
    return reranker;
  }
}
