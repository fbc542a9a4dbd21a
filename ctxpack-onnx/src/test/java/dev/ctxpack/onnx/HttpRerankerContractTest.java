package dev.ctxpack.onnx;

import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.rerank.RerankerContract;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link HttpReranker} in the Cohere shape under the {@link RerankerContract}, against a real HTTP
 * server on loopback that scores by query-word overlap ({@link LoopbackRerankService}). At most three
 * documents per request, so the contract's lists are split over several requests and merged back
 * by index.
 */
class HttpRerankerContractTest extends RerankerContract {
  static LoopbackRerankService service;
  static HttpReranker reranker;

  @BeforeAll
  static void start() throws IOException {
    service = LoopbackRerankService.start();
    reranker = HttpReranker.builder(service.url(HttpReranker.Format.COHERE)).model("overlap")
        .maxDocuments(3).timeout(Duration.ofSeconds(10)).build();
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
