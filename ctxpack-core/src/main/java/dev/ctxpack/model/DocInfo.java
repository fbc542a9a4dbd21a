package dev.ctxpack.model;

import java.util.Map;
import java.util.TreeMap;

/** What is known about a document without its text: enough to label a source. */
public record DocInfo(String id, String uri, String title, Language language, Map<String, String> metadata) {
  public DocInfo {
    uri = uri == null ? "" : uri;
    title = title == null ? "" : title;
    language = language == null ? Language.UNKNOWN : language;
    metadata = metadata == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(metadata));
  }

  /** The document's date from its metadata ({@code date}, {@code modified} or {@code published}), or empty. */
  public String date() {
    for (String key : new String[] {"date", "modified", "published"}) {
      String v = metadata.get(key);
      if (v != null && !v.isBlank()) return v;
    }
    return "";
  }
}
