package dev.ctxpack.examples.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.token.Tokenizers;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Boots the example as {@code main} does, against a loopback OpenAI-compatible server (the only
 * double: it answers with the first source's first sentence and its label) over a real ctxpack index
 * of a slice of the sample corpus.
 */
class RagApplicationTest {
  @TempDir Path dir;

  @Test
  void answersWithVerifiedCitationsFromTheIndex() throws Exception {
    Path corpus = dir.resolve("sample.jsonl");
    try (InputStream in = getClass().getResourceAsStream("/dev/ctxpack/app/samples/scifact-sample.jsonl")) {
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Files.writeString(corpus, String.join("\n", all.lines().limit(16).toList()) + "\n");
    }
    Path index = dir.resolve("index");
    try (Index i = Indexes.open(IndexSpec.ofPath(index))) {
      new Ingestor(i, Loaders.defaults(), IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), null),
          null).ingest(List.of(corpus));
    }
    List<String> prompts = Collections.synchronizedList(new ArrayList<>());
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ex -> {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      prompts.add(body);
      Matcher m = Pattern.compile("id=\\\\\"(S\\d+)\\\\\"[^>]*>\\\\n([^.]+\\.)").matcher(body);
      String answer = m.find() ? m.group(2) + " [" + m.group(1) + "]" : "The sources do not contain the answer.";
      byte[] out = ("{\"id\":\"x\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"loopback\",\"choices\":[{\"index\":0,"
          + "\"message\":{\"role\":\"assistant\",\"content\":\"" + answer.replace("\\", "\\\\").replace("\"", "\\\"")
          + "\"},\"finish_reason\":\"stop\"}]}").getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, out.length);
      ex.getResponseBody().write(out);
      ex.close();
    });
    server.start();
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      SpringApplication app = new SpringApplication(RagApplication.class);
      try (ConfigurableApplicationContext ctx = app.run(
          "--spring.ai.openai.base-url=http://127.0.0.1:" + server.getAddress().getPort(),
          "--spring.ai.openai.api-key=test", "--ctxpack.index=lucene:" + index,
          "Does metformin reverse established lung fibrosis in a bleomycin model?",
          "What does ADAR1 form a complex with?")) {
        assertThat(ctx.isActive()).isTrue();
      }
    } finally {
      System.setOut(stdout);
      server.stop(0);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    assertThat(prompts).hasSize(2);
    assertThat(prompts.get(0)).contains("SOURCES").contains("<source-");
    assertThat(prompts.get(1)).as("the second turn carries the first from memory").contains("metformin");
    assertThat(out).contains("A: ").containsPattern("\\[S\\d+\\]").contains("citations: verified, invalid []")
        .contains("window: ");
  }
}
