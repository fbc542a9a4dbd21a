package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker.SectionMark;
import dev.ctxpack.model.Chunk;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A document as a loader read it, before cleaning, ids, language and chunks. {@code id} is null
 * when the source gives none (the content hash is used then). {@code pages} holds the char offset
 * in {@code text} where each page starts (page {@code i + 1} starts at {@code pages.get(i)}), empty
 * for sources without pages. {@code replacedChars} counts the U+FFFD characters that replaced
 * invalid input when the bytes were decoded (about one per invalid byte).
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
    return pageAt(pages, offset);
  }

  /** The 1-based page of {@code pages} (start offsets, ascending) holding {@code offset}; 0 without pages. */
  public static int pageAt(List<Integer> pages, int offset) {
    int lo = 0;
    int hi = pages.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (pages.get(mid) <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * {@code chunks} of this document's text, each with the page it starts on (unchanged when the
   * document has no pages): what ingest and {@code chunk} do after chunking.
   */
  public static List<Chunk> withPages(List<Chunk> chunks, List<Integer> pages) {
    if (pages.isEmpty()) return chunks;
    List<Chunk> out = new java.util.ArrayList<>(chunks.size());
    for (Chunk c : chunks) {
      out.add(new Chunk(c.id(), c.docId(), c.span(), c.text(), c.section(), pageAt(pages, c.span().start()),
          c.tokens()));
    }
    return out;
  }
}
