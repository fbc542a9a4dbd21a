package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.assemble.ToolRanker.Ranked;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.assemble.ToolSpec.ToolParameter;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.retrieve.RetrievalMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HybridToolRankerTest {
  private static final MiniLmEmbedder EMBEDDER = new MiniLmEmbedder();

  /** Tools of the MCP reference servers (filesystem, Slack, Google Maps, GitHub; MIT), names and descriptions verbatim. */
  static final List<ToolSpec> TOOLS = List.of(
      tool("read_text_file", "Read the complete contents of a file from the file system as text.", "path"),
      tool("move_file", "Move or rename files and directories.", "source", "destination"),
      tool("create_directory", "Create a new directory or ensure a directory exists.", "path"),
      tool("slack_post_message", "Post a new message to a Slack channel", "channel_id", "text"),
      tool("slack_get_channel_history", "Get recent messages from a channel", "channel_id", "limit"),
      tool("maps_geocode", "Convert an address into geographic coordinates", "address"),
      tool("maps_directions", "Get directions between two points", "origin", "destination", "mode"),
      tool("create_issue", "Create a new issue in a GitHub repository", "owner", "repo", "title", "body"),
      tool("merge_pull_request", "Merge a pull request", "owner", "repo", "pull_number", "merge_method"),
      tool("list_commits", "Get list of commits of a branch in a GitHub repository", "owner", "repo", "sha"));

  private static ToolSpec tool(String name, String description, String... params) {
    List<ToolParameter> ps = new ArrayList<>();
    for (String p : params) ps.add(new ToolParameter(p, ""));
    return new ToolSpec(name, description, ps, "{\"type\":\"function\",\"function\":{\"name\":\"" + name + "\"}}", false);
  }

  private static String first(List<Ranked> ranked) {
    return ranked.get(0).tool().name();
  }

  @Test
  void ranksTheRelevantToolFirstInEnglish() throws Exception {
    HybridToolRanker ranker = new HybridToolRanker(EMBEDDER);
    assertThat(first(ranker.rank("Rename notes.txt to notes-2024.txt", TOOLS))).isEqualTo("move_file");
    assertThat(first(ranker.rank("Post 'deploy finished' in the #ops Slack channel", TOOLS))).isEqualTo("slack_post_message");
    assertThat(first(ranker.rank("Open a bug report in octo/webapp: login crashes on Safari", TOOLS))).isEqualTo("create_issue");
  }

  @Test
  void ranksTheRelevantToolFirstInPortuguese() throws Exception {
    HybridToolRanker ranker = new HybridToolRanker(EMBEDDER);
    assertThat(first(ranker.rank("Faça o merge do pull request 17", TOOLS))).isEqualTo("merge_pull_request");
    assertThat(first(ranker.rank("Mande uma mensagem no canal #ops do Slack", TOOLS))).isEqualTo("slack_post_message");
    assertThat(first(ranker.rank("Quais são as coordenadas da Avenida Paulista, 1000, São Paulo?", TOOLS))).isEqualTo("maps_geocode");
  }

  /** Short English descriptions are not detected as English; they must not land where "a" or "do" match. */
  @Test
  void stopWordsOfARequestMatchNoTool() throws Exception {
    HybridToolRanker bm25 = new HybridToolRanker(null);
    assertThat(bm25.rank("Como chego de carro do Porto a Lisboa?", TOOLS)).allSatisfy(r -> assertThat(r.score()).isZero());
    assertThat(bm25.rank("Get a list of the things", TOOLS)).extracting(r -> r.tool().name()).first().isEqualTo("list_commits");
  }

  @Test
  void everyToolOnceAndTheSameRankingEveryTime() throws Exception {
    for (RetrievalMode mode : RetrievalMode.values()) {
      HybridToolRanker ranker = new HybridToolRanker(EMBEDDER, mode, 60, 4);
      List<Ranked> a = ranker.rank("list the commits of the main branch", TOOLS);
      assertThat(a).extracting(Ranked::tool).containsExactlyInAnyOrderElementsOf(TOOLS);
      HybridToolRanker other = new HybridToolRanker(EMBEDDER, mode, 60, 4);
      assertThat(other.rank("list the commits of the main branch", TOOLS)).isEqualTo(a);
      assertThat(ranker.rank("list the commits of the main branch", TOOLS)).isEqualTo(a);
      for (int i = 1; i < a.size(); i++) assertThat(a.get(i).score()).isLessThanOrEqualTo(a.get(i - 1).score());
    }
  }

  @Test
  void tiesKeepTheInputOrder() throws Exception {
    ToolSpec x = tool("alpha_one", "Send a fax", "number");
    ToolSpec y = tool("beta_two", "Send a fax", "number");
    ToolSpec z = tool("gamma_three", "Print a page", "page");
    HybridToolRanker bm25 = new HybridToolRanker(null);
    // BM25 scores x and y equally (same text but the name); nothing reaches z, which comes last
    assertThat(bm25.rank("send fax", List.of(y, z, x))).extracting(r -> r.tool().name())
        .containsExactly("beta_two", "alpha_one", "gamma_three");
    assertThat(bm25.rank("send fax", List.of(x, z, y))).extracting(r -> r.tool().name())
        .containsExactly("alpha_one", "beta_two", "gamma_three");
    // a query with no searchable term keeps the input order
    assertThat(bm25.rank("the", List.of(z, y, x))).extracting(Ranked::tool).containsExactly(z, y, x);
    assertThat(bm25.rank(" ", List.of(z, y, x))).extracting(Ranked::tool).containsExactly(z, y, x);
  }

  @Test
  void theSameToolsAreIndexedOnce() throws Exception {
    HybridToolRanker ranker = new HybridToolRanker(EMBEDDER, RetrievalMode.HYBRID, 60, 2);
    ranker.rank("rename a file", TOOLS);
    assertThat(ranker.builds()).isEqualTo(1);
    // same content in new instances: reused
    List<ToolSpec> copies = TOOLS.stream().map(t -> new ToolSpec(t.name(), t.description(), t.parameters(), t.schemaJson(), true)).toList();
    List<Ranked> ranked = ranker.rank("send a slack message", copies);
    assertThat(ranker.builds()).isEqualTo(1);
    assertThat(ranked.get(0).tool()).isSameAs(copies.get(3)); // the caller's instances come back
    // another tool set is a new build; the first is still cached
    List<ToolSpec> fewer = TOOLS.subList(0, 5);
    ranker.rank("rename a file", fewer);
    assertThat(ranker.builds()).isEqualTo(2);
    ranker.rank("rename a file", TOOLS);
    assertThat(ranker.builds()).isEqualTo(2);
    // a third set evicts the least recently used (fewer), which is rebuilt when it comes back
    ranker.rank("rename a file", TOOLS.subList(5, 10));
    ranker.rank("rename a file", fewer);
    assertThat(ranker.builds()).isEqualTo(4);
    // a changed description is a different tool set
    List<ToolSpec> edited = new ArrayList<>(TOOLS);
    edited.set(0, tool("read_text_file", "Read a file as text.", "path"));
    ranker.rank("rename a file", edited);
    assertThat(ranker.builds()).isEqualTo(5);
  }

  @Test
  void concurrentRequestsWithANewToolSetShareOneBuild() throws Exception {
    HybridToolRanker ranker = new HybridToolRanker(EMBEDDER);
    int threads = 8;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<List<Ranked>>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(pool.submit(() -> {
          start.await();
          return ranker.rank("merge the pull request", TOOLS);
        }));
      }
      start.countDown();
      List<Ranked> first = futures.get(0).get();
      for (var f : futures) assertThat(f.get()).isEqualTo(first);
      assertThat(ranker.builds()).isEqualTo(1);
      assertThat(first.get(0).tool().name()).isEqualTo("merge_pull_request");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void badSettingsAreRefusedByName() {
    assertThatThrownBy(() -> new HybridToolRanker(null, RetrievalMode.DENSE, 60, 4)).hasMessageContaining("needs an embedder");
    assertThatThrownBy(() -> new HybridToolRanker(EMBEDDER, RetrievalMode.HYBRID, 0, 4)).hasMessage("rrfK must be >= 1, was 0");
    assertThatThrownBy(() -> new HybridToolRanker(EMBEDDER, RetrievalMode.HYBRID, 60, 0)).hasMessage("cacheSize must be >= 1, was 0");
  }

  @Test
  void identifiersAreSplitIntoWords() {
    assertThat(ToolTexts.words("repos/list-for-authenticated-user")).isEqualTo("repos list for authenticated user");
    assertThat(ToolTexts.words("getHTTPResponse_code")).isEqualTo("get HTTP Response code");
    assertThat(ToolTexts.words("slack_get_user_profile")).isEqualTo("slack get user profile");
    assertThat(ToolTexts.words("v2Search")).isEqualTo("v 2 Search");
  }
}
