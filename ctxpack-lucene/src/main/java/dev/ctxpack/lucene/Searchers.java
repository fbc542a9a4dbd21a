package dev.ctxpack.lucene;

import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;

/**
 * The searchers of one Lucene directory: a {@link SearcherManager} opened once the directory holds
 * a commit, refreshed after this process commits ({@link #refresh()}) and, at most once a second on
 * a search, for commits of another writer. Every read of {@link LuceneIndex} runs through {@link
 * #withSearcher}.
 */
final class Searchers {
  private final Directory directory;
  private SearcherManager searchers;

  Searchers(Directory directory) {
    this.directory = directory;
  }

  private synchronized SearcherManager searchers() throws IOException {
    if (searchers == null) {
      if (!DirectoryReader.indexExists(directory)) return null;
      searchers = new SearcherManager(directory, null);
    }
    return searchers;
  }

  /** Makes what this process committed visible to new searches. */
  void refresh() throws IOException {
    SearcherManager sm = searchers();
    if (sm != null) sm.maybeRefreshBlocking();
  }

  interface SearchFn<T> {
    T apply(IndexSearcher s) throws IOException;
  }

  /** How often a search checks for commits made by another writer (e.g. {@code ctxpack ingest} beside {@code serve}). */
  private static final long REFRESH_NANOS = 1_000_000_000L;
  private volatile long checkedAt = System.nanoTime();

  /** {@code fn} over the current searcher; {@code empty} while the directory holds no commit. */
  <T> T withSearcher(SearchFn<T> fn, T empty) throws IOException {
    SearcherManager sm = searchers();
    if (sm == null) return empty;
    long now = System.nanoTime();
    if (now - checkedAt > REFRESH_NANOS) {
      checkedAt = now;
      // Non-blocking: if another thread is refreshing, this search uses the current reader.
      sm.maybeRefresh();
    }
    IndexSearcher s = sm.acquire();
    try {
      return fn.apply(s);
    } finally {
      sm.release(s);
    }
  }

  synchronized void close() throws IOException {
    if (searchers != null) searchers.close();
    searchers = null;
  }
}
