package dev.ctxpack.pack;

import dev.ctxpack.compress.Compressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.conflict.ConflictDetector;
import dev.ctxpack.conflict.DefaultConflictDetector;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.dedup.DedupMemory;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.dedup.Deduplicator;
import dev.ctxpack.guard.InjectionDetector;
import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.order.DefaultOrderer;
import dev.ctxpack.order.Orderer;
import dev.ctxpack.rerank.PassageReranking;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.select.DefaultSelector;
import dev.ctxpack.select.Selector;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.token.RememberingTokenizer;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.Objects;

/**
 * The stages one {@link DefaultContextPacker} sequences, in flow order: retrieval, the two dedup
 * passes, reranking ({@code reranking} null for none), selection, compression, conflict detection,
 * ordering and rendering, with the tokenizer the packer counts with when a request names no model,
 * the passage vectors stages compare with, the injection guard and the listener told each stage's
 * time. Made by its {@link Builder}, which {@link DefaultContextPacker#builder()} returns.
 */
public record PackStages(Retriever retriever, Tokenizer tokenizer, Deduplicator conservative, Deduplicator strict,
    PassageVectors vectors, PassageReranking reranking, Selector selector, Compressor compressor,
    ConflictDetector conflicts, Orderer orderer, PromptRenderer renderer, InjectionGuard guard, StageListener listener) {

  /**
   * The stages, each with a default: the dedup cascade conservative before reranking and strict
   * after, no passage vectors (the semantic level and MMR fall back to word overlap), no reranker,
   * {@link DefaultSelector}, the fitted extractive compressor without sentence vectors, {@link
   * DefaultConflictDetector}, {@link DefaultOrderer}, o200k_base. Only the retriever is required.
   */
  public static final class Builder {
    /** Characters of texts whose token counts, and whose guard hits, each packer remembers (about 8 MB each). */
    public static final long MEMORY_CHARS = 4_000_000;

    private Retriever retriever;
    private Tokenizer tokenizer = Tokenizers.defaultTokenizer();
    private Deduplicator conservative = new CascadeDeduplicator(DedupOptions.conservative());
    private Deduplicator strict = new CascadeDeduplicator(DedupOptions.strict());
    /** Whether the two dedup stages are cascades this builder made (which then share a memory). */
    private boolean ownDedup = true;
    private PassageVectors vectors = PassageVectors.none();
    private Reranker reranker;
    private Selector selector = new DefaultSelector();
    private Compressor compressor;
    private SentenceVectors sentenceVectors = SentenceVectors.none();
    private ConflictDetector conflicts = new DefaultConflictDetector();
    private Orderer orderer = new DefaultOrderer();
    private PromptRenderer renderer = new PromptRenderer();
    private StageListener listener = StageListener.NONE;
    private InjectionGuard guard;

    public Builder retriever(Retriever r) {
      this.retriever = Objects.requireNonNull(r, "retriever");
      return this;
    }

    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      return this;
    }

    /** The two dedup stages, before and after reranking. */
    public Builder dedup(Deduplicator beforeRerank, Deduplicator afterRerank) {
      this.conservative = Objects.requireNonNull(beforeRerank, "beforeRerank");
      this.strict = Objects.requireNonNull(afterRerank, "afterRerank");
      this.ownDedup = false;
      return this;
    }

    /** The dedup cascade before and after reranking, with these options. */
    public Builder dedup(DedupOptions beforeRerank, DedupOptions afterRerank) {
      dedup(new CascadeDeduplicator(beforeRerank), new CascadeDeduplicator(afterRerank));
      this.ownDedup = true;
      return this;
    }

    /** Passage vectors for the semantic level, MMR and topic ordering. */
    public Builder vectors(PassageVectors v) {
      this.vectors = Objects.requireNonNull(v, "vectors");
      return this;
    }

    /** The reranker; {@code null} for none. */
    public Builder reranker(Reranker r) {
      this.reranker = r;
      return this;
    }

    public Builder selector(Selector s) {
      this.selector = Objects.requireNonNull(s, "selector");
      return this;
    }

    /** The compressor; by default the fitted {@link ExtractiveCompressor} over {@link #sentenceVectors}. */
    public Builder compressor(Compressor c) {
      this.compressor = Objects.requireNonNull(c, "compressor");
      return this;
    }

    /** Where the default compressor's sentence vectors come from (none by default: lexical scoring). */
    public Builder sentenceVectors(SentenceVectors v) {
      this.sentenceVectors = Objects.requireNonNull(v, "sentenceVectors");
      return this;
    }

    public Builder conflicts(ConflictDetector c) {
      this.conflicts = Objects.requireNonNull(c, "conflicts");
      return this;
    }

    public Builder orderer(Orderer o) {
      this.orderer = Objects.requireNonNull(o, "orderer");
      return this;
    }

    public Builder renderer(PromptRenderer r) {
      this.renderer = Objects.requireNonNull(r, "renderer");
      return this;
    }

    /** The injection guard (its rule set); the policy is per request ({@link PackOptions.Safety#injection}). */
    public Builder injectionGuard(InjectionGuard g) {
      this.guard = Objects.requireNonNull(g, "injectionGuard");
      return this;
    }

    /** Told the time of each stage of every request (e.g. the service's per-stage latency metrics). */
    public Builder stageListener(StageListener l) {
      this.listener = Objects.requireNonNull(l, "stageListener");
      return this;
    }

    /**
     * A packer over these stages. Its token counts, the default guard's hits and what the dedup
     * cascades read of each candidate are remembered in memories of its own ({@link
     * RememberingTokenizer}, {@link InjectionDetector#withMemory}, a {@link DedupMemory}
     * shared by the two passes, each bounded at {@link #MEMORY_CHARS} characters): a pack counts,
     * guards and dedups the same candidate texts several times, and the same chunks come back request
     * after request, but no other packer (another collection or tenant of a service) is ever faster
     * for what this one read. Dedup stages given as objects are used as given.
     * The default compressor counts with the packer's tokenizer when it is o200k_base, else with a
     * remembering o200k_base of its own; a compressor or guard given to the builder is used as given.
     */
    public DefaultContextPacker build() {
      if (retriever == null) throw new IllegalStateException("a retriever is required");
      Tokenizer tok = tokenizer instanceof RememberingTokenizer ? tokenizer : new RememberingTokenizer(tokenizer, MEMORY_CHARS);
      Compressor c = compressor;
      if (c == null) {
        Tokenizer compressorTok = tok.name().equals(Tokenizers.defaultTokenizer().name()) ? tok
            : new RememberingTokenizer(Tokenizers.defaultTokenizer(), MEMORY_CHARS);
        c = ExtractiveCompressor.builder().scorer(FeatureSentenceScorer.defaults(sentenceVectors)).tokenizer(compressorTok).build();
      }
      InjectionGuard g = guard != null ? guard : new InjectionGuard(InjectionDetector.defaults().withMemory(MEMORY_CHARS));
      Deduplicator before = conservative;
      Deduplicator after = strict;
      if (ownDedup && before instanceof CascadeDeduplicator b && after instanceof CascadeDeduplicator a) {
        DedupMemory reads = new DedupMemory(MEMORY_CHARS);
        before = b.withMemory(reads);
        after = a.withMemory(reads);
      }
      return new DefaultContextPacker(new PackStages(retriever, tok, before, after, vectors,
          reranker == null ? null : new PassageReranking(reranker), selector, c, conflicts, orderer, renderer, g,
          listener));
    }
  }

  /** These stages with another retriever (e.g. {@link dev.ctxpack.retrieve.GivenCandidates} for one request). */
  public PackStages withRetriever(Retriever r) {
    return new PackStages(Objects.requireNonNull(r, "retriever"), tokenizer, conservative, strict, vectors, reranking,
        selector, compressor, conflicts, orderer, renderer, guard, listener);
  }

  /** How the trace names the compressor: the extractive compressor's scorer, else its class. */
  public String compressorId() {
    return compressor instanceof ExtractiveCompressor e ? e.scorer().id() : compressor.getClass().getSimpleName();
  }
}
