package dev.ctxpack.solr;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.CorpusMarks;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.WritableIndex.StoredDoc;
import dev.ctxpack.lucene.Analyzers;
import dev.ctxpack.lucene.SentenceVectorCodec;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.similarity.Boilerplate;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * The Solr documents of one entry, and the model read back from stored Solr fields: the same
 * content as the embedded index's Lucene documents ({@code dev.ctxpack.lucene.LuceneDocs}), flat.
 */
final class SolrDocs {
  /** The access value of a document without labels (a control character no label may hold). */
  static final String UNLABELLED = "\u0000";

  private SolrDocs() {}

  static List<SolrInputDocument> of(IndexEntry e) {
    Document doc = e.doc();
    String route = SolrFields.route(doc.id());
    List<String> acl = acl(doc.metadata());
    List<SolrInputDocument> out = new ArrayList<>(e.chunks().size() + e.vectors().size() + 1);
    SolrInputDocument rec = base(route + "rec", SolrFields.TYPE_DOC, doc.id(), acl);
    rec.setField(SolrFields.URI, doc.uri());
    rec.setField(SolrFields.TITLE, doc.title());
    rec.setField(SolrFields.LANGUAGE, doc.language().code());
    rec.setField(SolrFields.SOURCE_PATH, e.sourcePath());
    rec.setField(SolrFields.CONTENT_HASH, e.contentHash());
    rec.setField(SolrFields.TEXT, doc.text());
    rec.setField(SolrFields.CHUNK_COUNT, e.chunks().size());
    setMetadata(rec, doc.metadata());
    corpus(rec, e);
    out.add(rec);
    String body = Analyzers.bodyField(doc.language());
    List<List<ChunkVector>> sentences = new ArrayList<>(e.chunks().size());
    for (int i = 0; i < e.chunks().size(); i++) sentences.add(new ArrayList<>());
    for (ChunkVector v : e.sentenceVectors()) sentences.get(v.chunk()).add(v);
    for (int i = 0; i < e.chunks().size(); i++) {
      Chunk c = e.chunks().get(i);
      SolrInputDocument d = base(route + "c." + i, SolrFields.TYPE_CHUNK, doc.id(), acl);
      d.setField(SolrFields.CHUNK_ID, c.id());
      BytesRef sv = SentenceVectorCodec.encode(sentences.get(i));
      if (sv != null) d.setField(SolrFields.SENTENCE_VECTORS, BytesRef.deepCopyOf(sv).bytes);
      d.setField(SolrFields.URI, doc.uri());
      d.setField(SolrFields.TITLE, doc.title());
      d.setField(SolrFields.LANGUAGE, doc.language().code());
      setMetadata(d, doc.metadata());
      d.setField(SolrFields.TEXT, c.text());
      d.setField(SolrFields.START, c.span().start());
      d.setField(SolrFields.END, c.span().end());
      d.setField(SolrFields.SECTION, c.section());
      d.setField(SolrFields.PAGE, c.page());
      d.setField(SolrFields.TOKENS, c.tokens());
      d.setField(SolrFields.ORDINAL, i);
      d.setField(SolrFields.CHUNK_KEY, chunkKey(e, i));
      if (e.corpus().nearDuplicate()) {
        d.setField(SolrFields.NEAR_DUP_OF, e.corpus().nearDuplicateOf());
        d.setField(SolrFields.NEAR_SIM, e.corpus().similarity());
      }
      String searchable = searchable(doc.title(), c.text());
      d.setField(body, searchable);
      int length = SolrBm25.length(body, searchable);
      d.setField(SolrFields.LENGTH, (long) length);
      if (length > 0) d.setField(SolrFields.NORM_LENGTH, SolrBm25.normLength(length));
      out.add(d);
    }
    for (int n = 0; n < e.vectors().size(); n++) {
      ChunkVector v = e.vectors().get(n);
      SolrInputDocument d = base(route + "v." + n, SolrFields.TYPE_VECTOR, doc.id(), acl);
      d.setField(SolrFields.CHUNK_ID, e.chunks().get(v.chunk()).id());
      d.setField(SolrFields.START, v.span().start());
      d.setField(SolrFields.END, v.span().end());
      List<Float> vec = new ArrayList<>(v.vector().length);
      for (float f : v.vector()) vec.add(f);
      d.setField(SolrFields.VECTOR, vec);
      out.add(d);
    }
    return out;
  }

  /** The record of an exact duplicate file: it goes with its original ({@link SolrFields#DOC_KEY} is the original's id). */
  static SolrInputDocument duplicate(DuplicateRecord copy) {
    SolrInputDocument d = base(SolrFields.route(copy.of()) + "dup." + copy.path().replace("!", "%21"),
        SolrFields.TYPE_DUP, copy.of(), List.of(UNLABELLED));
    d.setField(SolrFields.DUP_PATH, copy.path());
    d.setField(SolrFields.DUP_ID, copy.docId());
    return d;
  }

  /** What BM25 searches: the title (when there is one) and the chunk's text, as the embedded index searches it. */
  static String searchable(String title, String text) {
    return title == null || title.isBlank() ? text : title + "\n" + text;
  }

