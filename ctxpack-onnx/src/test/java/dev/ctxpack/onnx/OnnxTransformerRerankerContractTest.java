package dev.ctxpack.onnx;

import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.rerank.RerankerContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OnnxCrossEncoderReranker} under the {@link RerankerContract} on a real transformer: the
 * float32 MiniLM from the langchain4j jar with the linear head on {@code [CLS]} that {@link
 * OnnxGraphs#withClsHead} adds (not trained for relevance, so its ranking means nothing, but every
 * score comes from MiniLM's six transformer layers over the encoded pair), one pair per run as by
 * default.
 */
class OnnxTransformerRerankerContractTest extends RerankerContract {
  @TempDir static Path dir;
  static OnnxCrossEncoderReranker reranker;

  @BeforeAll
  static void writeModel() throws IOException {
    OnnxCrossEncoderRerankerContractTest.copyTokenizer(dir);
    Path model = Files.write(dir.resolve("minilm-head.onnx"),
        OnnxGraphs.withClsHead(OnnxCrossEncoderRerankerTest.resource("all-minilm-l6-v2.onnx"), MiniLmEmbedder.DIMENSION));
    reranker = OnnxCrossEncoderReranker.builder(model).build();
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
