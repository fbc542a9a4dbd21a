package dev.ctxpack.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Stage;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Query;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The public face: {@code builder().evidenceTokens(N).build()}, no index, no model. */
class CtxpackContentAggregatorTest {
  static final String QUESTION = "How much of the fresh surface water on Earth does Lake Baikal hold, and how many seal pups"
      + " did the Baikal station count?";
  static final String FACT = "Lake Baikal in Siberia holds about one fifth of the fresh surface water on Earth.";
  static final String PUPS_42 = "The Baikal research station counted 42 seal pups on the lake ice this spring.";
  static final String PUPS_57 = "The Baikal research station counted 57 seal pups on the lake ice this spring.";
  static final int BUDGET = 600;

  private final CtxpackTokenCountEstimator tokens = new CtxpackTokenCountEstimator();

  static Content content(String text, String... keyValues) {
    Metadata md = new Metadata();
    for (int i = 0; i < keyValues.length; i += 2) md.put(keyValues[i], keyValues[i + 1]);
    return Content.from(TextSegment.from(text, md));
  }

  static List<Content> filler(String retriever, int n) {
    List<Content> out = new ArrayList<>();
    String[] topics = {"volcanic soil", "medieval trade routes", "sourdough starters", "tidal energy", "bird migration",
        "glass blowing", "railway gauges", "coral bleaching", "ancient calendars", "paper folding"};
    for (int i = 0; i < n; i++) {
      String t = topics[i % topics.length];
      out.add(content("Report " + retriever + i + " on " + t + ": the committee reviewed " + t + " over several sessions, "
          + "heard witnesses from " + (i + 3) + " regions, compared archival notes with field surveys, and agreed to "
          + "publish a longer summary of " + t + " once the remaining measurements arrive from the partner groups.",
          "source", retriever));
    }
    return out;
  }

  static Map<Query, Collection<List<Content>>> retrieved() {
    List<Content> a = new ArrayList<>(List.of(content(FACT, "source", "wiki", "file_name", "baikal.txt"), content(PUPS_42, "source", "wiki")));
    a.addAll(filler("a", 20));
    List<Content> b = new ArrayList<>(List.of(content(FACT, "source", "kb", "url", "https://kb.example/baikal"), content(PUPS_57, "source", "kb")));
    b.addAll(filler("b", 20));
    return Map.of(Query.from(QUESTION), List.of(a, b));
  }

  @Test
  void theFactOnceBothNumbersAndNoMoreThanTheBudget() {
    int filler = 0;
    for (List<Content> l : retrieved().values().iterator().next()) for (Content c : l) filler += tokens.estimateTokenCountInText(c.textSegment().text());
    assertThat(filler).as("the retrieved text is more than the budget holds").isGreaterThan(3 * BUDGET);

    List<Content> packed = CtxpackContentAggregator.builder().evidenceTokens(BUDGET).build().aggregate(retrieved());

    List<String> texts = packed.stream().map(c -> c.textSegment().text()).toList();
    assertThat(texts.stream().filter(t -> t.contains("one fifth of the fresh surface water"))).hasSize(1);
    assertThat(texts).anyMatch(t -> t.contains("42 seal pups")).anyMatch(t -> t.contains("57 seal pups"));
    assertThat(texts.stream().filter(t -> t.contains("seal pups"))).hasSize(2);
    int used = texts.stream().mapToInt(tokens::estimateTokenCountInText).sum();
    assertThat(used).isLessThanOrEqualTo(BUDGET);

    PackedContent fact = (PackedContent) packed.stream().filter(c -> c.textSegment().text().contains("one fifth")).findFirst().orElseThrow();
    assertThat(fact.origins()).extracting(o -> o.textSegment().metadata().getString("source")).containsExactlyInAnyOrder("wiki", "kb");
    assertThat(fact.textSegment().metadata().getString(CtxpackMetadata.CHUNKS).split(",")).hasSize(2);
    assertThat(fact.textSegment().metadata().getString(CtxpackMetadata.LABEL)).matches("S\\d+");
  }

  @Test
  void theTraceSaysWhatWasMergedAndDroppedAndTheListenerGetsIt() {
    List<PackedEvidence> seen = new ArrayList<>();
    CtxpackContentAggregator aggregator = CtxpackContentAggregator.builder().evidenceTokens(BUDGET).listener(seen::add).build();
    PackedEvidence e = aggregator.pack(retrieved());
    assertThat(e.merged()).anyMatch(d -> d.rule().startsWith("exact"));
    assertThat(e.dropped()).isNotEmpty();
    assertThat(e.pack().budget().used()).isLessThanOrEqualTo(BUDGET);
    assertThat(seen).containsExactly(e);
    assertThat(PackedEvidence.of(e.contents())).containsSame(e);
  }

