package dev.ctxpack.bench.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.assemble.ToolRanker;
import dev.ctxpack.assemble.ToolSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ToolCataloguesTest {
  @Test
  void theBundledSchemasAndRequestsLoadAndAgree() {
    Map<String, List<ToolSpec>> catalogues = ToolCatalogues.catalogues();
    assertThat(catalogues.get("mcp")).hasSize(86);
    assertThat(catalogues.get("github")).hasSize(114);
    for (List<ToolSpec> tools : catalogues.values()) {
      assertThat(tools.stream().map(ToolSpec::name).distinct()).hasSameSizeAs(tools);
      assertThat(tools).allSatisfy(t -> assertThat(t.name()).matches("[A-Za-z0-9_-]{1,64}"));
    }
    List<ToolCatalogues.Request> requests = ToolCatalogues.requests(catalogues); // fails on a label naming no tool
    Map<String, Long> byLang = requests.stream().collect(Collectors.groupingBy(ToolCatalogues.Request::lang, Collectors.counting()));
    assertThat(byLang).containsEntry("en", 92L).containsEntry("pt", 50L);
    assertThat(requests.stream().map(ToolCatalogues.Request::id).distinct()).hasSize(requests.size());
  }

  @Test
  void nameMatchCountsSharedNameWords() {
    List<ToolSpec> tools = List.of(
        new ToolSpec("slack_post_message", "", List.of(), "{}", false),
        new ToolSpec("listCommits", "", List.of(), "{}", false),
        new ToolSpec("list_issues", "", List.of(), "{}", false));
    assertThat(new NameMatchRanker().rank("list the commits", tools)).extracting(ToolRanker.Ranked::score)
        .containsExactly(2.0, 1.0, 0.0);
    assertThat(new NameMatchRanker().rank("list the commits", tools).get(1).tool().name()).isEqualTo("list_issues");
  }
}