  private static SolrInputDocument base(String id, String type, String docKey, List<String> acl) {
    SolrInputDocument d = new SolrInputDocument();
    d.setField(SolrFields.ID, id);
    d.setField(SolrFields.TYPE, type);
    d.setField(SolrFields.DOC_KEY, docKey);
    d.setField(SolrFields.ACL, acl);
    return d;
  }

  static List<String> acl(Map<String, String> metadata) {
    List<String> labels = Access.parse(metadata.get(Access.METADATA_KEY));
    return labels.isEmpty() ? List.of(UNLABELLED) : labels;
  }

  private static void setMetadata(SolrInputDocument d, Map<String, String> metadata) {
    if (metadata.isEmpty()) return;
    List<String> values = new ArrayList<>(metadata.size());
    new TreeMap<>(metadata).forEach((k, v) -> values.add(k.length() + ":" + k + v));
    d.setField(SolrFields.META, values);
  }

  private static void corpus(SolrInputDocument rec, IndexEntry e) {
    CorpusMarks m = e.corpus();
    if (m.signature() != null) {
      ByteBuffer b = ByteBuffer.allocate(4 * m.signature().length);
      for (int v : m.signature()) b.putInt(v);
      rec.setField(SolrFields.SIGNATURE, b.array());
    }
    if (!m.bandKeys().isEmpty()) rec.setField(SolrFields.BANDS, m.bandKeys());
    if (m.nearDuplicate()) {
      rec.setField(SolrFields.NEAR_DUP_OF, m.nearDuplicateOf());
      rec.setField(SolrFields.NEAR_SIM, m.similarity());
    }
    if (m.fileTime() != 0) rec.setField(SolrFields.FILE_TIME, m.fileTime());
    TreeSet<String> keys = new TreeSet<>();
    for (int i = 0; i < e.chunks().size(); i++) keys.add(chunkKey(e, i));
    if (!keys.isEmpty()) rec.setField(SolrFields.CHUNK_KEYS, new ArrayList<>(keys));
  }

  private static String chunkKey(IndexEntry e, int i) {
    List<String> keys = e.corpus().chunkKeys();
    return keys.size() == e.chunks().size() ? keys.get(i) : Boilerplate.key(e.chunks().get(i).text());
  }

  // ---- reading back --------------------------------------------------------------------------

  static String str(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? "" : v.toString();
  }

  static int integer(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? 0 : ((Number) v).intValue();
  }

  static long lng(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? 0 : ((Number) v).longValue();
  }

  static double dbl(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? 0 : ((Number) v).doubleValue();
  }

  static byte[] bytes(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    if (v == null) return null;
    if (v instanceof byte[] b) return b;
    if (v instanceof ByteBuffer bb) {
      byte[] out = new byte[bb.remaining()];
      bb.duplicate().get(out);
      return out;
    }
    throw new IllegalStateException("field " + field + " holds " + v.getClass().getName() + ", not bytes");
  }

  static Map<String, String> metadata(SolrDocument d) {
    Map<String, String> m = new TreeMap<>();
    Collection<Object> values = d.getFieldValues(SolrFields.META);
    if (values == null) return m;
    for (Object o : values) {
      String s = o.toString();
      int colon = s.indexOf(':');
      int len = Integer.parseInt(s.substring(0, colon));
      m.put(s.substring(colon + 1, colon + 1 + len), s.substring(colon + 1 + len));
    }
    return m;
  }

  static Chunk chunk(SolrDocument d) {
    return new Chunk(str(d, SolrFields.CHUNK_ID), str(d, SolrFields.DOC_KEY),
        new Span(integer(d, SolrFields.START), integer(d, SolrFields.END)), str(d, SolrFields.TEXT),
        str(d, SolrFields.SECTION), integer(d, SolrFields.PAGE), integer(d, SolrFields.TOKENS));
  }

  static DocInfo docInfo(SolrDocument d) {
    return new DocInfo(str(d, SolrFields.DOC_KEY), str(d, SolrFields.URI), str(d, SolrFields.TITLE),
        Language.fromCode(str(d, SolrFields.LANGUAGE)), metadata(d));
  }

  static Document document(SolrDocument d) {
    return new Document(str(d, SolrFields.DOC_KEY), str(d, SolrFields.URI), str(d, SolrFields.TITLE),
        Language.fromCode(str(d, SolrFields.LANGUAGE)), metadata(d), str(d, SolrFields.TEXT));
  }

  static StoredDoc storedDoc(SolrDocument d) {
    return new StoredDoc(str(d, SolrFields.DOC_KEY), str(d, SolrFields.URI), str(d, SolrFields.TITLE),
        str(d, SolrFields.SOURCE_PATH), str(d, SolrFields.CONTENT_HASH), integer(d, SolrFields.CHUNK_COUNT));
  }

  static int[] signature(SolrDocument d) {
    byte[] b = bytes(d, SolrFields.SIGNATURE);
    if (b == null) return null;
    ByteBuffer buf = ByteBuffer.wrap(b);
    int[] out = new int[b.length / 4];
    for (int i = 0; i < out.length; i++) out[i] = buf.getInt();
    return out;
  }
}
