package dev.ctxpack.lucene;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.SmallFloat;

/**
 * A searcher whose BM25 statistics count only the documents an access filter lets through: the
 * document frequency and total frequency of each term, and the number of documents and their
 * total length per field, so a principal's scores are those of an index holding only what it may
 * read. Without this, a term's rarity would tell how often it occurs in documents the principal
 * cannot see. Lengths come from the norms Lucene keeps per document (exact up to 40 terms, then
 * within the norm's rounding), so the average length is close to, not always equal to, the exact one.
 */
final class ReadableStatistics {

  /** The readable documents of one reader, per leaf, and the field statistics computed so far. */
  private record Readable(IndexReader reader, FixedBitSet[] bits, Map<String, CollectionStatistics> fields) {}

  /** Per filter, the last reader's readable sets (recomputed when the reader changes: after a commit). */
  private final Map<Query, Readable> cache = new ConcurrentHashMap<>();
  private static final int MAX_CACHED_FILTERS = 256;

  /** A searcher over {@code base}'s reader, with {@code base}'s similarity, whose statistics count what {@code filter} lets through. */
  IndexSearcher of(IndexSearcher base, Query filter) throws IOException {
    Readable r = readable(base, filter);
    IndexSearcher s = new IndexSearcher(base.getIndexReader()) {
      @Override
      public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq) throws IOException {
        long df = 0;
        long ttf = 0;
        List<LeafReaderContext> leaves = getIndexReader().leaves();
        for (int i = 0; i < leaves.size(); i++) {
          Terms terms = leaves.get(i).reader().terms(term.field());
          if (terms == null) continue;
          TermsEnum te = terms.iterator();
          if (!te.seekExact(term.bytes())) continue;
          FixedBitSet bits = r.bits()[i];
          PostingsEnum pe = te.postings(null, PostingsEnum.FREQS);
          for (int d = pe.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = pe.nextDoc()) {
            if (bits.get(d)) {
              df++;
              ttf += pe.freq();
            }
          }
        }
        // Lucene asks only for terms the index holds, and expects statistics for them: a term that
        // only unreadable documents hold matches nothing here (the filter), so any value will do.
        return df == 0 ? new TermStatistics(term.bytes(), 1, 1) : new TermStatistics(term.bytes(), df, Math.max(df, ttf));
      }

      @Override
      public CollectionStatistics collectionStatistics(String field) throws IOException {
        CollectionStatistics known = r.fields().get(field);
        if (known != null) return known;
        long docs = 0;
        long length = 0;
        List<LeafReaderContext> leaves = getIndexReader().leaves();
        for (int i = 0; i < leaves.size(); i++) {
          NumericDocValues norms = leaves.get(i).reader().getNormValues(field);
          if (norms == null) continue;
          FixedBitSet bits = r.bits()[i];
          for (int d = norms.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = norms.nextDoc()) {
            if (!bits.get(d)) continue;
            docs++;
            length += Math.max(1, SmallFloat.byte4ToInt((byte) norms.longValue()));
          }
        }
        // No readable document has the field: nothing it matches is readable, so any value will do.
        CollectionStatistics out = docs == 0 ? new CollectionStatistics(field, Math.max(1, getIndexReader().maxDoc()), 1, 1, 1)
            : new CollectionStatistics(field, getIndexReader().maxDoc(), docs, Math.max(docs, length), docs);
        r.fields().put(field, out);
        return out;
      }
    };
    s.setSimilarity(base.getSimilarity());
    s.setQueryCache(base.getQueryCache());
    s.setQueryCachingPolicy(base.getQueryCachingPolicy());
    return s;
  }

  private Readable readable(IndexSearcher base, Query filter) throws IOException {
    IndexReader reader = base.getIndexReader();
    Readable r = cache.get(filter);
    if (r != null && r.reader() == reader) return r;
    List<LeafReaderContext> leaves = reader.leaves();
    FixedBitSet[] bits = new FixedBitSet[leaves.size()];
    Weight w = base.createWeight(base.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (int i = 0; i < leaves.size(); i++) {
      LeafReaderContext leaf = leaves.get(i);
      FixedBitSet set = new FixedBitSet(leaf.reader().maxDoc());
      Scorer sc = w.scorer(leaf);
      Bits live = leaf.reader().getLiveDocs();
      if (sc != null) {
        DocIdSetIterator it = sc.iterator();
        for (int d = it.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = it.nextDoc()) {
          if (live == null || live.get(d)) set.set(d);
        }
      }
      bits[i] = set;
    }
    r = new Readable(reader, bits, new ConcurrentHashMap<>());
    if (cache.size() >= MAX_CACHED_FILTERS) cache.clear();
    cache.put(filter, r);
    return r;
  }
}
