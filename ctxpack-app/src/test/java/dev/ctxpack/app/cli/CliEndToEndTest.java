package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI end to end on a real Lucene index, BM25 only (the embedder has its own tests). */
class CliEndToEndTest {
  @TempDir Path dir;
  Path corpus;
  String index;

  @BeforeEach
  void corpus() throws Exception {
    corpus = Files.createDirectories(dir.resolve("corpus"));
    index = dir.resolve("idx").toString();
    Files.writeString(corpus.resolve("coffee.txt"),
        "Coffee is a brewed drink prepared from roasted coffee beans. It is one of the most popular drinks in the world. "
            + "Caffeine in coffee acts as a stimulant of the central nervous system.");
    Files.writeString(corpus.resolve("guia.md"), """
        # Guia de matrícula

        ## Renovação
        A renovação de matrícula ocorre semestralmente, no período previsto no calendário acadêmico.
        O estudante que não renovar a matrícula perde o vínculo com a universidade.
        """);
    Files.writeString(corpus.resolve("docs.jsonl"), """
        {"_id": "tea-1", "title": "Tea", "text": "Tea is an aromatic beverage prepared by pouring hot water over cured leaves.", "metadata": {"date": "2025-10-01"}}
        {"_id": "tea-2", "title": "Tea copy", "text": "Tea is an aromatic beverage prepared by pouring hot water over cured leaves."}
        {"_id": "mate", "title": "Mate", "text": "O chimarrão é uma bebida tradicional do sul do Brasil preparada com erva-mate."}
        """);
  }

  private CliRunner ingest(String... extra) {
    List<String> args = new ArrayList<>(List.of("ingest", "--index", index, "--no-embed", "--format", "json"));
    args.addAll(List.of(extra));
    if (extra.length == 0) args.add(corpus.toString());
    return CliRunner.run(args.toArray(String[]::new));
  }

  @Test
  void ingestReportsTheSummaryAndSkipsUnchangedContent() throws Exception {
    CliRunner r = ingest();
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode s = r.json();
    assertThat(s.get("added").asInt()).isEqualTo(5);
    assertThat(s.get("failed")).isEmpty();
    assertThat(s.get("chunks").asInt()).isGreaterThanOrEqualTo(5);
    assertThat(s.has("seconds")).isTrue();

    JsonNode again = ingest().json();
    assertThat(again.get("added").asInt()).isZero();
    assertThat(again.get("unchanged").asInt()).isEqualTo(5);

    Files.writeString(corpus.resolve("coffee.txt"), "Coffee is now described differently. Espresso is concentrated coffee.");
    JsonNode changed = ingest().json();
    assertThat(changed.get("updated").asInt()).isEqualTo(1);
    assertThat(changed.get("unchanged").asInt()).isEqualTo(4);
    JsonNode hits = CliRunner.run("search", "--index", index, "--format", "json", "-q", "roasted beans", "--mode", "bm25").json();
    assertThat(hits.get("results").toString()).doesNotContain("roasted");

    Files.delete(corpus.resolve("guia.md"));
    JsonNode synced = ingest("--sync", corpus.toString()).json();
    assertThat(synced.get("removed").asInt()).isEqualTo(1);
    assertThat(CliRunner.run("search", "--index", index, "--format", "json", "-q", "renovação matrícula", "--mode", "bm25")
        .json().get("results")).isEmpty();
  }

  @Test
  void syncRemovesDocumentsAJsonlFileNoLongerHolds() throws Exception {
    ingest();
    Files.writeString(corpus.resolve("docs.jsonl"), """
        {"_id": "tea-1", "title": "Tea", "text": "Tea is an aromatic beverage prepared by pouring hot water over cured leaves.", "metadata": {"date": "2025-10-01"}}
        {"_id": "mate", "title": "Mate", "text": "O chimarrão é uma bebida tradicional do sul do Brasil preparada com erva-mate."}
        """);
    JsonNode without = ingest().json();
    assertThat(without.get("removed").asInt()).isZero();
    assertThat(without.get("unchanged").asInt()).isEqualTo(4);
    JsonNode synced = ingest("--sync", corpus.toString()).json();
    assertThat(synced.get("removed").asInt()).isEqualTo(1);
    CliRunner gone = CliRunner.run("remove", "--index", index, "tea-2");
    assertThat(gone.code()).isEqualTo(1);
    assertThat(gone.err()).contains("no document with id 'tea-2'");
  }

  @Test
  void aBadFileIsReportedAndTheOthersAreStillIngested() throws Exception {
    Files.writeString(corpus.resolve("broken.jsonl"), "{\"_id\": \"ok\", \"text\": \"fine line\"}\n{\"_id\": \"x\", \"text\": \n");
    CliRunner r = ingest(corpus.toString(), dir.resolve("missing.txt").toString());
    assertThat(r.code()).isEqualTo(1);
    JsonNode s = r.json();
    assertThat(s.get("added").asInt()).isEqualTo(5);
    assertThat(s.get("failed").toString()).contains("broken.jsonl:2:").contains("missing.txt").contains("no such file");
    assertThat(r.err()).contains("broken.jsonl:2:");
    // Nothing of the broken file was written, not even its valid first line.
    JsonNode hits = CliRunner.run("search", "--index", index, "--format", "json", "-q", "fine line", "--mode", "bm25").json();
    assertThat(hits.get("results").toString()).doesNotContain("\"docId\":\"ok\"");
  }

