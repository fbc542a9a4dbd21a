package dev.ctxpack.lucene;

import dev.ctxpack.index.WritableIndex.StoredDoc;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.IndexableField;

/** Reads the model back from stored Lucene fields. */
final class StoredDocs {
  private StoredDocs() {}

  static StoredDoc toStoredDoc(org.apache.lucene.document.Document d) {
    return new StoredDoc(d.get(Fields.DOC_KEY), d.get(Fields.URI), d.get(Fields.TITLE), d.get(Fields.SOURCE_PATH),
        d.get(Fields.CONTENT_HASH), d.getField(Fields.CHUNK_COUNT).numericValue().intValue());
  }
  static Chunk chunk(org.apache.lucene.document.Document d) {
    int start = d.getField(Fields.START).numericValue().intValue();
    int end = d.getField(Fields.END).numericValue().intValue();
    return new Chunk(d.get(Fields.CHUNK_ID), d.get(Fields.DOC_KEY), new Span(start, end), d.get(Fields.TEXT),
        d.get(Fields.SECTION), d.getField(Fields.PAGE).numericValue().intValue(),
        d.getField(Fields.TOKENS).numericValue().intValue());
  }
  static DocInfo docInfo(org.apache.lucene.document.Document d) {
    return new DocInfo(d.get(Fields.DOC_KEY), d.get(Fields.URI), d.get(Fields.TITLE),
        Language.fromCode(d.get(Fields.LANGUAGE)), metadata(d));
  }
  static Map<String, String> metadata(org.apache.lucene.document.Document d) {
    Map<String, String> m = new TreeMap<>();
    for (IndexableField f : d.getFields()) {
      if (f.name().startsWith(Fields.META_PREFIX)) m.put(f.name().substring(Fields.META_PREFIX.length()), f.stringValue());
    }
    return m;
  }
}
