package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import java.util.List;

/**
 * Cuts a document into chunks. Every implementation keeps the contract that {@code ChunkerContract}
 * tests: each chunk's text is {@code doc.text().substring(start, end)}, starts never go backwards,
 * no chunk splits a surrogate pair or exceeds the maximum token count, and every non-whitespace
 * character of the document is in at least one chunk. Chunk IDs depend only on the document id and
 * the chunk's position, so unchanged content gets the same IDs.
 */
public interface Chunker {

  /** The name used on the command line, e.g. {@code token} or {@code sentence}. */
  String name();

  /** The hard maximum of tokens per chunk. */
  int maxTokens();

  /**
   * The name and every parameter that changes the cut, e.g. {@code token:300:0.15}: an index
   * re-chunks its documents when this changes.
   */
  default String signature() {
    return name() + ":" + maxTokens() + ":0.0";
  }

  default List<Chunk> chunk(Document doc) {
    return chunk(doc, List.of());
  }

  /** Chunks {@code doc}, labelling each chunk with the section in force where it starts. */
  List<Chunk> chunk(Document doc, List<SectionMark> sections);

  /** A section heading path in force from char offset {@code start} on. */
  record SectionMark(int start, String path) {}

  /** The section in force at {@code offset}, or "" if none. */
  static String sectionAt(List<SectionMark> sections, int offset) {
    String path = "";
    for (SectionMark m : sections) {
      if (m.start() <= offset) path = m.path();
      else break;
    }
    return path;
  }

  /** The chunk id for position {@code ordinal} of document {@code docId}. */
  static String chunkId(String docId, int ordinal) {
    return docId + "#" + ordinal;
  }
}
