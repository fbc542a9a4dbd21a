package dev.ctxpack.assemble;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/** Long-term and episodic memories per user. Thread-safe; writes are durable when they return. */
public interface MemoryStore extends Closeable {
  /** Stores a memory and returns it with its id. */
  Memory add(String user, Memory.Kind kind, String text) throws IOException;

  /** The user's memories, oldest first. */
  List<Memory> list(String user) throws IOException;

  /** Removes the user's memory {@code id}; false when the user has no such memory. */
  boolean delete(String user, String id) throws IOException;

  /**
   * What to bring into a session for {@code query}: the user's facts (best first when there are
   * more than {@code k}) and then the episodes most similar to the query, at most {@code k} of
   * each, each with its score.
   */
  List<Memory> recall(String user, String query, int k) throws IOException;
}
