package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ingest with the real default embedder (all-MiniLM-L6-v2, ONNX) and search by meaning. */
class HybridEndToEndTest {
  @TempDir Path dir;

  @Test
  void denseAndHybridFindAParaphraseWithNoSharedWords() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("c"));
    Files.writeString(corpus.resolve("docs.jsonl"), """
        {"_id": "car", "text": "The automobile would not start because its battery was completely drained."}
        {"_id": "cake", "text": "Preheat the oven and whisk eggs with sugar before folding in the flour."}
        {"_id": "rain", "text": "Heavy rainfall flooded several streets in the city centre overnight."}
        """);
    String index = dir.resolve("idx").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    assertThat(in.json().get("added").asInt()).isEqualTo(3);

    JsonNode dense = CliRunner.run("search", "--index", index, "--format", "json", "--mode", "dense", "-k", "3",
        "-q", "my vehicle has a dead power cell").json();
    JsonNode top = dense.get("results").get(0);
    assertThat(top.get("docId").asText()).isEqualTo("car");
    assertThat(top.get("scores").get("dense").asDouble()).isBetween(0.2, 1.0);

    JsonNode hybrid = CliRunner.run("search", "--index", index, "--format", "json", "-k", "3",
        "-q", "my vehicle has a dead power cell").json();
    JsonNode h = hybrid.get("results").get(0);
    assertThat(h.get("docId").asText()).isEqualTo("car");
    assertThat(h.get("scores").has("fused")).isTrue();

    CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "why did the car not start?",
        "--budget", "400");
    assertThat(pack.code()).as(pack.err()).isZero();
    assertThat(pack.json().get("sources").get(0).get("docId").asText()).isEqualTo("car");
    assertThat(pack.json().get("trace").toString()).contains("fusion=rrf(k=60)");

    CliRunner weighted = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "why did the car not start?",
        "--budget", "400", "--fusion", "weighted", "--weights", "0.3,0.7");
    assertThat(weighted.json().get("sources").get(0).get("docId").asText()).isEqualTo("car");
    assertThat(weighted.json().get("trace").toString()).contains("fusion=weighted([0.3, 0.7], min-max)");
    CliRunner badWeights = CliRunner.run("search", "--index", index, "-q", "x", "--weights", "1");
    assertThat(badWeights.code()).isEqualTo(2);
    assertThat(badWeights.err()).contains("--weights");
  }

  @Test
  void anIndexRefusesQueriesFromAnotherEmbedder() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("c"));
    Files.writeString(corpus.resolve("a.txt"), "Some text to embed.");
    String index = dir.resolve("idx").toString();
    assertThat(CliRunner.run("ingest", "--index", index, corpus.toString()).code()).isZero();
    // The same network loaded from a user-given path is another embedder as far as the index knows.
    Path models = Files.createDirectories(dir.resolve("model"));
    ClassLoader cl = HybridEndToEndTest.class.getClassLoader();
    try (var m = cl.getResourceAsStream("all-minilm-l6-v2-q.onnx");
        var t = cl.getResourceAsStream("all-minilm-l6-v2-q-tokenizer.json")) {
      Files.copy(m, models.resolve("model.onnx"));
      Files.copy(t, models.resolve("tokenizer.json"));
    }
    CliRunner r = CliRunner.run("search", "--index", index, "-q", "text", "--embedder",
        "onnx:" + models.resolve("model.onnx"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("all-minilm-l6-v2-q").contains("onnx:model.onnx:mean");
    // Without the vectors' embedder, an unknown spec is a usage error naming the accepted forms.
    CliRunner bad = CliRunner.run("search", "--index", index, "-q", "text", "--embedder", "word2vec");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("unknown embedder spec 'word2vec'");
  }

  @Test
  void aPortugueseQueryDoesNotUseTheEnglishOnlyEmbedderInHybrid() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("c"));
    Files.writeString(corpus.resolve("docs.jsonl"), """
        {"_id": "mat", "text": "A renovação de matrícula ocorre semestralmente, conforme o calendário acadêmico."}
        {"_id": "car", "text": "The automobile would not start because its battery was completely drained."}
        """);
    String index = dir.resolve("idx").toString();
    assertThat(CliRunner.run("ingest", "--index", index, corpus.toString()).code()).isZero();
    JsonNode pt = CliRunner.run("pack", "--index", index, "--format", "json", "-q",
        "Quando ocorre a renovação de matrícula?", "--budget", "400").json();
    assertThat(pt.get("trace").toString()).contains("embedder-language").contains("ran as bm25");
    assertThat(pt.get("sources")).hasSize(1);
    assertThat(pt.get("sources").get(0).get("docId").asText()).isEqualTo("mat");
    JsonNode en = CliRunner.run("pack", "--index", index, "--format", "json", "-q",
        "why did the car not start?", "--budget", "400").json();
    assertThat(en.get("trace").toString()).doesNotContain("embedder-language").contains("fusion=rrf");
    // An explicit dense request still runs dense.
    JsonNode dense = CliRunner.run("search", "--index", index, "--format", "json", "--mode", "dense", "-q",
        "Quando ocorre a renovação de matrícula?").json();
    assertThat(dense.get("results").get(0).get("scores").has("dense")).isTrue();
  }
}
