package dev.ctxpack.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one way a file is loaded, by {@code ingest} and {@code chunk} alike, under {@link LoadLimits}:
 *
 * <ol>
 *   <li>its size is checked before reading ({@link Rejected.Reason#TOO_LARGE});
 *   <li>it is read, stopping as soon as it passes the limit (a file that grew, a device);
 *   <li>unless its format is binary (PDF), content that looks binary is refused ({@link
 *       Rejected.Reason#BINARY}), whatever the extension says;
 *   <li>the loader parses the bytes on a worker thread, held to the limits of its format (the
 *       decompressed content of a PDF, {@link Rejected.Reason#DECODED_TOO_LARGE}); one that takes longer than the timeout is
 *       interrupted and the file refused ({@link Rejected.Reason#TIMEOUT}). A parser that ignores
 *       the interrupt keeps its (daemon) thread until it ends, but ingestion goes on without it.
 *       A loader that throws anything other than {@link IngestException} (a parser bug, a stack
 *       overflow) fails the file with a message naming the error.
 * </ol>
 */
public final class LoadGuard {
  private static final AtomicInteger THREADS = new AtomicInteger();
  private final LoadLimits limits;

  public LoadGuard(LoadLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  public LoadLimits limits() {
    return limits;
  }

  /** Every document of {@code file} as {@code loader} reads it, or an exception naming what was wrong. */
  public List<LoadedDocument> load(Loader loader, Path file) throws IngestException {
    return load(loader, file, null);
  }

  /**
   * As {@link #load(Loader, Path)}; with {@code skipped} not null, a container skips the parts it
   * cannot read ({@link Loader#loadSkipping}), reporting each to {@code skipped} (called on the
   * loading thread; nothing is reported after this returns or throws, except by a parser that
   * outlives its timeout, to a consumer the caller then discards).
   */
  public List<LoadedDocument> load(Loader loader, Path file, java.util.function.Consumer<IngestSummary.BadLine> skipped)
      throws IngestException {
    if (loader.container()) return loadContainer(loader, file, skipped);
    byte[] content = read(file);
    if (!loader.binaryFormat()) refuseBinary(file, content);
    return withTimeout(file, () -> loader.load(file, content, limits));
  }

  /**
   * A container (JSON Lines): its first bytes are checked for binary content, the loader streams the
   * file, and each document is held to the size cap instead of the whole file.
   */
  private List<LoadedDocument> loadContainer(Loader loader, Path file,
      java.util.function.Consumer<IngestSummary.BadLine> skipped) throws IngestException {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(8192);
    } catch (IOException e) {
      throw Files2.cannotRead(file, e);
    }
    refuseBinary(file, head);
    List<LoadedDocument> docs = withTimeout(file, () -> skipped == null ? loader.load(file) : loader.loadSkipping(file, skipped));
    for (int i = 0; i < docs.size(); i++) {
      LoadedDocument d = docs.get(i);
      // A char takes at least one UTF-8 byte, so more chars than the cap is surely over it.
      if (d.text().length() > limits.maxFileBytes()) {
        throw new Rejected(Rejected.Reason.TOO_LARGE, file + ": document " + (d.id() != null ? "'" + d.id() + "'" : "#" + (i + 1))
            + " too large (" + mb(d.text().length()) + " M chars; the limit is " + mb(limits.maxFileBytes())
            + " MB per document of a JSON Lines file, --max-file-mb); skipped");
      }
    }
    return docs;
  }

  private List<LoadedDocument> withTimeout(Path file, java.util.concurrent.Callable<List<LoadedDocument>> load)
      throws IngestException {
    FutureTask<List<LoadedDocument>> task = new FutureTask<>(load);
    Thread worker = new Thread(task, "ctxpack-load-" + THREADS.incrementAndGet());
    worker.setDaemon(true);
    worker.start();
    try {
      return task.get(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      task.cancel(true);
      throw new Rejected(Rejected.Reason.TIMEOUT, file + ": not loaded within " + limits.timeout().toMillis()
          + " ms (--load-timeout-ms); parsing stopped");
    } catch (InterruptedException e) {
      task.cancel(true);
      Thread.currentThread().interrupt();
      throw new IngestException(file + ": interrupted while loading", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IngestException ie) throw ie;
      if (cause instanceof VirtualMachineError vme && !(cause instanceof StackOverflowError)) throw vme;
      throw new IngestException(file + ": could not be parsed: " + cause.getClass().getSimpleName()
          + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
    }
  }

  /** The file's bytes, refused as soon as they pass the size limit. */
  byte[] read(Path file) throws IngestException {
    long max = limits.maxFileBytes();
    try {
      long size = Files.size(file);
      if (size > max) throw tooLarge(file, mb(size) + " MB");
      try (InputStream in = Files.newInputStream(file)) {
        // Not trusting the size: a file may grow while read, a device may never end.
        byte[] content = in.readNBytes((int) max + 1);
        if (content.length > max) throw tooLarge(file, "more than " + mb(max) + " MB read");
        return content;
      }
    } catch (IOException e) {
      throw Files2.cannotRead(file, e);
    }
  }

  private static void refuseBinary(Path file, byte[] content) throws Rejected {
    String binary = Binary.why(content);
    if (binary != null) {
      throw new Rejected(Rejected.Reason.BINARY, file + ": binary content (" + binary + "), not text; skipped");
    }
  }

  private Rejected tooLarge(Path file, String size) {
    return new Rejected(Rejected.Reason.TOO_LARGE, file + ": too large (" + size + "; the limit is "
        + mb(limits.maxFileBytes()) + " MB, --max-file-mb); skipped");
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }
}
