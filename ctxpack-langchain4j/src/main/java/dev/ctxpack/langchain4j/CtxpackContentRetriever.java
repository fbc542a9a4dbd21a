package dev.ctxpack.langchain4j;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link ContentRetriever} over a ctxpack index: BM25, or hybrid (BM25 and vectors fused) with an
 * {@link Embedder} such as ctxpack-onnx's {@code MiniLmEmbedder}; hybrid without an embedder, or over
 * an index without vectors, runs as BM25. Each segment carries ctxpack's ids and offsets ({@link
 * CtxpackMetadata}: chunk id, document id, start, end, title, URI, language, score) and the
 * document's own metadata, so {@link CtxpackContentAggregator} can stitch overlapping windows.
 *
 * <pre>{@code
 * try (CtxpackContentRetriever retriever = CtxpackContentRetriever.builder()
 *     .index("lucene:/var/ctxpack/index").embedder(new MiniLmEmbedder()).maxResults(20).build()) {
 *   ...
 * }
 * }</pre>
 *
 * The index spec is opened through {@link Indexes} (ServiceLoader: {@code lucene:} is in
 * ctxpack-lucene, a runtime dependency of this module); an index opened from a spec is closed by
 * {@link #close()}, one passed in is the caller's. Thread-safe.
 */
public final class CtxpackContentRetriever implements ContentRetriever, AutoCloseable {
  private final SearchableIndex index;
  private final Index owned;
  private final HybridRetriever retriever;
  private final RetrievalOptions options;

  private CtxpackContentRetriever(Builder b) throws IOException {
    if (b.index == null && b.spec == null) throw new IllegalArgumentException("index is required: give an index or a spec such as lucene:DIR");
    this.owned = b.index == null ? Indexes.openExisting(b.spec) : null;
    this.index = b.index != null ? b.index : owned;
    this.retriever = new HybridRetriever(index, b.embedder);
    this.options = RetrievalOptions.of(b.mode, b.maxResults);
  }

  /** A builder: hybrid mode, 10 results, no embedder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The best chunks for the query's text, best first. */
  @Override
  public List<Content> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    List<Candidate> found;
    try {
      found = retriever.retrieve(query.text(), options, new Trace());
    } catch (IOException e) {
      throw new UncheckedIOException("retrieving from the ctxpack index failed: " + e.getMessage(), e);
    }
    List<Content> out = new ArrayList<>(found.size());
    for (Candidate c : found) out.add(content(c));
    return out;
  }

  /** A candidate as a content: its text, ctxpack's keys and the document's metadata. */
  static Content content(Candidate c) {
    Metadata md = new Metadata();
    for (Map.Entry<String, String> e : c.doc().metadata().entrySet()) {
      if (e.getValue() != null) md.put(e.getKey(), e.getValue());
    }
    md.put(CtxpackMetadata.CHUNK_ID, c.chunk().id());
    md.put(CtxpackMetadata.DOC_ID, c.chunk().docId());
    md.put(CtxpackMetadata.START, c.chunk().span().start());
    md.put(CtxpackMetadata.END, c.chunk().span().end());
    if (!c.doc().title().isEmpty()) md.put(CtxpackMetadata.TITLE, c.doc().title());
    if (!c.doc().uri().isEmpty()) md.put(CtxpackMetadata.URI, c.doc().uri());
    md.put(CtxpackMetadata.LANGUAGE, c.doc().language().code());
    md.put(CtxpackMetadata.SCORE, c.score());
    return Content.from(TextSegment.from(c.chunk().text(), md), Map.of(ContentMetadata.SCORE, c.score()));
  }

  /** Closes the index when it was opened from a spec. */
  @Override
  public void close() throws IOException {
    if (owned != null) owned.close();
  }

  /** Options of a {@link CtxpackContentRetriever}. */
  public static final class Builder {
    private SearchableIndex index;
    private String spec;
    private Embedder embedder;
    private RetrievalMode mode = RetrievalMode.HYBRID;
    private int maxResults = 10;

    private Builder() {}

    /** An open index (the caller closes it). */
    public Builder index(SearchableIndex i) {
      this.index = Objects.requireNonNull(i, "index");
      this.spec = null;
      return this;
    }

    /** An index spec such as {@code lucene:/path/to/index}, opened (it must exist) and closed by the retriever. */
    public Builder index(String indexSpec) {
      if (indexSpec == null || indexSpec.isBlank()) throw new IllegalArgumentException("index spec must not be empty");
      this.spec = indexSpec;
      this.index = null;
      return this;
    }

    /** The embedder of the index's vectors, for hybrid or dense retrieval; none by default (BM25). */
    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    /** BM25, dense or hybrid (the default). */
    public Builder mode(RetrievalMode m) {
      this.mode = Objects.requireNonNull(m, "mode");
      return this;
    }

    /** How many chunks to return, in [1, 1000]; 10 by default. */
    public Builder maxResults(int k) {
      if (k < 1 || k > RetrievalOptions.MAX_K) {
        throw new IllegalArgumentException("maxResults must be in [1, " + RetrievalOptions.MAX_K + "], was " + k);
      }
      this.maxResults = k;
      return this;
    }

    /**
     * The retriever.
     *
     * @throws IllegalArgumentException when no index is given, or the spec's scheme is unknown
     * @throws UncheckedIOException when the index cannot be opened
     */
    public CtxpackContentRetriever build() {
      try {
        return new CtxpackContentRetriever(this);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open index " + spec + ": " + e.getMessage(), e);
      }
    }
  }
}
