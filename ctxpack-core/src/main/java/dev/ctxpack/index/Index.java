package dev.ctxpack.index;

import java.io.Closeable;

/**
 * A backend of documents, their chunks and their vectors: every role a caller may need, and what
 * an index backend implements in full (no method has a default that answers nothing). Callers take
 * the narrowest role: {@link SearchableIndex} to search and read (retrieval, compression), {@link
 * WritableIndex} to ingest, {@link CorpusCatalog} for the corpus report. Every backend passes the
 * contract suite {@code dev.ctxpack.index.IndexContract} (ctxpack-core's test jar) and is opened by
 * spec through {@link Indexes}, which finds its {@link IndexProvider}.
 */
public interface Index extends SearchableIndex, WritableIndex, CorpusCatalog, Closeable {

  /**
   * Where the index is, as messages name it: the directory of a Lucene index, the address and
   * collection of a server's.
   */
  String location();
}
