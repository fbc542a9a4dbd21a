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
    Query q = new BooleanQuery.Builder()
        .add(new TermInSetQuery(Fields.CHUNK_ID, new TreeSet<>(chunkIds).stream().map(BytesRef::new).toList()),
            BooleanClause.Occur.FILTER)
        .add(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_CHUNK)), BooleanClause.Occur.FILTER)
        .build();
    Map<String, Integer> recurrence = new HashMap<>();
    Map<String, ChunkMarks> out = new HashMap<>();
    DecodedChunks.Reader docs = chunks.reader(s);
    for (ScoreDoc sd : s.search(Acl.restrict(q, filter), Math.max(1, chunkIds.size())).scoreDocs) {
      Document d = docs.document(sd.doc);
      String key = d.get(Fields.CHUNK_KEY);
      int rec = 0;
      if (key != null) {
        Integer known = recurrence.get(key);
        if (known == null) {
          known = s.count(Acl.restrict(new TermQuery(new Term(Fields.CHUNK_KEYS, key)), filter));
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
