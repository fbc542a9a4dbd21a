package dev.ctxpack.solr;

import dev.ctxpack.lucene.Analyzers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.SmallFloat;

/**
 * BM25 as Lucene's {@code BM25Similarity} (k1 1.2, b 0.75) scores it, for a principal's view:
 * computed by ctxpack from statistics it asks Solr for over the chunks the reader may read, on every
 * shard (the number of chunks holding each body field, their norm-encoded lengths, each query
 * term's document frequency), so a view's scores say nothing of documents it cannot see and equal
 * the embedded index's view's. Query terms are analysed here with the same analyzers as the
 * schema's body fields; a candidate's term frequencies come from its stored text, analysed the same
 * way, and its length is the one stored at ingestion, encoded as Lucene's norms encode it. (For the
 * whole collection Solr's own score is the same BM25 over collection-wide statistics and is used
 * as it is.)
 */
final class SolrBm25 {
  static final float K1 = 1.2f;
  static final float B = 0.75f;
  /** Distinct terms per field and query, as the embedded index's query builder caps them. */
  static final int MAX_TERMS = 256;
  private static final Map<String, Analyzer> ANALYZERS = Analyzers.perLanguage();
  private static final float[] LENGTH_TABLE = new float[256];

  static {
    for (int i = 0; i < 256; i++) LENGTH_TABLE[i] = SmallFloat.byte4ToInt((byte) i);
  }

  private SolrBm25() {}

  /** The body fields, in the order the embedded index's query builder visits them. */
  static java.util.Set<String> fields() {
    return new java.util.TreeSet<>(ANALYZERS.keySet());
  }

  /** The terms {@code text} yields in {@code field}, with their counts, first seen first; at most {@link #MAX_TERMS}. */
  static Map<String, Integer> queryTerms(String field, String text) {
    Map<String, Integer> out = new LinkedHashMap<>();
    forEachTerm(field, text, t -> {
      if (out.containsKey(t)) out.merge(t, 1, Integer::sum);
      else if (out.size() < MAX_TERMS) out.put(t, 1);
    });
    return out;
  }

  /** Every term of {@code text} in {@code field} with its frequency. */
  static Map<String, Integer> termFrequencies(String field, String text) {
    Map<String, Integer> out = new TreeMap<>();
    forEachTerm(field, text, t -> out.merge(t, 1, Integer::sum));
    return out;
  }

  /** The number of terms {@code text} yields in {@code field}: the length BM25's norm reads. */
  static int length(String field, String text) {
    int[] n = {0};
    forEachTerm(field, text, t -> n[0]++);
    return n[0];
  }

  private static void forEachTerm(String field, String text, java.util.function.Consumer<String> each) {
    Analyzer a = ANALYZERS.get(field);
    if (a == null) throw new IllegalArgumentException("no body field " + field);
    try (TokenStream ts = a.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) each.accept(term.toString());
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code length} as Lucene's norm encodes it, at least 1. */
  static long normLength(int length) {
    return Math.max(1, (long) LENGTH_TABLE[Byte.toUnsignedInt(SmallFloat.intToByte4(length))]);
  }

  /**
   * A field's statistics over the readable chunks: how many hold a term of it, and their total
   * length as the embedded index computes a view's (the sum of norm-encoded lengths), so both score
   * alike.
   */
  record FieldStats(long docCount, long sumLength) {}

  /** The score of one term clause: {@code boost} the term's count in the query. */
  static float score(float boost, long docFreq, FieldStats f, int freq, long length) {
    if (freq == 0 || f.docCount() == 0) return 0f;
    float idf = (float) Math.log(1 + (f.docCount() - docFreq + 0.5D) / (docFreq + 0.5D));
    float avgdl = (float) (f.sumLength() / (double) f.docCount());
    float norm = LENGTH_TABLE[Byte.toUnsignedInt(SmallFloat.intToByte4((int) Math.min(Integer.MAX_VALUE, length)))];
    float normInverse = 1f / (K1 * ((1 - B) + B * norm / avgdl));
    float weight = boost * idf;
    return weight - weight / (1f + freq * normInverse);
  }
}
