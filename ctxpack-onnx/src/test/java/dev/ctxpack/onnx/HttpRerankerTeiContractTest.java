package dev.ctxpack.onnx;

import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.rerank.RerankerContract;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link HttpReranker} in the TEI shape (one request per list) under the {@link RerankerContract},
 * against a real HTTP server on loopback that scores by query-word overlap ({@link
 * LoopbackRerankService}).
 */
class HttpRerankerTeiContractTest extends RerankerContract {
  static LoopbackRerankService service;
  static HttpReranker reranker;

  @BeforeAll
  static void start() throws IOException {
    service = LoopbackRerankService.start();
    reranker = HttpReranker.builder(service.url(HttpReranker.Format.TEI)).format(HttpReranker.Format.TEI)
        .timeout(Duration.ofSeconds(10)).build();
  }

  @AfterAll
  static void stop() {
    service.close();
  }

  @Override
  protected Reranker reranker() {
    return reranker;
  }
}
