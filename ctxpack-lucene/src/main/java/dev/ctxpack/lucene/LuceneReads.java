package dev.ctxpack.lucene;

import dev.ctxpack.index.SearchableIndex.ChunkMarks;
import dev.ctxpack.index.SearchableIndex.SentenceVector;
import dev.ctxpack.index.SearchableIndex.Stats;
import dev.ctxpack.index.WritableIndex.StoredDoc;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * The searcher part of {@link LuceneIndex}: every read of the index, each over the Lucene
 * documents an access filter lets through ({@link Acl#filter}; null: all), so that the index and
 * its views ({@link ReadableView}) run the same code. Searches are sorted by score, then chunk id.
 */
final class LuceneReads {
  private final Searchers searchers;
  private final SparseQueryBuilder sparse;
  private final ReadableStatistics readableStatistics = new ReadableStatistics();
  private final DecodedChunks chunks = new DecodedChunks();

  LuceneReads(Searchers searchers, SparseQueryBuilder sparse) {
    this.searchers = searchers;
    this.sparse = sparse;
  }

  private <T> T withSearcher(Searchers.SearchFn<T> fn, T empty) throws IOException {
    return searchers.withSearcher(fn, empty);
  }

  Optional<StoredDoc> find(String docId) throws IOException {
    return withSearcher(s -> {
      var d = recordDoc(s, docId, null);
      return d.map(StoredDocs::toStoredDoc);
    }, Optional.empty());
  }

  List<StoredDoc> findBySourcePath(String prefix) throws IOException {
    return withSearcher(s -> {
      TopDocs td = s.search(new PrefixQuery(new Term(Fields.SOURCE_PATH, prefix)), Integer.MAX_VALUE / 2);
      StoredFields sf = s.storedFields();
      List<StoredDoc> out = new ArrayList<>();
      for (ScoreDoc sd : td.scoreDocs) {
        var d = sf.document(sd.doc);
        if (Fields.TYPE_DOC.equals(d.get(Fields.TYPE))) out.add(StoredDocs.toStoredDoc(d));
      }
      out.sort(java.util.Comparator.comparing(StoredDoc::id));
      return out;
    }, List.of());
  }

  Optional<Document> document(String docId, Query filter) throws IOException {
    return withSearcher(s -> recordDoc(s, docId, filter).map(d -> new Document(
        d.get(Fields.DOC_KEY), d.get(Fields.URI), d.get(Fields.TITLE), Language.fromCode(d.get(Fields.LANGUAGE)),
        StoredDocs.metadata(d), d.get(Fields.TEXT))), Optional.empty());
  }

  private static Optional<org.apache.lucene.document.Document> recordDoc(IndexSearcher s, String docId, Query filter)
      throws IOException {
    TopDocs td = s.search(Acl.restrict(Acl.record(docId), filter), 1);
    if (td.scoreDocs.length == 0) return Optional.empty();
    return Optional.of(s.storedFields().document(td.scoreDocs[0].doc));
  }

  /**
   * BM25 over the chunks {@code filter} lets through (all when null): the filter is a clause of the
   * query, so other chunks are never scored, and the term and length statistics count only the
   * chunks it lets through ({@link ReadableStatistics}), so scores say nothing of the others.
   */
  List<Candidate> searchSparse(String query, int k, Query filter) throws IOException {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    Query q = sparse.build(query);
    if (q == null) return List.of();
    return withSearcher(s -> {
      IndexSearcher scoring = filter == null ? s : readableStatistics.of(s, filter);
      return toCandidates(scoring, scoring.search(Acl.restrict(q, filter), k), Signal.BM25);
    }, List.of());
  }

  /**
   * Nearest vector windows, collapsed to their chunks: a chunk scores its best window's cosine.
   * Fetches {@code 3k + 20} windows so that {@code k} distinct chunks are usually found, among those
   * {@code filter} lets through: Lucene's filtered HNSW search, so other windows are never candidates;
   * segments of at most {@link SmallSegmentExactKnnQuery#EXACT_MAX_VECTORS} windows are scanned exactly.
   */
  List<Candidate> searchDense(float[] vector, int k, Query filter) throws IOException {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    return withSearcher(s -> {
      // Cheap check (no query): an index that never held vectors has no such field.
      if (s.getIndexReader().leaves().stream()
          .noneMatch(l -> l.reader().getFieldInfos().fieldInfo(Fields.VECTOR) != null)) {
        return List.of();
      }
      int windows = Math.min(10_000, 3 * k + 20);
      TopDocs td = s.search(new SmallSegmentExactKnnQuery(Fields.VECTOR, vector, windows, filter), windows);
      StoredFields sf = s.storedFields();
      String[] chunkOf = windowChunks(s, td.scoreDocs, sf);
      java.util.LinkedHashMap<String, Double> best = new java.util.LinkedHashMap<>();
      for (int i = 0; i < td.scoreDocs.length; i++) {
        // Lucene maps a dot product x to (1 + x) / 2; report the cosine itself.
        best.merge(chunkOf[i], 2.0 * td.scoreDocs[i].score - 1.0, Math::max);
      }
      // Fetch the chunks of the best windows in one query.
      List<org.apache.lucene.util.BytesRef> ids = new ArrayList<>(best.size());
      for (String id : best.keySet()) ids.add(new org.apache.lucene.util.BytesRef(id));
      var q = new org.apache.lucene.search.BooleanQuery.Builder()
          .add(new org.apache.lucene.search.TermInSetQuery(Fields.CHUNK_ID, ids), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_CHUNK)), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .build();
      TopDocs hits = s.search(Acl.restrict(q, filter), Math.max(1, best.size()));
      List<Candidate> out = new ArrayList<>(hits.scoreDocs.length);
      DecodedChunks.Reader docs = chunks.reader(s);
      for (ScoreDoc sd : hits.scoreDocs) {
        var d = docs.document(sd.doc);
        Double score = best.get(d.get(Fields.CHUNK_ID));
        if (score != null) out.add(new Candidate(StoredDocs.chunk(d), StoredDocs.docInfo(d), Scores.of(Signal.DENSE, score)));
      }
      out.sort(java.util.Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(Signal.DENSE, 0))
          .thenComparing(c -> c.chunk().id()));
      return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }, List.of());
  }

  /**
   * The chunk id of each window hit: from the windows' doc values, visited in document order within
   * each segment; a window written without them (an index from before) from its stored fields.
   */
  private static String[] windowChunks(IndexSearcher s, ScoreDoc[] hits, StoredFields sf) throws IOException {
    String[] out = new String[hits.length];
    Integer[] order = new Integer[hits.length];
    for (int i = 0; i < order.length; i++) order[i] = i;
    java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> hits[i].doc));
    List<org.apache.lucene.index.LeafReaderContext> leaves = s.getIndexReader().leaves();
    int at = -1;
    org.apache.lucene.index.LeafReaderContext leaf = null;
    org.apache.lucene.index.SortedDocValues values = null;
    for (int i : order) {
      int doc = hits[i].doc;
      int li = org.apache.lucene.index.ReaderUtil.subIndex(doc, leaves);
      if (li != at) {
        at = li;
        leaf = leaves.get(li);
        values = leaf.reader().getSortedDocValues(Fields.WINDOW_CHUNK);
      }
      if (values != null && values.advanceExact(doc - leaf.docBase)) {
        out[i] = values.lookupOrd(values.ordValue()).utf8ToString();
      } else {
        out[i] = sf.document(doc, java.util.Set.of(Fields.CHUNK_ID)).get(Fields.CHUNK_ID);
      }
    }
    return out;
  }

  /**
   * The normalised mean of each chunk's window vectors, read by chunk id (live documents only). Each
   * id's windows are found in the postings of its own term ({@link CorpusQueries#idDocs}), so no
   * window's stored fields are read (a window names its chunk only there) and no query is built per
   * id; a segment's windows come in document order, so each chunk sums its windows in the order it
   * always did.
   */
  java.util.Map<String, float[]> chunkVectors(java.util.Collection<String> chunkIds, Query filter) throws IOException {
    if (chunkIds.isEmpty()) return java.util.Map.of();
    return withSearcher(s -> {
      List<String> sorted = new ArrayList<>(new java.util.TreeSet<>(chunkIds));
      List<org.apache.lucene.util.BytesRef> terms = CorpusQueries.idTerms(sorted);
      org.apache.lucene.search.Weight allowed = CorpusQueries.allowed(s, filter);
      java.util.Map<String, float[]> sums = new java.util.TreeMap<>();
      for (var leaf : s.getIndexReader().leaves()) {
        var values = leaf.reader().getFloatVectorValues(Fields.VECTOR);
        if (values == null) continue;
        for (long[] win : CorpusQueries.idDocs(leaf, terms, Fields.TYPE_VECTOR, allowed)) {
          int doc = (int) win[0];
          if (values.docID() < doc) values.advance(doc);
          if (values.docID() != doc) continue;
          float[] v = values.vectorValue();
          float[] sum = sums.computeIfAbsent(sorted.get((int) win[1]), k -> new float[v.length]);
          for (int i = 0; i < v.length; i++) sum[i] += v[i];
        }
      }
      java.util.Map<String, float[]> out = new java.util.HashMap<>();
      for (var e : sums.entrySet()) out.put(e.getKey(), dev.ctxpack.embed.Embedder.normalize(e.getValue()));
      return out;
    }, java.util.Map.of());
  }

  /**
   * Reads the stored sentence vectors of the requested chunks: their chunk documents found in the
   * ids' postings ({@link CorpusQueries#chunkDocs}), each read through the decoded chunks ({@link DecodedChunks}), which a request's
   * retrieval has usually read already. An index written before sentence vectors existed has no such
   * field anywhere and returns at once.
   */
  Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds, Query filter) throws IOException {
    if (chunkIds.isEmpty()) return Map.of();
    return withSearcher(s -> {
      if (s.getIndexReader().leaves().stream()
          .noneMatch(l -> l.reader().getFieldInfos().fieldInfo(Fields.SENTENCE_VECTORS) != null)) {
        return Map.of();
      }
      Map<String, List<SentenceVector>> out = new HashMap<>();
      DecodedChunks.Reader docs = chunks.reader(s);
      for (int doc : CorpusQueries.chunkDocs(s, chunkIds, filter)) {
        var d = docs.document(doc);
        org.apache.lucene.util.BytesRef vectors = d.getBinaryValue(Fields.SENTENCE_VECTORS);
        String chunkId = d.get(Fields.CHUNK_ID);
        if (vectors != null && chunkId != null) out.put(chunkId, SentenceVectorCodec.decode(d.get(Fields.DOC_KEY), vectors));
      }
      return out;
    }, Map.of());
  }

  private List<Candidate> toCandidates(IndexSearcher s, TopDocs td, Signal signal)
      throws IOException {
    List<Candidate> out = new ArrayList<>(td.scoreDocs.length);
    DecodedChunks.Reader docs = chunks.reader(s);
    for (ScoreDoc sd : td.scoreDocs) {
      var d = docs.document(sd.doc);
      out.add(new Candidate(StoredDocs.chunk(d), StoredDocs.docInfo(d), Scores.of(signal, sd.score)));
    }
    out.sort(java.util.Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(signal, 0))
        .thenComparing(c -> c.chunk().id()));
    return out;
  }

  Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds, Query filter) throws IOException {
    return withSearcher(s -> CorpusQueries.chunkMarks(s, chunkIds, filter, chunks), Map.of());
  }

  /** {reads of chunk documents, of which answered without decoding} (for tests and measurements). */
  long[] chunkReads() {
    return chunks.counts();
  }

  Stats stats(Query filter) throws IOException {
    return withSearcher(s -> statsOf(s, filter), new Stats(0, 0, 0, Optional.empty(), 0));
  }

  private static Stats statsOf(IndexSearcher s, Query filter) throws IOException {
    int docs = s.count(Acl.restrict(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DOC)), filter));
    int chunks = s.count(Acl.restrict(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_CHUNK)), filter));
    int vectors = s.count(Acl.restrict(new TermQuery(new Term(Fields.HAS_VECTOR, "1")), filter));
    Map<String, String> ud = ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData();
    Optional<String> emb = Optional.ofNullable(ud.get(Fields.COMMIT_EMBEDDER));
    int dim = ud.containsKey(Fields.COMMIT_DIMENSION) ? Integer.parseInt(ud.get(Fields.COMMIT_DIMENSION)) : 0;
    return new Stats(docs, chunks, vectors, emb, dim);
  }
}
