package dev.ctxpack.model;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A source document as stored in the index. {@code text} is the stored (cleaned) text that every
 * chunk offset refers to; {@code id} is stable: the caller's id, or a hash of the normalised content.
 */
public record Document(
    String id, String uri, String title, Language language, Map<String, String> metadata, String text) {
  public Document {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) throw new IllegalArgumentException("document id must not be blank");
    Objects.requireNonNull(text, "text");
    uri = uri == null ? "" : uri;
    title = title == null ? "" : title;
    language = language == null ? Language.UNKNOWN : language;
    metadata = metadata == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(metadata));
  }

  public DocInfo info() {
    return new DocInfo(id, uri, title, language, metadata);
  }
}
