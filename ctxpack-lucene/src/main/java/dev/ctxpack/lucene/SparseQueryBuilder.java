package dev.ctxpack.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * Turns free text into a BM25 query without query syntax (so no input can be a syntax error):
 * the text is analysed once per language field, and each distinct term becomes a SHOULD clause,
 * boosted by how often it occurs in the query. At most {@link #MAX_TERMS} distinct terms per field
 * are used, so a very long query stays within Lucene's clause limit.
 */
final class SparseQueryBuilder {
  static final int MAX_TERMS = 256;
  private final Map<String, Analyzer> perField;

  SparseQueryBuilder(Map<String, Analyzer> perField) {
    this.perField = perField;
  }

  /** The query, or null when no field yields a term (e.g. only stop words or punctuation). */
  Query build(String text) {
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    int fields = 0;
    for (String field : new java.util.TreeSet<>(perField.keySet())) {
      Map<String, Integer> terms = terms(perField.get(field), field, text);
      if (terms.isEmpty()) continue;
      BooleanQuery.Builder fq = new BooleanQuery.Builder();
      for (Map.Entry<String, Integer> t : terms.entrySet()) {
        Query tq = new TermQuery(new Term(field, t.getKey()));
        fq.add(t.getValue() > 1 ? new BoostQuery(tq, t.getValue()) : tq, BooleanClause.Occur.SHOULD);
      }
      all.add(fq.build(), BooleanClause.Occur.SHOULD);
      fields++;
    }
    return fields == 0 ? null : all.build();
  }

  private static Map<String, Integer> terms(Analyzer analyzer, String field, String text) {
    Map<String, Integer> out = new LinkedHashMap<>();
    try (TokenStream ts = analyzer.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        String t = term.toString();
        if (out.containsKey(t)) out.merge(t, 1, Integer::sum);
        else if (out.size() < MAX_TERMS) out.put(t, 1);
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
