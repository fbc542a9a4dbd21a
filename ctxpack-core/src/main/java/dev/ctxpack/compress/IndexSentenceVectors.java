package dev.ctxpack.compress;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Sentence vectors stored in the index at ingestion ({@link SearchableIndex#sentenceVectors}): one lookup for
 * all the chunks of a request, no model run for the sentences found there. A sentence is found when
 * its document and offsets are exactly those of a stored one (a part placed in a document by {@link
 * CompressInput.Part#docId()} and {@code docStart}, segmented as at ingestion). The {@code embedder},
 * when given, embeds the query and, in one batch, the sentences not found (text given directly, an
 * index ingested without sentence vectors, a part cut where ingestion did not cut); without it the
 * query has no vector and those sentences none. It must be the model the index was embedded with.
 *
 * <pre>{@code
 * SentenceVectors vectors = new IndexSentenceVectors(index, embedder);
 * float[] q = vectors.query("what do penguins eat");
 * float[][] s = vectors.sentences(inputs, sentences);
 * }</pre>
 */
public final class IndexSentenceVectors implements SentenceVectors {
  private final SearchableIndex index;
  private final Embedder embedder;
  private final LanguageDetector detector = new LanguageDetector();
  private final int maxEmbedded;
  private volatile boolean embedderChecked;

  /** Reads {@code index}; {@code embedder} (nullable) embeds the query and every sentence not stored. */
  public IndexSentenceVectors(SearchableIndex index, Embedder embedder) {
    this(index, embedder, Integer.MAX_VALUE);
  }

  /**
   * As {@link #IndexSentenceVectors(SearchableIndex, Embedder)}, but a request with more than {@code
   * maxEmbedded} sentences not stored embeds none of them (they have no vector; the scorer then
   * goes lexical): an index ingested without sentence vectors must not make every request run the
   * model over all its sentences.
   */
  public IndexSentenceVectors(SearchableIndex index, Embedder embedder, int maxEmbedded) {
    this.index = Objects.requireNonNull(index, "index");
    this.embedder = embedder;
    if (maxEmbedded < 0) throw new IllegalArgumentException("maxEmbedded must be >= 0, was " + maxEmbedded);
    this.maxEmbedded = maxEmbedded;
  }

  /** Null without an embedder, or for a query in a language the embedder was not trained for. */
  @Override
  public float[] query(String query) {
    if (embedder == null) return null;
    if (!SentenceVectors.supports(embedder, detector.detect(query))) return null;
    return embedder.embed(query);
  }

  @Override
  public float[][] sentences(List<CompressInput> inputs, List<Sentence> sentences) throws IOException {
    float[][] out = new float[sentences.size()][];
    if (sentences.isEmpty()) return out;
    checkEmbedder();
    Set<String> chunkIds = new LinkedHashSet<>();
    for (CompressInput in : inputs) chunkIds.addAll(in.chunkIds());
    Map<Key, float[]> stored = new HashMap<>();
    if (!chunkIds.isEmpty()) {
      for (List<SearchableIndex.SentenceVector> perChunk : index.sentenceVectors(chunkIds).values()) {
        for (SearchableIndex.SentenceVector v : perChunk) {
          stored.put(new Key(v.docId(), v.span().start(), v.span().end()), v.vector());
        }
      }
    }
    // Sentences not stored, by text: a text that occurs twice is embedded once.
    Map<String, List<Integer>> missing = new LinkedHashMap<>();
    for (int i = 0; i < sentences.size(); i++) {
      Sentence s = sentences.get(i);
      CompressInput.Part part = inputs.get(s.input()).parts().get(s.part());
      float[] v = part.docId() == null ? null
          : stored.get(new Key(part.docId(), part.docStart() + s.start(), part.docStart() + s.end()));
      if (v != null) out[i] = v;
      else if (embedder != null) missing.computeIfAbsent(s.text(), t -> new ArrayList<>()).add(i);
    }
    if (!missing.isEmpty() && missing.size() <= maxEmbedded) {
      List<String> texts = new ArrayList<>(missing.keySet());
      List<float[]> vs = Embedder.embedLeniently(embedder, texts);
      for (int t = 0; t < texts.size(); t++) {
        for (int i : missing.get(texts.get(t))) out[i] = vs.get(t);
      }
    }
    return out;
  }

  /** Names the source in traces: {@code index}, or {@code index+} the embedder's id. */
  @Override
  public String id() {
    return embedder == null ? "index" : "index+" + embedder.id();
  }

  /** Once: vectors of two models do not compare, so the embedder must be the index's. */
  private void checkEmbedder() throws IOException {
    if (embedderChecked || embedder == null) return;
    Optional<String> have = index.stats().embedderId();
    if (have.isPresent() && !have.get().equals(embedder.id())) {
      throw new IllegalArgumentException("the index holds sentence vectors of " + have.get()
          + " but the query is embedded with " + embedder.id() + ": use the index's embedder");
    }
    embedderChecked = true;
  }

  /** A sentence's place: its document and offsets there. */
  private record Key(String docId, int start, int end) {}
}
