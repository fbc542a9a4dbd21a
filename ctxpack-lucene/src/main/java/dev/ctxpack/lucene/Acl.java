package dev.ctxpack.lucene;

import dev.ctxpack.index.Access;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Access labels in the index: every Lucene document of a ctxpack document (its record, chunks and
 * vector windows) carries one {@link Fields#ACL} term per label, or {@link #UNLABELLED} when it has
 * none, so a principal's filter is one terms query applied inside every search.
 */
final class Acl {
  /** The term of a document without labels: a control character, which no label may hold ({@link Access#checkLabel}). */
  static final String UNLABELLED = "\u0000";

  private Acl() {}

  /** Adds the access terms of a document with {@code metadata} to {@code d}. */
  static void index(org.apache.lucene.document.Document d, Map<String, String> metadata) {
    List<String> labels = Access.parse(metadata.get(Access.METADATA_KEY));
    if (labels.isEmpty()) d.add(new StringField(Fields.ACL, UNLABELLED, Field.Store.NO));
    for (String l : labels) d.add(new StringField(Fields.ACL, l, Field.Store.NO));
  }

  /** The filter of what {@code access} may read, or null for everything. */
  static Query filter(Access access) {
    if (access.everything()) return null;
    List<BytesRef> terms = new ArrayList<>(access.labels().size() + 1);
    terms.add(new BytesRef(UNLABELLED));
    for (String l : access.labels()) terms.add(new BytesRef(l));
    return new TermInSetQuery(Fields.ACL, terms);
  }

  /** {@code q} scored as before, matching only what {@code filter} lets through (all when null). */
  static Query restrict(Query q, Query filter) {
    if (filter == null) return q;
    return new BooleanQuery.Builder().add(q, BooleanClause.Occur.MUST).add(filter, BooleanClause.Occur.FILTER).build();
  }

  /** The record of document {@code docId}. */
  static Query record(String docId) {
    return new BooleanQuery.Builder()
        .add(new TermQuery(new Term(Fields.DOC_KEY, docId)), BooleanClause.Occur.FILTER)
        .add(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DOC)), BooleanClause.Occur.FILTER)
        .build();
  }
}
