package dev.ctxpack.lucene;

import java.io.IOException;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilteredDocIdSetIterator;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.util.BitSet;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.Bits;

/**
 * A {@link KnnFloatVectorQuery} that scores every vector of a segment holding at most {@link
 * #EXACT_MAX_VECTORS} of them, and searches the HNSW graph of larger ones only. On a small segment
 * the exact scan costs about what the graph search does, and it cannot be misled: a graph whose
 * nodes include many equal vectors (one file's chunks that all embed alike) can hold the greedy
 * search among them, far from the true neighbours (cf. apache/lucene#13611). Small segments are
 * common: every commit of a few documents (each {@code POST /v1/documents}) writes one, until merges
 * fold them into larger ones. The scores are the same as the graph search's (the field's
 * similarity); the access filter applies as before.
 */
final class SmallSegmentExactKnnQuery extends KnnFloatVectorQuery {
  /** Segments with at most this many vectors are scanned exactly. */
  static final int EXACT_MAX_VECTORS = 4_096;

  SmallSegmentExactKnnQuery(String field, float[] target, int k, Query filter) {
    super(field, target, k, filter);
  }

  @Override
  protected TopDocs approximateSearch(LeafReaderContext context, Bits acceptDocs, int visitedLimit,
      KnnCollectorManager collectors) throws IOException {
    FloatVectorValues values = context.reader().getFloatVectorValues(field);
    if (values == null || values.size() > EXACT_MAX_VECTORS) {
      return super.approximateSearch(context, acceptDocs, visitedLimit, collectors);
    }
    return exactSearch(context, accepted(acceptDocs, context.reader().maxDoc()), null);
  }

  /** The documents {@code acceptDocs} lets through (all when null), as an iterator. */
  private static DocIdSetIterator accepted(Bits acceptDocs, int maxDoc) {
    if (acceptDocs == null) return DocIdSetIterator.all(maxDoc);
    if (acceptDocs instanceof BitSet bits) return new BitSetIterator(bits, bits.approximateCardinality());
    return new FilteredDocIdSetIterator(DocIdSetIterator.all(maxDoc)) {
      @Override
      protected boolean match(int doc) {
        return acceptDocs.get(doc);
      }
    };
  }
}
