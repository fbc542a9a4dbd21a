package dev.ctxpack.langchain4j;

import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.pack.EvidencePacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.pack.Strategy;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Metadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * What the aggregator and the injector share: the packer, the base options, the budget and how
 * contents become candidates. One prompt always ({@link Strategy#STUFF}, no plan fallback: a
 * LangChain4j augmentation is one user message).
 */
final class Packing {
  private final EvidencePacker packer;
  private final PackOptions options;
  private final Budgeting budgeting;
  private final boolean inferOffsets;

  Packing(EvidencePacker packer, PackOptions options, Budgeting budgeting, boolean inferOffsets) {
    this.packer = Objects.requireNonNull(packer, "packer");
    this.options = Objects.requireNonNull(options, "options").toBuilder()
        .strategy(Strategy.STUFF).fallback(Strategy.STUFF).build();
    this.budgeting = Objects.requireNonNull(budgeting, "budgeting");
    this.inferOffsets = inferOffsets;
  }

  Budgeting budgeting() {
    return budgeting;
  }

  /** Packs {@code lists} for {@code query}, the budget granted by {@code metadata} (null when unknown). */
  PackedEvidence pack(String query, Metadata metadata, List<List<Content>> lists, boolean fused) {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("the question to pack evidence for is empty");
    Budgeting.Grant g = budgeting.grant(metadata, options.budget().tokens());
    ContentCandidates.Given given = ContentCandidates.of(lists, fused, inferOffsets);
    PackOptions o = options.toBuilder().budget(g.tokens()).build();
    try {
      ContextPackage p = packer.pack(query, given.candidates(), o);
      return new PackedEvidence(query, p, given.origins(), g.tokens(), g.memoryTokens());
    } catch (IOException e) {
      throw new UncheckedIOException("packing the retrieved contents failed: " + e.getMessage(), e);
    }
  }
}
