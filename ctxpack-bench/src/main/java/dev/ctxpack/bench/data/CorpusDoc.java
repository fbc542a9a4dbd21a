package dev.ctxpack.bench.data;

import java.util.Objects;

/** One document of an evaluation corpus, as the data set gives it. */
public record CorpusDoc(String id, String title, String text) {
  public CorpusDoc {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) throw new IllegalArgumentException("document id must not be blank");
    title = title == null ? "" : title;
    text = text == null ? "" : text;
  }

  /** True when neither title nor text has anything to index. */
  public boolean isEmpty() {
    return title.isBlank() && text.isBlank();
  }
}
