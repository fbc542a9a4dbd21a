package dev.ctxpack.springai;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * A Spring AI {@link DocumentRetriever} over a ctxpack index: hybrid retrieval (BM25 per language and
 * the index's vectors, fused by RRF; BM25 alone without an embedder or for a question in a language
 * the embedder was not trained for). Each {@link Document} is a chunk: its id is the chunk id, its
 * metadata holds {@link CtxpackDocuments#DOC_ID} and {@link CtxpackDocuments#START} (so ctxpack's
 * post-processing stitches overlapping chunks), {@code title}, {@link CtxpackDocuments#URI}, {@code
 * language} and the document's own metadata; its score is the fused score.
 *
 * <pre>{@code
 * try (CtxpackDocumentRetriever r = CtxpackDocumentRetriever.builder().indexSpec("lucene:/data/index")
 *     .embedder(new MiniLmEmbedder()).topK(20).build()) { ... }
 * }</pre>
 *
 * An index opened from a spec needs its backend on the classpath ({@code ctxpack-lucene} for {@code
 * lucene:}) and is closed by {@link #close()}; an index given is the caller's to close. Thread-safe
 * as the index is.
 */
public final class CtxpackDocumentRetriever implements DocumentRetriever, AutoCloseable {
  private final SearchableIndex index;
  private final Index owned;
  private final HybridRetriever retriever;
  private final RetrievalOptions options;

  private CtxpackDocumentRetriever(SearchableIndex index, Index owned, Embedder embedder, RetrievalOptions options) {
    this.index = index;
    this.owned = owned;
    this.retriever = new HybridRetriever(index, embedder);
    this.options = options;
  }

  /** A builder: hybrid, top 20, no embedder (BM25). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The chunks best matching {@code query}'s text, best first.
   *
   * @throws IllegalArgumentException when the query text is empty
   */
  @Override
  public List<Document> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    List<Candidate> found;
    try {
      found = retriever.retrieve(query.text(), options, new Trace());
    } catch (IOException e) {
      throw new UncheckedIOException("ctxpack index search failed", e);
    }
    List<Document> out = new ArrayList<>(found.size());
    for (Candidate c : found) {
      Map<String, Object> md = new LinkedHashMap<>(c.doc().metadata());
      md.put(CtxpackDocuments.DOC_ID, c.doc().id());
      md.put(CtxpackDocuments.START, c.chunk().span().start());
      if (c.doc().title() != null && !c.doc().title().isEmpty()) md.put("title", c.doc().title());
      if (c.doc().uri() != null && !c.doc().uri().isEmpty()) md.put(CtxpackDocuments.URI, c.doc().uri());
      if (c.doc().language() != null) md.put("language", c.doc().language().code());
      out.add(Document.builder().id(c.chunk().id()).text(c.chunk().text()).metadata(md).score(c.score()).build());
    }
    return out;
  }

  /** The index searched. */
  public SearchableIndex index() {
    return index;
  }

  /** Closes the index when this retriever opened it from a spec. */
  @Override
  public void close() throws IOException {
    if (owned != null) owned.close();
  }

  /** Options of a {@link CtxpackDocumentRetriever}. */
  public static final class Builder {
    private SearchableIndex index;
    private String spec;
    private Embedder embedder;
    private int topK = 20;
    private RetrievalMode mode = RetrievalMode.HYBRID;

    private Builder() {}

    /** The index to search (the caller closes it). */
    public Builder index(SearchableIndex i) {
      this.index = Objects.requireNonNull(i, "index");
      return this;
    }

    /** An existing index by spec ({@code lucene:DIR}), opened by {@link #build()} and closed by {@link #close()}. */
    public Builder indexSpec(String s) {
      if (s == null || s.isBlank()) throw new IllegalArgumentException("indexSpec must not be empty");
      this.spec = s;
      return this;
    }

    /** The embedder the index was built with (its vectors); {@code null} for BM25 only. */
    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    /** How many chunks to return, in [1, 1000]. */
    public Builder topK(int k) {
      if (k < 1 || k > RetrievalOptions.MAX_K) {
        throw new IllegalArgumentException("topK must be in [1, " + RetrievalOptions.MAX_K + "], was " + k);
      }
      this.topK = k;
      return this;
    }

    /** Hybrid (default), BM25 or dense. */
    public Builder mode(RetrievalMode m) {
      this.mode = Objects.requireNonNull(m, "mode");
      return this;
    }

    /**
     * The retriever.
     *
     * @throws IllegalArgumentException when neither or both of an index and a spec are given, or the
     *     spec names no existing index
     * @throws UncheckedIOException when the index cannot be opened
     */
    public CtxpackDocumentRetriever build() {
      if ((index == null) == (spec == null)) {
        throw new IllegalArgumentException("give exactly one of index(...) and indexSpec(...)");
      }
      RetrievalOptions o = RetrievalOptions.of(mode, topK);
      if (index != null) return new CtxpackDocumentRetriever(index, null, embedder, o);
      try {
        Index opened = Indexes.openExisting(spec);
        return new CtxpackDocumentRetriever(opened, opened, embedder, o);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open ctxpack index " + spec, e);
      }
    }
  }
}
