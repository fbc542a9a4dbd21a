package dev.ctxpack.ingest;

import dev.ctxpack.index.WritableIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * When an ingestion commits its write batch: once {@code commitEvery} documents are pending, or
 * once {@code commitSeconds} seconds of work have passed since the last commit with something
 * pending ({@link IngestOptions}). After each commit the listener hears which documents are durable
 * and the counts are kept as they were ({@link #durable}), for the summary of an ingestion that a
 * later write failure stops.
 */
final class Commits {
  private final WritableIndex.Batch batch;
  private final CorpusDuplicates corpus;
  private final IngestListener listener;
  private final int every;
  private final long nanos;
  private final List<String> pending = new ArrayList<>();
  private long last = System.nanoTime();
  private Tally durable = new Tally();

  Commits(WritableIndex.Batch batch, CorpusDuplicates corpus, IngestListener listener, IngestOptions options) {
    this.batch = batch;
    this.corpus = corpus;
    this.listener = listener;
    this.every = options.commitEvery();
    this.nanos = options.commitSeconds() * 1_000_000_000L;
  }

  /** Document {@code id} was put into the batch. */
  void written(String id) {
    pending.add(id);
  }

  /** Commits when a rule says so. */
  void check(Tally tally) throws IOException {
    if (pending.size() >= every || (nanos > 0 && !pending.isEmpty() && System.nanoTime() - last >= nanos)) commit(tally);
  }

  /** Commits whatever the batch holds (the end of the ingestion). */
  void commit(Tally tally) throws IOException {
    batch.commit();
    corpus.committed();
    durable = tally.copy();
    last = System.nanoTime();
    if (pending.isEmpty()) return;
    listener.committed(List.copyOf(pending));
    pending.clear();
  }

  /** The counts as of the last commit (nothing before the first). */
  Tally durable() {
    return durable;
  }
}
