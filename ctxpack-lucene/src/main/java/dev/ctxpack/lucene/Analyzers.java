package dev.ctxpack.lucene;

import dev.ctxpack.model.Language;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/**
 * The analyzers of the searchable body field, one field per language. Public for the other
 * Lucene-based backends (ctxpack-solr), whose fields must analyse exactly as these do.
 */
public final class Analyzers {
  public static final String BODY_EN = "body_en";
  public static final String BODY_PT = "body_pt";
  public static final String BODY_UND = "body_und";

  private Analyzers() {}

  public static String bodyField(Language language) {
    return switch (language) {
      case EN -> BODY_EN;
      case PT -> BODY_PT;
      case UNKNOWN -> BODY_UND;
    };
  }

  public static Map<String, Analyzer> perLanguage() {
    return Map.of(BODY_EN, new EnglishAnalyzer(), BODY_PT, new PortugueseAnalyzer(), BODY_UND, new StandardAnalyzer());
  }

  static Analyzer wrapper(Map<String, Analyzer> perField) {
    return new PerFieldAnalyzerWrapper(new StandardAnalyzer(), perField);
  }
}
