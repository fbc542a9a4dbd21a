package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker.SectionMark;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A document as a loader read it, before cleaning, ids, language and chunks. {@code id} is null
 * when the source gives none (the content hash is used then). {@code pages} holds the char offset
 * in {@code text} where each page starts (page {@code i + 1} starts at {@code pages.get(i)}), empty
 * for sources without pages. {@code replacedChars} counts the bytes of invalid input that were
 * decoded as U+FFFD.
 */
public record LoadedDocument(
    String id, String uri, String title, String text, Map<String, String> metadata, List<SectionMark> sections,
    List<Integer> pages, int replacedChars) {
  public LoadedDocument {
    Objects.requireNonNull(text, "text");
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    sections = sections == null ? List.of() : List.copyOf(sections);
    pages = pages == null ? List.of() : List.copyOf(pages);
    if (replacedChars < 0) throw new IllegalArgumentException("replacedChars must be >= 0, was " + replacedChars);
  }

  /** A document without pages, decoded without replacements. */
  public LoadedDocument(
      String id, String uri, String title, String text, Map<String, String> metadata, List<SectionMark> sections) {
    this(id, uri, title, text, metadata, sections, List.of(), 0);
  }

  /** The 1-based page holding char {@code offset}, or 0 when the document has no pages. */
  public int pageAt(int offset) {
    int page = 0;
    for (int i = 0; i < pages.size() && pages.get(i) <= offset; i++) page = i + 1;
    return page;
  }
}
