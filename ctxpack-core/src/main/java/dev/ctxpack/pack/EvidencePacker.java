package dev.ctxpack.pack;

import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.GivenCandidates;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code pack} over evidence someone else retrieved: the candidates a framework's retrievers found
 * (several queries, several retrievers, duplicates and overlapping windows included) go through
 * ctxpack's dedup cascade, reranking when configured, selection, compression, conflict detection,
 * ordering and layout, exactly as {@link DefaultContextPacker} runs them after its own retrieval.
 * What the framework adapters ({@code ctxpack-langchain4j}, {@code ctxpack-spring-ai}) are built on.
 *
 * <pre>{@code
 * EvidencePacker packer = EvidencePacker.builder().build();          // no index, no model
 * List<Candidate> given = List.of(GivenCandidates.candidate("a#0", "a", text, 0, "A", "", null, 1.0), ...);
 * ContextPackage p = packer.pack(question, given, PackOptions.builder().budget(1500).build());
 * }</pre>
 *
 * With no embedder the semantic dedup level groups nothing, MMR compares words and compression
 * scores sentences lexically; with one, passages and sentences are embedded on the fly. Thread-safe
 * if its stages are.
 */
public final class EvidencePacker {
  private final PackStages stages;

  private EvidencePacker(PackStages stages) {
    this.stages = stages;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Packs {@code given} for {@code query} with {@code options}; their retrieval options are ignored
   * (every candidate given is a candidate). An empty list packs a prompt with no sources.
   *
   * @throws BudgetTooSmallException when the budget cannot hold the instructions and the query
   * @throws IllegalArgumentException when the query is empty
   */
  public ContextPackage pack(String query, List<Candidate> given, PackOptions options) throws IOException {
    Objects.requireNonNull(given, "given");
    Objects.requireNonNull(options, "options");
    // k one more than what was given: the packer never asks a retriever that returned everything again.
    int k = Math.min(RetrievalOptions.MAX_K, given.size() + 1);
    PackOptions o = options.toBuilder().retrieval(new RetrievalOptions(RetrievalMode.HYBRID, k, 0, 0)).build();
    return new DefaultContextPacker(stages.withRetriever(new GivenCandidates(given))).pack(query, o);
  }

  /** The stages this packer runs (its retriever a placeholder: each request brings its own). */
  public PackStages stages() {
    return stages;
  }

  /** Each stage with {@link PackStages.Builder}'s default unless set; no embedder, no reranker. */
  public static final class Builder {
    private final PackStages.Builder stages = DefaultContextPacker.builder();

    private Builder() {
      stages.retriever(new GivenCandidates(List.of()));
    }

    /** The tokenizer budgets are counted with when a request names no model (o200k_base by default). */
    public Builder tokenizer(Tokenizer t) {
      stages.tokenizer(t);
      return this;
    }

    /**
     * Embeds passages (semantic dedup, MMR, topic order) and sentences (compression) on the fly;
     * {@code null} for none.
     */
    public Builder embedder(Embedder e) {
      stages.vectors(e == null ? PassageVectors.none() : PassageVectors.fromEmbedder(e));
      stages.sentenceVectors(e == null ? SentenceVectors.none() : SentenceVectors.embedder(e));
      return this;
    }

    /** The reranker run after the first dedup pass; {@code null} (the default) for none. */
    public Builder reranker(Reranker r) {
      stages.reranker(r);
      return this;
    }

    /** Any other stage: {@code b -> b.orderer(...).dedup(...)} (the retriever set there is ignored). */
    public Builder stages(Consumer<PackStages.Builder> edit) {
      edit.accept(stages);
      return this;
    }

    public EvidencePacker build() {
      return new EvidencePacker(stages.build().stages());
    }
  }
}
