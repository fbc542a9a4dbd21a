package dev.ctxpack.springai;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.pack.EvidencePacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.pack.Strategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.postretrieval.document.DocumentPostProcessor;

/**
 * A Spring AI {@link DocumentPostProcessor} that runs ctxpack's stages after retrieval over the
 * documents a {@code RetrievalAugmentationAdvisor}'s retrievers found, for every query and retriever
 * at once:
 *
 * <ol>
 *   <li>the documents become candidates ({@link CtxpackDocuments#candidates}: content, offsets when
 *       the metadata has them, score or rank);
 *   <li>the dedup cascade merges copies of one text by content (exact, near, overlap) whatever their
 *       ids and metadata, keeping every copy's provenance, and stitches overlapping windows of one
 *       document by their offsets; passages that differ in a number or date are kept apart;
 *   <li>MMR selects, compression cuts the selected passages verbatim to {@link
 *       Builder#evidenceTokens(int)}, conflicts are noted, the sources are ordered and labelled;
 *   <li>one {@link Document} per source comes back, in prompt order, with the keys of {@link
 *       CtxpackDocuments} (label, merged document ids, spans) and the package with its trace under
 *       {@link CtxpackDocuments#PACKAGE}; the {@link PackListener} is told too.
 * </ol>
 *
 * <pre>{@code
 * DocumentPostProcessor ctxpack = CtxpackDocumentPostProcessor.builder().evidenceTokens(1500).build();
 * RetrievalAugmentationAdvisor rag = RetrievalAugmentationAdvisor.builder()
 *     .documentRetriever(retriever).documentPostProcessors(ctxpack)
 *     .queryAugmenter(CtxpackQueryAugmenter.builder().build()).build();
 * }</pre>
 *
 * The budget counts the whole stuffed prompt (instructions, fences, the question) so the documents
 * returned, laid out by {@link CtxpackQueryAugmenter}, fit it exactly. Needs no index and no model;
 * with an {@link Builder#embedder(Embedder)} the semantic dedup level, MMR and compression use vectors.
 * Thread-safe: no state is kept between calls.
 */
public final class CtxpackDocumentPostProcessor implements DocumentPostProcessor {
  private final EvidencePacker packer;
  private final PackOptions options;
  private final PackListener listener;

  private CtxpackDocumentPostProcessor(EvidencePacker packer, PackOptions options, PackListener listener) {
    this.packer = packer;
    this.options = options;
    this.listener = listener;
  }

  private CtxpackDocumentPostProcessor(Builder b) {
    this.packer = b.packer != null ? b.packer : EvidencePacker.builder().embedder(b.embedder).build();
    this.options = b.options.toBuilder().budget(b.evidenceTokens).strategy(Strategy.STUFF).fallback(Strategy.STUFF).build();
    this.listener = b.listener;
  }

  /**
   * A builder: 2,000 evidence tokens, {@link PackOptions#defaults()} without the relevance line
   * (minRelevance 0), no embedder.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The sources ctxpack packs from {@code documents} for {@code query}, as documents; empty when no
   * document is given.
   *
   * @throws IllegalArgumentException when a document has no text or a bad {@link CtxpackDocuments#START}
   * @throws IllegalArgumentException naming {@code evidenceTokens} when the budget cannot hold the
   *     instructions and the question
   */
  @Override
  public List<Document> process(Query query, List<Document> documents) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(documents, "documents");
    if (documents.isEmpty()) return List.of();
    return CtxpackDocuments.documents(pack(query.text(), documents), byCandidateId(documents));
  }

  /**
   * The package for {@code question} over {@code documents}: what {@link #process} turns into
   * documents, with the prompt, budget report and trace. For benchmarks and for callers that want
   * the prompt itself.
   */
  public ContextPackage pack(String question, List<Document> documents) {
    List<Candidate> given = CtxpackDocuments.candidates(documents);
    ContextPackage p;
    try {
      p = packer.pack(question, given, options);
    } catch (IOException e) {
      throw new UncheckedIOException("ctxpack could not pack " + documents.size() + " documents", e);
    } catch (dev.ctxpack.pack.BudgetTooSmallException e) {
      throw new IllegalArgumentException("evidenceTokens " + options.limit() + " cannot hold the instructions and the "
          + "question: " + e.getMessage(), e);
    }
    listener.packed(question, p);
    return p;
  }

  /**
   * This post-processor with another budget (same packer, options and listener).
   *
   * @throws IllegalArgumentException when {@code tokens} is not positive
   */
  public CtxpackDocumentPostProcessor withEvidenceTokens(int tokens) {
    if (tokens <= 0) throw new IllegalArgumentException("evidenceTokens must be > 0, was " + tokens);
    return new CtxpackDocumentPostProcessor(packer, options.toBuilder().budget(tokens).build(), listener);
  }

  /** The options each call packs with (the budget is {@link Builder#evidenceTokens(int)}). */
  public PackOptions options() {
    return options;
  }

  static Map<String, Document> byCandidateId(List<Document> documents) {
    Map<String, Integer> seen = new HashMap<>();
    Map<String, Document> out = new HashMap<>();
    for (Document d : documents) {
      int n = seen.merge(d.getId(), 1, Integer::sum);
      out.put(n == 1 ? d.getId() : d.getId() + "#" + n, d);
    }
    return out;
  }

  /** Options of a {@link CtxpackDocumentPostProcessor}; each has a default. */
  public static final class Builder {
    private EvidencePacker packer;
    private Embedder embedder;
    private int evidenceTokens = 2000;
    // The budget filled, without the relevance line: a framework's injector cannot carry an
    // abstention (given no content it sends the bare question), and a question asking two things
    // can lose the sentence of its weaker half to the relative line, so a right answer citing it
    // fails the citation guardrail (whose abstention judgement is the line's own gate).
    // The line is one option away: options(PackOptions.builder().onInsufficient(BEST_EFFORT).build()).
    private PackOptions options = PackOptions.builder().minRelevance(0).build();
    private PackListener listener = PackListener.NONE;

    private Builder() {}

    /**
     * The token budget of the packed prompt (instructions, fenced sources and question), counted with
     * the packer's tokenizer (o200k_base by default).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder evidenceTokens(int tokens) {
      if (tokens <= 0) throw new IllegalArgumentException("evidenceTokens must be > 0, was " + tokens);
      this.evidenceTokens = tokens;
      return this;
    }

    /** Options for the stages (order, template, compression, PII, injection...); the budget is set by {@link #evidenceTokens}. */
    public Builder options(PackOptions o) {
      this.options = Objects.requireNonNull(o, "options");
      return this;
    }

    /** The packer (stages, tokenizer); by default {@code EvidencePacker.builder().embedder(embedder).build()}. */
    public Builder packer(EvidencePacker p) {
      this.packer = Objects.requireNonNull(p, "packer");
      return this;
    }

    /** An embedder for the semantic dedup level, MMR and compression (ignored when a packer is given). */
    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    /** Told of every package, with its trace. */
    public Builder listener(PackListener l) {
      this.listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    /** The post-processor. */
    public CtxpackDocumentPostProcessor build() {
      return new CtxpackDocumentPostProcessor(this);
    }
  }
}