  @Test
  void searchReturnsTheApiShapeWithScoresPerSignal() {
    ingest();
    JsonNode r = CliRunner.run("search", "--index", index, "--format", "json", "-q", "What is the stimulant in coffee?", "-k", "3").json();
    JsonNode first = r.get("results").get(0);
    assertThat(first.get("rank").asInt()).isEqualTo(1);
    assertThat(first.get("text").asText()).contains("Caffeine");
    assertThat(first.get("scores").has("bm25")).isTrue();
    assertThat(first.get("end").asInt()).isGreaterThan(first.get("start").asInt());
    assertThat(r.get("results").size()).isLessThanOrEqualTo(3);
  }

  @Test
  void searchCanRerankWithTheLearnedReranker() {
    ingest();
    JsonNode r = CliRunner.run("search", "--index", index, "--format", "json", "-q", "What is the stimulant in coffee?",
        "-k", "2", "--reranker", "features").json();
    JsonNode plain = CliRunner.run("search", "--index", index, "--format", "json", "-q", "What is the stimulant in coffee?",
        "-k", "2").json();
    assertThat(r.get("results").size()).isEqualTo(plain.get("results").size()).isPositive();
    JsonNode top = r.get("results").get(0);
    assertThat(top.get("docId").asText()).isNotEmpty();
    assertThat(top.get("text").asText()).contains("Caffeine");
    assertThat(top.get("scores").has("rerank")).isTrue();
    assertThat(top.get("score").asDouble()).isEqualTo(top.get("scores").get("rerank").asDouble());
    CliRunner bad = CliRunner.run("search", "--index", index, "-q", "x", "--reranker", "magic");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--reranker");
  }

