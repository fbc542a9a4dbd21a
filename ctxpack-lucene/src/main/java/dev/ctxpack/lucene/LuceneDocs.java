package dev.ctxpack.lucene;

import dev.ctxpack.similarity.Boilerplate;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.CorpusMarks;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * Builds the Lucene documents of one entry: the record, one per chunk (carrying the chunk's
 * sentence vectors), one per vector window.
 */
final class LuceneDocs {
  private LuceneDocs() {}

  static List<org.apache.lucene.document.Document> block(IndexEntry e) {
    Document doc = e.doc();
    List<org.apache.lucene.document.Document> out = new ArrayList<>(e.chunks().size() + 1);
    var rec = new org.apache.lucene.document.Document();
    rec.add(new StringField(Fields.TYPE, Fields.TYPE_DOC, Field.Store.YES));
    rec.add(new StringField(Fields.DOC_KEY, doc.id(), Field.Store.YES));
    rec.add(new StringField(Fields.URI, doc.uri(), Field.Store.YES));
    rec.add(new StoredField(Fields.TITLE, doc.title()));
    rec.add(new StoredField(Fields.LANGUAGE, doc.language().code()));
    rec.add(new StringField(Fields.SOURCE_PATH, e.sourcePath(), Field.Store.YES));
    rec.add(new StoredField(Fields.CONTENT_HASH, e.contentHash()));
    rec.add(new StoredField(Fields.TEXT, doc.text()));
    rec.add(new StoredField(Fields.CHUNK_COUNT, e.chunks().size()));
    doc.metadata().forEach((k, v) -> rec.add(new StoredField(Fields.META_PREFIX + k, v)));
    Acl.index(rec, doc.metadata());
    corpus(rec, e);
    out.add(rec);
    String body = Analyzers.bodyField(doc.language());
    List<List<ChunkVector>> sentences = new ArrayList<>(e.chunks().size());
    for (int i = 0; i < e.chunks().size(); i++) sentences.add(new ArrayList<>());
    for (ChunkVector v : e.sentenceVectors()) sentences.get(v.chunk()).add(v);
    for (int i = 0; i < e.chunks().size(); i++) {
      Chunk c = e.chunks().get(i);
      var d = new org.apache.lucene.document.Document();
      d.add(new StringField(Fields.TYPE, Fields.TYPE_CHUNK, Field.Store.NO));
      d.add(new StringField(Fields.DOC_KEY, doc.id(), Field.Store.YES));
      d.add(new StringField(Fields.CHUNK_ID, c.id(), Field.Store.YES));
      // Right after the ids, so a reader of the sentence vectors stops before the text.
      BytesRef sv = SentenceVectorCodec.encode(sentences.get(i));
      if (sv != null) d.add(new StoredField(Fields.SENTENCE_VECTORS, sv));
      d.add(new StringField(Fields.URI, doc.uri(), Field.Store.YES));
      d.add(new StoredField(Fields.TITLE, doc.title()));
      d.add(new StoredField(Fields.LANGUAGE, doc.language().code()));
      doc.metadata().forEach((k, v) -> d.add(new StoredField(Fields.META_PREFIX + k, v)));
      Acl.index(d, doc.metadata());
      d.add(new StoredField(Fields.TEXT, c.text()));
      d.add(new StoredField(Fields.START, c.span().start()));
      d.add(new StoredField(Fields.END, c.span().end()));
      d.add(new StoredField(Fields.SECTION, c.section()));
      d.add(new StoredField(Fields.PAGE, c.page()));
      d.add(new StoredField(Fields.TOKENS, c.tokens()));
      d.add(new StoredField(Fields.ORDINAL, i));
      d.add(new StringField(Fields.CHUNK_KEY, chunkKey(e, i), Field.Store.YES));
      if (e.corpus().nearDuplicate()) {
        d.add(new StoredField(Fields.NEAR_DUP_OF, e.corpus().nearDuplicateOf()));
        d.add(new StoredField(Fields.NEAR_SIM, e.corpus().similarity()));
      }
      // The title is searchable with every chunk of its document; it is not part of the chunk text.
      String searchable = doc.title().isBlank() ? c.text() : doc.title() + "\n" + c.text();
      d.add(new TextField(body, searchable, Field.Store.NO));
      out.add(d);
    }
    // One document per vector window, pointing at its chunk; same block, so same atomicity.
    for (var v : e.vectors()) {
      var d = new org.apache.lucene.document.Document();
      d.add(new StringField(Fields.TYPE, Fields.TYPE_VECTOR, Field.Store.NO));
      d.add(new StringField(Fields.DOC_KEY, doc.id(), Field.Store.YES));
      d.add(new StringField(Fields.CHUNK_ID, e.chunks().get(v.chunk()).id(), Field.Store.YES));
      d.add(new org.apache.lucene.document.SortedDocValuesField(Fields.WINDOW_CHUNK, new BytesRef(e.chunks().get(v.chunk()).id())));
      d.add(new StoredField(Fields.START, v.span().start()));
      d.add(new StoredField(Fields.END, v.span().end()));
      d.add(new KnnFloatVectorField(Fields.VECTOR, v.vector(), VectorSimilarityFunction.DOT_PRODUCT));
      d.add(new StringField(Fields.HAS_VECTOR, "1", Field.Store.NO));
      Acl.index(d, doc.metadata());
      out.add(d);
    }
    return out;
  }

  /** The record's corpus fields: signature, band keys, near-duplicate mark, file time, chunk keys. */
  private static void corpus(org.apache.lucene.document.Document rec, IndexEntry e) {
    CorpusMarks m = e.corpus();
    if (m.signature() != null) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * m.signature().length);
      for (int v : m.signature()) b.putInt(v);
      rec.add(new StoredField(Fields.SIGNATURE, new BytesRef(b.array())));
    }
    for (String k : m.bandKeys()) rec.add(new StringField(Fields.BANDS, k, Field.Store.NO));
    if (m.nearDuplicate()) {
      rec.add(new StoredField(Fields.NEAR_DUP_OF, m.nearDuplicateOf()));
      rec.add(new StoredField(Fields.NEAR_SIM, m.similarity()));
    }
    if (m.fileTime() != 0) rec.add(new StoredField(Fields.FILE_TIME, m.fileTime()));
    java.util.Set<String> keys = new java.util.TreeSet<>();
    for (int i = 0; i < e.chunks().size(); i++) keys.add(chunkKey(e, i));
    for (String k : keys) rec.add(new StringField(Fields.CHUNK_KEYS, k, Field.Store.NO));
  }

  /** Chunk {@code i}'s boilerplate key: as ingestion computed it, else computed here. */
  private static String chunkKey(IndexEntry e, int i) {
    List<String> keys = e.corpus().chunkKeys();
    return keys.size() == e.chunks().size() ? keys.get(i) : Boilerplate.key(e.chunks().get(i).text());
  }

  /** The stored signature of a record, or null. */
  static int[] signature(BytesRef b) {
    if (b == null) return null;
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b.bytes, b.offset, b.length);
    int[] out = new int[b.length / 4];
    for (int i = 0; i < out.length; i++) out[i] = buf.getInt();
    return out;
  }
}
