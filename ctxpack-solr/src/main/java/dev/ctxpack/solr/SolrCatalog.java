package dev.ctxpack.solr;

import dev.ctxpack.index.CorpusCatalog;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.WritableIndex.SignedDoc;
import dev.ctxpack.index.WritableIndex.StoredDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.solr.common.SolrDocument;

/**
 * What ingestion compares and the corpus report lists, read from the records of the whole
 * collection (no access filter: these serve writers and the corpus's owner).
 */
final class SolrCatalog implements CorpusCatalog {
  private static final String[] STORED = {SolrFields.DOC_KEY, SolrFields.URI, SolrFields.TITLE, SolrFields.SOURCE_PATH,
      SolrFields.CONTENT_HASH, SolrFields.CHUNK_COUNT};
  private final SolrQueries queries;

  SolrCatalog(SolrQueries queries) {
    this.queries = queries;
  }

  Optional<StoredDoc> find(String docId) throws IOException {
    SolrQueries.Builder q = queries.of(SolrFields.TYPE_DOC, STORED).term(SolrFields.DOC_KEY, docId);
    q.q.setRows(1);
    List<SolrDocument> r = q.run().getResults();
    return r.isEmpty() ? Optional.empty() : Optional.of(SolrDocs.storedDoc(r.get(0)));
  }

  java.util.Map<String, StoredDoc> findAll(Collection<String> docIds) throws IOException {
    java.util.Map<String, StoredDoc> out = new java.util.LinkedHashMap<>();
    if (docIds.isEmpty()) return out;
    for (SolrDocument d : queries.of(SolrFields.TYPE_DOC, STORED).allIn(SolrFields.DOC_KEY, docIds)) {
      StoredDoc s = SolrDocs.storedDoc(d);
      out.put(s.id(), s);
    }
    return out;
  }

  List<StoredDoc> findBySourcePath(String prefix) throws IOException {
    List<StoredDoc> out = new ArrayList<>();
    for (SolrDocument d : queries.of(SolrFields.TYPE_DOC, STORED).prefix(SolrFields.SOURCE_PATH, prefix).all()) {
      out.add(SolrDocs.storedDoc(d));
    }
    out.sort(Comparator.comparing(StoredDoc::id));
    return out;
  }

  List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException {
    if (bandKeys.isEmpty()) return List.of();
    List<SignedDoc> out = new ArrayList<>();
    for (SolrDocument d : queries.of(SolrFields.TYPE_DOC, SolrFields.DOC_KEY, SolrFields.SOURCE_PATH, SolrFields.SIGNATURE)
        .allIn(SolrFields.BANDS, bandKeys)) {
      out.add(new SignedDoc(SolrDocs.str(d, SolrFields.DOC_KEY), SolrDocs.str(d, SolrFields.SOURCE_PATH), SolrDocs.signature(d)));
    }
    out.sort(Comparator.comparing(SignedDoc::id));
    return out;
  }

  @Override
  public List<CorpusDoc> corpusDocuments() throws IOException {
    List<CorpusDoc> out = new ArrayList<>();
    for (SolrDocument d : queries.of(SolrFields.TYPE_DOC, SolrFields.DOC_KEY, SolrFields.URI, SolrFields.TITLE,
        SolrFields.SOURCE_PATH, SolrFields.META, SolrFields.NEAR_DUP_OF, SolrFields.NEAR_SIM, SolrFields.FILE_TIME,
        SolrFields.CHUNK_COUNT).all()) {
      out.add(new CorpusDoc(SolrDocs.str(d, SolrFields.DOC_KEY), SolrDocs.str(d, SolrFields.URI), SolrDocs.str(d, SolrFields.TITLE),
          SolrDocs.str(d, SolrFields.SOURCE_PATH), SolrDocs.metadata(d), SolrDocs.str(d, SolrFields.NEAR_DUP_OF),
          SolrDocs.dbl(d, SolrFields.NEAR_SIM), SolrDocs.lng(d, SolrFields.FILE_TIME), SolrDocs.integer(d, SolrFields.CHUNK_COUNT)));
    }
    out.sort(Comparator.comparing(CorpusDoc::id));
    return out;
  }

  @Override
  public List<DuplicateRecord> duplicates() throws IOException {
    List<DuplicateRecord> out = new ArrayList<>();
    for (SolrDocument d : queries.of(SolrFields.TYPE_DUP, SolrFields.DUP_PATH, SolrFields.DUP_ID, SolrFields.DOC_KEY).all()) {
      out.add(new DuplicateRecord(SolrDocs.str(d, SolrFields.DUP_PATH), SolrDocs.str(d, SolrFields.DUP_ID),
          SolrDocs.str(d, SolrFields.DOC_KEY)));
    }
    out.sort(Comparator.comparing(DuplicateRecord::path).thenComparing(DuplicateRecord::of));
    return out;
  }

  @Override
  public List<Recurring> recurringChunks(int minDocuments) throws IOException {
    if (minDocuments < 2) throw new IllegalArgumentException("minDocuments must be >= 2, was " + minDocuments);
    SolrQueries.Builder f = queries.of(SolrFields.TYPE_DOC);
    f.q.setRows(0);
    f.q.setFacet(true);
    f.q.addFacetField(SolrFields.CHUNK_KEYS);
    f.q.setFacetLimit(-1);
    f.q.setFacetMinCount(minDocuments);
    List<Recurring> out = new ArrayList<>();
    for (var c : f.run().getFacetField(SolrFields.CHUNK_KEYS).getValues()) {
      String key = c.getName();
      List<String> ids = new ArrayList<>();
      for (SolrDocument d : queries.of(SolrFields.TYPE_DOC, SolrFields.DOC_KEY).term(SolrFields.CHUNK_KEYS, key).all()) {
        ids.add(SolrDocs.str(d, SolrFields.DOC_KEY));
      }
      if (ids.size() < minDocuments) continue;
      ids.sort(null);
      SolrQueries.Builder chunk = queries.of(SolrFields.TYPE_CHUNK, SolrFields.TEXT).term(SolrFields.CHUNK_KEY, key)
          .term(SolrFields.DOC_KEY, ids.get(0));
      chunk.q.setRows(1);
      List<SolrDocument> hit = chunk.run().getResults();
      out.add(new Recurring(key, hit.isEmpty() ? "" : SolrDocs.str(hit.get(0), SolrFields.TEXT), ids));
    }
    out.sort(Comparator.comparingInt((Recurring r) -> -r.docIds().size()).thenComparing(Recurring::key));
    return out;
  }
}