  @Test
  void packRendersCitableSourcesWithinTheBudgetAndMergesExactDuplicates() {
    ingest();
    CliRunner r = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "How is tea prepared?", "--budget", "600");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode p = r.json();
    JsonNode budget = p.get("budget");
    assertThat(budget.get("used").asInt()).isLessThanOrEqualTo(budget.get("limit").asInt()).isPositive();
    JsonNode by = budget.get("byComponent");
    assertThat(by.get("instructions").asInt() + by.get("sources").asInt() + by.get("query").asInt())
        .isEqualTo(budget.get("used").asInt());
    String prompt = p.get("prompt").asText();
    assertThat(prompt).containsPattern("<source-[0-9a-f]{12} id=\"S1\"").contains("[S1]").contains("QUESTION").endsWith("How is tea prepared?\n");
    // tea-1 and tea-2 are the same text: one source citing both documents.
    JsonNode tea = null;
    for (JsonNode s : p.get("sources")) if (s.get("text").asText().startsWith("Tea is")) tea = s;
    assertThat(tea).isNotNull();
    assertThat(tea.get("spans").toString()).contains("tea-1").contains("tea-2");
    assertThat(p.get("trace").toString()).contains("\"stage\":\"dedup\"").contains("exact:");
    assertThat(p.get("plan").get(0).get("sees").size()).isEqualTo(p.get("sources").size());
    for (JsonNode s : p.get("sources")) assertThat(prompt).contains("id=\"" + s.get("id").asText() + "\"");
  }

  @Test
  void aPortugueseQuestionGetsThePortugueseTemplate() {
    ingest();
    CliRunner r = CliRunner.run("pack", "--index", index, "-q", "Quando ocorre a renovação de matrícula?", "--preset", "low");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("FONTES").contains("PERGUNTA").contains("As fontes não contêm a resposta.")
        .contains("semestralmente");
    assertThat(r.err()).contains("budget:");
  }

  @Test
  void packIsDeterministic() {
    ingest();
    String a = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "coffee and tea drinks").out();
    String b = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "coffee and tea drinks").out();
    assertThat(a).isEqualTo(b);
  }

  @Test
  void packNeverExceedsTheBudget() {
    ingest();
    for (int budget : new int[] {160, 200, 230, 260, 300, 350, 420, 512, 800}) {
      CliRunner r = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "coffee tea mate bebida", "--budget",
          Integer.toString(budget));
      if (r.code() == 2) {
        assertThat(r.err()).contains("too small");
        continue;
      }
      JsonNode b = r.json().get("budget");
      assertThat(b.get("used").asInt()).as("budget " + budget).isLessThanOrEqualTo(budget);
      assertThat(b.get("limit").asInt()).isEqualTo(budget);
    }
  }

  @Test
  void aModelProfileCapsTheBudgetAndBringsItsTokenizer() {
    ingest();
    JsonNode p = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "coffee", "--budget", "100000",
        "--model", "gpt-4").json();
    assertThat(p.get("budget").get("limit").asInt()).isEqualTo(8192 - 1000);
    assertThat(p.get("budget").get("reserve").asInt()).isEqualTo(1000);
    assertThat(p.get("trace").get(0).get("reason").asText()).contains("tokenizer=cl100k_base").contains("model=gpt-4");
    JsonNode c = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "coffee", "--budget", "500000",
        "--model", "claude-sonnet-4", "--reserve", "8000").json();
    assertThat(c.get("budget").get("limit").asInt()).isEqualTo((int) Math.floor(200_000 * 0.8) - 8000);
  }

  @Test
  void badInputGetsOneClearLineAndTheRightExitCode() {
    ingest();
    CliRunner empty = CliRunner.run("pack", "--index", index, "-q", "  ");
    assertThat(empty.code()).isEqualTo(2);
    assertThat(empty.err().strip()).isEqualTo("error: --query must not be empty");

    CliRunner small = CliRunner.run("pack", "--index", index, "-q", "coffee", "--budget", "20");
    assertThat(small.code()).isEqualTo(2);
    assertThat(small.err()).contains("budget of 20 tokens is too small");

    CliRunner noIndex = CliRunner.run("search", "--index", dir.resolve("none").toString(), "-q", "x");
    assertThat(noIndex.code()).isEqualTo(1);
    assertThat(noIndex.err()).contains("no index at").contains("none");

    CliRunner badOpt = CliRunner.run("pack", "--index", index, "-q", "x", "--preset", "huge");
    assertThat(badOpt.code()).isEqualTo(2);
    assertThat(badOpt.err()).contains("unknown preset 'huge'");

    CliRunner negative = CliRunner.run("pack", "--index", index, "-q", "x", "--budget", "-5");
    assertThat(negative.code()).isEqualTo(2);

    CliRunner unknownCmd = CliRunner.run("frobnicate");
    assertThat(unknownCmd.code()).isEqualTo(2);

    CliRunner badModel = CliRunner.run("pack", "--index", index, "-q", "x", "--model", "gpt-9");
    assertThat(badModel.code()).isEqualTo(2);
    assertThat(badModel.err()).contains("unknown model 'gpt-9'");
  }

  @Test
  void batchModeAnswersEveryLineAndReportsBadOnesByNumber() throws Exception {
    ingest();
    Path batch = dir.resolve("q.jsonl");
    Files.writeString(batch, """
        {"id": "q1", "query": "coffee tea", "k": 2}
        not json

        {"id": "q3", "query": ""}
        {"id": "q4", "query": "chimarrão", "mode": "bm25"}
        """);
    CliRunner r = CliRunner.run("search", "--index", index, "--batch", batch.toString());
    assertThat(r.code()).isEqualTo(1);
    List<JsonNode> lines = r.jsonLines();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0).get("id").asText()).isEqualTo("q1");
    assertThat(lines.get(0).get("results").size()).isEqualTo(2);
    assertThat(lines.get(1).get("line").asInt()).isEqualTo(2);
    assertThat(lines.get(1).get("error").asText()).contains("invalid JSON");
    assertThat(lines.get(2).get("line").asInt()).isEqualTo(4);
    assertThat(lines.get(3).get("id").asText()).isEqualTo("q4");

    CliRunner packs = CliRunner.runWithStdin("{\"id\": \"a\", \"query\": \"tea\", \"preset\": \"low\"}\n"
        + "{\"id\": \"b\", \"query\": \"tea\", \"budget\": 10}\n", "pack", "--index", index, "--batch", "-");
    List<JsonNode> pl = packs.jsonLines();
    assertThat(pl.get(0).get("budget").get("limit").asInt()).isEqualTo(1000);
    assertThat(pl.get(1).get("error").asText()).contains("too small");
    assertThat(packs.code()).isEqualTo(1);
  }

  @Test
  void chunkShowsOffsetsThatReproduceTheText() throws Exception {
    Path f = corpus.resolve("coffee.txt");
    String text = Files.readString(f);
    CliRunner r = CliRunner.run("chunk", f.toString(), "--chunk-tokens", "16", "--overlap", "0.2");
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> chunks = r.jsonLines();
    assertThat(chunks.size()).isGreaterThan(2);
    for (JsonNode c : chunks) {
      assertThat(text.substring(c.get("start").asInt(), c.get("end").asInt())).isEqualTo(c.get("text").asText());
      assertThat(c.get("tokens").asInt()).isLessThanOrEqualTo(16);
    }
    CliRunner sentences = CliRunner.run("chunk", f.toString(), "--chunker", "sentence");
    assertThat(sentences.jsonLines()).hasSize(3);
    assertThat(CliRunner.run("chunk", corpus.resolve("nope.txt").toString()).code()).isEqualTo(1);
  }

  @Test
  void removeDeletesDocumentsAndNamesUnknownIds() {
    ingest();
    CliRunner r = CliRunner.run("remove", "--index", index, "mate", "no-such-doc");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("removed 1");
    assertThat(r.err()).contains("no-such-doc");
    JsonNode hits = CliRunner.run("search", "--index", index, "--format", "json", "-q", "chimarrão erva-mate", "--mode", "bm25").json();
    assertThat(hits.get("results").toString()).doesNotContain("\"docId\":\"mate\"");
  }
}
