package dev.ctxpack.index;

import java.util.Objects;

/**
 * A file found to repeat a stored document exactly, not indexed itself (ctxpack 0.1): {@code
 * docId} is its id (a content id equals {@code of}). Written by {@link
 * WritableIndex.Batch#recordDuplicate}, listed by {@link CorpusCatalog#duplicates()}.
 */
public record DuplicateRecord(String path, String docId, String of) {
  public DuplicateRecord {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(docId, "docId");
    Objects.requireNonNull(of, "of");
  }
}
