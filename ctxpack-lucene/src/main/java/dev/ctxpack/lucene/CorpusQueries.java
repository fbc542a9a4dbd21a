package dev.ctxpack.lucene;

import dev.ctxpack.index.CorpusCatalog.CorpusDoc;
import dev.ctxpack.index.CorpusCatalog.Recurring;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.SearchableIndex.ChunkMarks;
import dev.ctxpack.index.WritableIndex.SignedDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The corpus-level duplicate reads of {@link LuceneIndex} (ctxpack 0.1): documents sharing LSH
 * bands (for ingestion), chunk marks (near-duplicate and recurrence; for retrieval, and filtered in
 * a principal's view), and the corpus catalog: all documents with their marks, recorded exact
 * duplicates and recurring chunk texts. Each runs on one searcher.
 */
final class CorpusQueries {
  private static final Set<String> RECORD_FIELDS = Set.of(Fields.DOC_KEY, Fields.URI, Fields.TITLE, Fields.SOURCE_PATH,
      Fields.CHUNK_COUNT, Fields.NEAR_DUP_OF, Fields.NEAR_SIM, Fields.FILE_TIME);

  private CorpusQueries() {}

  /**
   * Every hit of {@code q}: counted first, so the collector's queue is sized to the hits rather than
   * to the whole index (this runs once per ingested document).
   */
  private static ScoreDoc[] hits(IndexSearcher s, Query q) throws IOException {
    int n = s.count(q);
    return n == 0 ? new ScoreDoc[0] : s.search(q, n).scoreDocs;
  }

  static List<SignedDoc> sharingBands(IndexSearcher s, Collection<String> bandKeys) throws IOException {
    if (bandKeys.isEmpty()) return List.of();
    Query q = new TermInSetQuery(Fields.BANDS, bandKeys.stream().map(BytesRef::new).toList());
    StoredFields sf = s.storedFields();
    List<SignedDoc> out = new ArrayList<>();
    for (ScoreDoc sd : hits(s, q)) {
      Document d = sf.document(sd.doc, Set.of(Fields.DOC_KEY, Fields.SOURCE_PATH, Fields.SIGNATURE));
      int[] sig = LuceneDocs.signature(d.getBinaryValue(Fields.SIGNATURE));
      if (sig != null) out.add(new SignedDoc(d.get(Fields.DOC_KEY), d.get(Fields.SOURCE_PATH), sig));
    }
    out.sort(java.util.Comparator.comparing(SignedDoc::id));
    return out;
  }

  /**
   * The marks of the chunks {@code filter} lets through (all when null): the recurrence counts only
   * documents it lets through, and a near-duplicate mark naming a document it does not is dropped.
   */
  static Map<String, ChunkMarks> chunkMarks(IndexSearcher s, Collection<String> chunkIds, Query filter, DecodedChunks chunks)
      throws IOException {
    if (chunkIds.isEmpty()) return Map.of();
    Map<String, Integer> recurrence = new HashMap<>();
    Map<String, ChunkMarks> out = new HashMap<>();
    DecodedChunks.Reader docs = chunks.reader(s);
    for (int doc : chunkDocs(s, chunkIds, filter)) {
      Document d = docs.document(doc);
      String key = d.get(Fields.CHUNK_KEY);
      int rec = 0;
      if (key != null) {
        Integer known = recurrence.get(key);
        if (known == null) {
          Term t = new Term(Fields.CHUNK_KEYS, key);
          known = filter == null ? liveCount(s, t) : s.count(Acl.restrict(new TermQuery(t), filter));
          recurrence.put(key, known);
        }
        rec = known;
      }
      String near = d.get(Fields.NEAR_DUP_OF);
      var sim = d.getField(Fields.NEAR_SIM);
      if (near != null && !readable(s, near, filter)) {
        near = null;
        sim = null;
      }
      out.put(d.get(Fields.CHUNK_ID), new ChunkMarks(d.get(Fields.DOC_KEY), near == null ? "" : near,
          sim == null ? 0 : sim.numericValue().doubleValue(), rec));
    }
    return out;
  }

  /**
   * The live chunk documents of {@code chunkIds} that {@code filter} lets through (all when null), as
   * top-level document numbers in ascending order (the order a search for them returns), found by
   * {@link #idDocs} without building or rewriting a query per request.
   */
  static int[] chunkDocs(IndexSearcher s, Collection<String> chunkIds, Query filter) throws IOException {
    List<BytesRef> ids = idTerms(chunkIds);
    org.apache.lucene.search.Weight allowed = allowed(s, filter);
    int[] out = new int[ids.size()];
    int n = 0;
    for (var leaf : s.getIndexReader().leaves()) {
      for (long[] d : idDocs(leaf, ids, Fields.TYPE_CHUNK, allowed)) {
        if (n == out.length) out = java.util.Arrays.copyOf(out, 2 * n + 1);
        out[n++] = leaf.docBase + (int) d[0];
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** The distinct ids, sorted, as terms (the order {@link #idDocs} seeks them in). */
  static List<BytesRef> idTerms(Collection<String> ids) {
    List<BytesRef> terms = new ArrayList<>();
    for (String id : new TreeSet<>(ids)) terms.add(new BytesRef(id));
    return terms;
  }

  /** The weight of {@code filter} for {@link #idDocs}, or null for none. */
  static org.apache.lucene.search.Weight allowed(IndexSearcher s, Query filter) throws IOException {
    return filter == null ? null
        : s.createWeight(s.rewrite(filter), org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES, 1f);
  }

  /**
   * The live documents of one segment whose {@link Fields#CHUNK_ID} is one of {@code ids} and whose
   * {@link Fields#TYPE} is {@code type}, that {@code allowed} (null: every one) lets through, as {local
   * document, index of its id in {@code ids}}, in document order (ties in the order of the ids). Each
   * id is sought once in the segment's terms; the type's postings and the filter's documents are then
   * advanced along the sorted documents.
   */
  static List<long[]> idDocs(org.apache.lucene.index.LeafReaderContext leaf, List<BytesRef> ids, String type,
      org.apache.lucene.search.Weight allowed) throws IOException {
    var reader = leaf.reader();
    Terms terms = reader.terms(Fields.CHUNK_ID);
    PostingsEnum typed = reader.postings(new Term(Fields.TYPE, type), PostingsEnum.NONE);
    if (terms == null || typed == null) return List.of();
    org.apache.lucene.search.DocIdSetIterator allow = null;
    if (allowed != null) {
      var scorer = allowed.scorer(leaf);
      if (scorer == null) return List.of();
      allow = scorer.iterator();
    }
    // Postings do not skip deleted documents: a replaced document's old chunks are still here.
    var live = reader.getLiveDocs();
    TermsEnum te = terms.iterator();
    PostingsEnum pe = null;
    List<long[]> found = new ArrayList<>();
    for (int w = 0; w < ids.size(); w++) {
      if (!te.seekExact(ids.get(w))) continue;
      pe = te.postings(pe, PostingsEnum.NONE);
      for (int doc = pe.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
        if (live == null || live.get(doc)) found.add(new long[] {doc, w});
      }
    }
    found.sort(java.util.Comparator.comparingLong(x -> x[0]));
    List<long[]> out = new ArrayList<>(found.size());
    for (long[] d : found) {
      int doc = (int) d[0];
      if (typed.docID() < doc) typed.advance(doc);
      if (typed.docID() != doc) continue; // another type of document of the same chunk
      if (allow != null) {
        if (allow.docID() < doc) allow.advance(doc);
        if (allow.docID() != doc) continue;
      }
      out.add(d);
    }
    return out;
  }

  /** How many live documents hold {@code t}: {@code s.count(new TermQuery(t))} without a query. */
  static int liveCount(IndexSearcher s, Term t) throws IOException {
    int n = 0;
    for (var leaf : s.getIndexReader().leaves()) {
      var reader = leaf.reader();
      var live = reader.getLiveDocs();
      if (live == null) {
        n += reader.docFreq(t);
        continue;
      }
      PostingsEnum pe = reader.postings(t, PostingsEnum.NONE);
      if (pe == null) continue;
      for (int doc = pe.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
        if (live.get(doc)) n++;
      }
    }
    return n;
  }

  /** Whether document {@code docId} is stored and {@code filter} (null: none) lets its record through. */
  static boolean readable(IndexSearcher s, String docId, Query filter) throws IOException {
    return filter == null || s.count(Acl.restrict(Acl.record(docId), filter)) > 0;
  }

  static List<CorpusDoc> documents(IndexSearcher s) throws IOException {
    StoredFields sf = s.storedFields();
    List<CorpusDoc> out = new ArrayList<>();
    for (ScoreDoc sd : hits(s, new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DOC)))) {
      Document d = sf.document(sd.doc, new java.util.HashSet<>(RECORD_FIELDS) {
        @Override
        public boolean contains(Object o) {
          return super.contains(o) || (o instanceof String f && f.startsWith(Fields.META_PREFIX));
        }
      });
      String near = d.get(Fields.NEAR_DUP_OF);
      var sim = d.getField(Fields.NEAR_SIM);
      var time = d.getField(Fields.FILE_TIME);
      out.add(new CorpusDoc(d.get(Fields.DOC_KEY), d.get(Fields.URI), d.get(Fields.TITLE), d.get(Fields.SOURCE_PATH),
          StoredDocs.metadata(d), near == null ? "" : near, sim == null ? 0 : sim.numericValue().doubleValue(),
          time == null ? 0 : time.numericValue().longValue(), d.getField(Fields.CHUNK_COUNT).numericValue().intValue()));
    }
    out.sort(java.util.Comparator.comparing(CorpusDoc::id));
    return out;
  }

  static List<DuplicateRecord> duplicates(IndexSearcher s) throws IOException {
    StoredFields sf = s.storedFields();
    List<DuplicateRecord> out = new ArrayList<>();
    for (ScoreDoc sd : hits(s, new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DUP)))) {
      Document d = sf.document(sd.doc);
      out.add(new DuplicateRecord(d.get(Fields.DUP_PATH), d.get(Fields.DUP_ID), d.get(Fields.DOC_KEY)));
    }
    out.sort(java.util.Comparator.comparing(DuplicateRecord::path).thenComparing(DuplicateRecord::of));
    return out;
  }

  static List<Recurring> recurring(IndexSearcher s, int minDocuments) throws IOException {
    if (minDocuments < 2) throw new IllegalArgumentException("minDocuments must be >= 2, was " + minDocuments);
    Terms terms = MultiTerms.getTerms(s.getIndexReader(), Fields.CHUNK_KEYS);
    if (terms == null) return List.of();
    StoredFields sf = s.storedFields();
    List<Recurring> out = new ArrayList<>();
    TermsEnum te = terms.iterator();
    for (BytesRef t = te.next(); t != null; t = te.next()) {
      if (te.docFreq() < minDocuments) continue; // docFreq counts deleted documents too: an upper bound
      String key = t.utf8ToString();
      List<String> ids = new ArrayList<>();
      for (ScoreDoc sd : hits(s, new TermQuery(new Term(Fields.CHUNK_KEYS, key)))) {
        ids.add(sf.document(sd.doc, Set.of(Fields.DOC_KEY)).get(Fields.DOC_KEY));
      }
      if (ids.size() < minDocuments) continue;
      ids.sort(null);
      Query chunk = new BooleanQuery.Builder()
          .add(new TermQuery(new Term(Fields.CHUNK_KEY, key)), BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(Fields.DOC_KEY, ids.get(0))), BooleanClause.Occur.FILTER)
          .build();
      ScoreDoc[] hit = s.search(chunk, 1).scoreDocs;
      String text = hit.length == 0 ? "" : sf.document(hit[0].doc, Set.of(Fields.TEXT)).get(Fields.TEXT);
      out.add(new Recurring(key, text, ids));
    }
    out.sort(java.util.Comparator.comparingInt((Recurring r) -> -r.docIds().size()).thenComparing(Recurring::key));
    return out;
  }
}