  @Test
  void sameInputSameOutput() {
    CtxpackContentAggregator aggregator = CtxpackContentAggregator.builder().evidenceTokens(BUDGET).build();
    assertThat(aggregator.pack(retrieved()).prompt()).isEqualTo(aggregator.pack(retrieved()).prompt());
  }

  @Test
  void theInjectorSendsWhatTheAggregatorPackedAndPacksRawContentsItself() {
    CtxpackContentAggregator aggregator = CtxpackContentAggregator.builder().evidenceTokens(BUDGET).build();
    PackedEvidence e = aggregator.pack(retrieved());
    CtxpackContentInjector injector = CtxpackContentInjector.builder().evidenceTokens(BUDGET).build();
    UserMessage injected = (UserMessage) injector.inject(e.contents(), UserMessage.from(QUESTION));
    assertThat(injected.singleText()).isEqualTo(e.prompt());

    List<Content> raw = new ArrayList<>();
    for (List<Content> l : retrieved().values().iterator().next()) raw.addAll(l);
    UserMessage alone = (UserMessage) injector.inject(raw, UserMessage.from(QUESTION));
    assertThat(alone.singleText()).contains("<source", "[S1]", "QUESTION\n" + QUESTION);
    assertThat(tokens.estimateTokenCountInText(alone.singleText())).isLessThanOrEqualTo(BUDGET);
    assertThat(alone.singleText().split("one fifth of the fresh surface water", -1)).hasSize(2);
    assertThat(PromptSources.sources(alone.singleText())).isNotEmpty();
    assertThat(PromptSources.question(alone.singleText())).isEqualTo(QUESTION);

    assertThat(injector.inject(List.of(), UserMessage.from(QUESTION))).isEqualTo(UserMessage.from(QUESTION));
  }

  @Test
  void offsetsInferredFromOverlappingTextStitchOnlyWhenAskedFor() {
    String doc = "Baikal is the deepest lake in the world, reaching 1,642 metres. Its water is famously clear in winter. "
        + "The lake freezes from January to May, and the ice can hold trucks. Scientists drill through the ice to sample.";
    String w1 = doc.substring(0, 120);
    String w2 = doc.substring(80);
    Map<Query, Collection<List<Content>>> in = Map.of(Query.from("How deep is Baikal and when does it freeze?"),
        List.of(List.of(content(w1, "file_name", "baikal.md", "index", "0"), content(w2, "file_name", "baikal.md", "index", "1"))));
    PackedEvidence stitched = CtxpackContentAggregator.builder().evidenceTokens(2000).options(
        dev.ctxpack.pack.PackOptions.builder().compress(false).build()).inferOffsets(true).build().pack(in);
    assertThat(stitched.merged()).anyMatch(d -> d.rule().startsWith("overlap:same-document-offsets"));
    assertThat(stitched.contents()).hasSize(1);
    assertThat(stitched.contents().get(0).textSegment().text()).isEqualTo(doc);

    PackedEvidence apart = CtxpackContentAggregator.builder().evidenceTokens(2000).options(
        dev.ctxpack.pack.PackOptions.builder().compress(false).build()).build().pack(in);
    assertThat(apart.merged()).noneMatch(d -> d.rule().startsWith("overlap:same-document-offsets"));
  }

  @Test
  void badOptionsNameTheValue() {
    assertThatThrownBy(() -> CtxpackContentAggregator.builder().evidenceTokens(0)).hasMessageContaining("evidenceTokens");
    assertThatThrownBy(() -> CtxpackContentAggregator.builder().contextWindow(1000).reserve(1000).build())
        .hasMessageContaining("reserve 1000");
    assertThatThrownBy(() -> CtxpackContentInjector.builder().reserve(-1)).hasMessageContaining("reserve");
    assertThatThrownBy(() -> CtxpackCitationGuardrail.builder().maxInvented(-1)).hasMessageContaining("maxInvented");
    assertThatThrownBy(() -> CtxpackContentRetriever.builder().build()).hasMessageContaining("index is required");
  }

  @Test
  void theEstimatorCountsAsCtxpacksTokenizer() {
    String s = "Lake Baikal holds about one fifth of the fresh surface water on Earth.";
    assertThat(tokens.estimateTokenCountInText(s)).isEqualTo(dev.ctxpack.token.Tokenizers.defaultTokenizer().count(s));
    assertThat(tokens.estimateTokenCountInMessages(List.of(UserMessage.from(s))))
        .isEqualTo(tokens.estimateTokenCountInText(s) + CtxpackTokenCountEstimator.MESSAGE_OVERHEAD + CtxpackTokenCountEstimator.REPLY_PRIMING);
  }
}
