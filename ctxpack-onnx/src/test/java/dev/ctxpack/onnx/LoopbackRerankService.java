package dev.ctxpack.onnx;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A rerank service on a real HTTP server on loopback (the JDK's {@link HttpServer}) for the contract
 * runs of {@link HttpReranker}: it scores each document by how many distinct query words it holds
 * ({@link Candidates#overlap}) and answers in the Cohere shape under {@code /cohere/...} and the TEI
 * shape under {@code /tei/...}, results best first as the services list them, so the client must
 * match scores back by index. Request and answer bodies are those of {@link HttpRerankerTest}.
 */
final class LoopbackRerankService implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads;

  private LoopbackRerankService(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  static LoopbackRerankService start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    server.createContext("/", LoopbackRerankService::handle);
    server.setExecutor(threads);
    server.start();
    return new LoopbackRerankService(server, threads);
  }

  /** The endpoint answering in {@code format}'s shape. */
  String url(HttpReranker.Format format) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + format.name().toLowerCase(java.util.Locale.ROOT)
        + "/v1/rerank";
  }

  private static void handle(HttpExchange ex) throws IOException {
    try (ex) {
      JsonNode body = HttpRerankerTest.JSON.readTree(ex.getRequestBody().readAllBytes());
      double[] scores = HttpRerankerTest.scores(body);
      boolean tei = ex.getRequestURI().getPath().startsWith("/tei/");
      HttpRerankerTest.send(ex, 200, HttpRerankerTest.JSON.writeValueAsString(
          tei ? HttpRerankerTest.teiAnswer(scores) : HttpRerankerTest.cohereAnswer(body, scores)));
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
