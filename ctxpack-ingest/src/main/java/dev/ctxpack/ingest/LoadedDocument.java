package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker.SectionMark;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A document as a loader read it, before ids, language and chunks. {@code id} is null when the
 * source gives none (the content hash is used then).
 */
public record LoadedDocument(
    String id, String uri, String title, String text, Map<String, String> metadata, List<SectionMark> sections) {
  public LoadedDocument {
    Objects.requireNonNull(text, "text");
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    sections = sections == null ? List.of() : List.copyOf(sections);
  }
}
