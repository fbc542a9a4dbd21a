package dev.ctxpack.index;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The corpus catalog role of an {@link Index} (ctxpack 0.1): what the corpus report lists, the whole
 * corpus at once, from what ingestion stored (documents with their marks, exact duplicates that
 * were not indexed, chunk texts held by many documents).
 */
public interface CorpusCatalog {

  /** A stored document with its corpus marks and no text, for the corpus report. */
  record CorpusDoc(String id, String uri, String title, String sourcePath, Map<String, String> metadata,
      String nearDuplicateOf, double similarity, long fileTime, int chunks) {}

  /** A chunk text (its normalised key, one stored text) held by {@code docIds.size()} documents. */
  record Recurring(String key, String text, List<String> docIds) {}

  /** Every stored document with its marks, by id. */
  List<CorpusDoc> corpusDocuments() throws IOException;

  /** Every recorded exact duplicate ({@link WritableIndex.Batch#recordDuplicate}), by path then document. */
  List<DuplicateRecord> duplicates() throws IOException;

  /**
   * Chunk texts held by at least {@code minDocuments} (>= 2) stored documents, most documents first
   * (ties by key); each with its documents by id.
   */
  List<Recurring> recurringChunks(int minDocuments) throws IOException;
}
