package dev.ctxpack.pack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.conflict.Conflict;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.dedup.Deduplication;
import dev.ctxpack.dedup.Deduplicator;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.order.DefaultOrderer;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packer as a composition: a stage is replaced, or a step added as a decorator of a stage, from
 * outside, without touching the orchestrator; the stages it was not given keep their defaults.
 */
// Budgets are filled as before the relevance line (minRelevance 0): these tests are about other stages;
// RelevanceLineTest covers the line.
class ShippedStagesTest {
  static final List<Candidate> CANDIDATES = List.of(
      DefaultContextPackerTest.candidate("c1", "d1", 0,
          "Coffee beans are roasted at about 200 degrees Celsius for ten to fifteen minutes.", 0.9),
      DefaultContextPackerTest.candidate("c2", "d2", 0,
          "A light roast takes about ten minutes and keeps more of the bean's acidity.", 0.8),
      DefaultContextPackerTest.candidate("c3", "d3", 0,
          "Dark roasts are roasted longer, up to twenty minutes, until the oils reach the surface.", 0.7),
      DefaultContextPackerTest.candidate("c4", "d4", 0,
          "Green coffee beans are stored in jute bags in a cool, dry place before roasting.", 0.6));
  static final Retriever FIXED = (q, o, t) -> CANDIDATES;
  static final String QUERY = "How long are coffee beans roasted?";

  /** A step added after dedup: passages of one document are dropped, each with a decision of its own. */
  record BlockDocument(Deduplicator inner, String docId) implements Deduplicator {
    @Override
    public Deduplication dedup(List<Passage> ranked, Tokenizer tokenizer, PassageVectors vectors, Trace trace)
        throws IOException {
      Deduplication d = inner.dedup(ranked, tokenizer, vectors, trace);
      List<Passage> kept = new ArrayList<>();
      for (Passage p : d.passages()) {
        if (p.sources().stream().anyMatch(s -> s.doc().id().equals(docId))) {
          trace.add(Stage.DEDUP, Action.DROP, "blocked-document", List.of(p.id()), "", 0, "document " + docId + " is blocked");
        } else {
          kept.add(p);
        }
      }
      return new Deduplication(kept, d.keptApart());
    }

    @Override
    public String describe() {
      return inner.describe() + ", then without " + docId;
    }
  }

  private static ContextPackage pack(PackStages.Builder b) throws IOException {
    return b.retriever(FIXED).build().pack(QUERY, PackOptions.builder().minRelevance(0).budget(900).build());
  }

  @Test
  void aStepAddedAsADecoratorRunsWithoutEditingTheOrchestrator() throws IOException {
    ContextPackage plain = pack(DefaultContextPacker.builder());
    assertThat(plain.sources()).extracting(Source::docId).contains("d2");
    Deduplicator strict = new BlockDocument(new CascadeDeduplicator(DedupOptions.strict()), "d2");
    ContextPackage blocked = pack(DefaultContextPacker.builder()
        .dedup(new CascadeDeduplicator(DedupOptions.conservative()), strict));
    assertThat(blocked.sources()).extracting(Source::docId).doesNotContain("d2").isNotEmpty();
    assertThat(blocked.trace()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("blocked-document"));
    assertThat(blocked.trace().get(0).reason()).contains("then without d2");
  }

  @Test
  void aReplacedOrdererAndConflictDetectorAreTheOnesUsed() throws IOException {
    ContextPackage plain = pack(DefaultContextPacker.builder());
    ContextPackage reversed = pack(DefaultContextPacker.builder()
        .orderer((selected, mode, trace) -> {
          List<Passage> out = new ArrayList<>(new DefaultOrderer().order(selected, OrderMode.SCORE, trace));
          Collections.reverse(out);
          return out;
        })
        .conflicts((passages, keptApart, withValues) -> passages.size() < 2 ? List.of()
            : List.of(new Conflict("number", passages.get(0).id(), passages.get(1).id(), "", "", List.of(), false,
                "said so by the test's detector"))));
    assertThat(reversed.sources()).hasSameSizeAs(plain.sources());
    List<String> byScore = reversed.sources().stream().map(Source::passage).toList();
    List<String> plainByScore = new ArrayList<>(plain.sources().stream().map(Source::passage).toList());
    assertThat(byScore).containsExactlyInAnyOrderElementsOf(plainByScore);
    Map<String, Double> score = new java.util.HashMap<>();
    for (Candidate c : CANDIDATES) score.put(c.chunk().id(), c.score());
    for (int i = 1; i < byScore.size(); i++) {
      assertThat(score.get(byScore.get(i - 1))).as("the injected orderer's order: weakest first")
          .isLessThanOrEqualTo(score.get(byScore.get(i)));
    }
    assertThat(reversed.conflicts()).singleElement().satisfies(c -> assertThat(c.reason()).contains("test's detector"));
    assertThat(reversed.prompt()).contains("Sources disagree:");
    List<Decision> flags = reversed.trace().stream().filter(d -> d.stage() == Stage.CONFLICT).toList();
    assertThat(flags).hasSize(1);
  }

  @Test
  void theBuildersDefaultsAreTheStagesItNamesAndLibraryOptionsAreTheClis() {
    PackOptions o = PackOptions.builder().minRelevance(0).build();
    assertThat(o.plan().fallback()).isEqualTo(Strategy.MAP_REDUCE);
    assertThat(o.plan().strategy()).isEqualTo(Strategy.STUFF);
    assertThat(o.budget().tokens()).isEqualTo(Budgets.MEDIUM);
    assertThat(o.toBuilder().build()).isEqualTo(o);
    assertThat(PackOptions.builder().minRelevance(0).build()).isEqualTo(o);
    assertThat(Map.of("stages", o.stages())).containsValue(new PackOptions.Stages(true, true, true, 0.7, true, true));
  }
}
