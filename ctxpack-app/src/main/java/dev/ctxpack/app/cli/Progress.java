package dev.ctxpack.app.cli;

import dev.ctxpack.ingest.IngestListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Ingestion progress on stderr ({@code --progress}): a one-line bar redrawn in place on a terminal,
 * or, when asked for where stderr is not a terminal ({@code --progress always}), one line per step:
 * the chunks of a file done (after each embedding batch and each slice of documents written), each
 * file done, each commit, and the merge of the index's segments at the end of the run.
 */
final class Progress implements IngestListener {
  /** When progress is shown ({@code --progress}). */
  enum When { auto, always, never }

  private final PrintWriter err;
  private final boolean enabled;
  private final boolean lines;
  private long started;
  private int totalFiles;
  private int filesDone;
  private long committed;

  /** A bar, drawn only when {@code enabled}. */
  Progress(PrintWriter err, boolean enabled) {
    this(err, enabled, false);
  }

  private Progress(PrintWriter err, boolean enabled, boolean lines) {
    this.err = err;
    this.enabled = enabled;
    this.lines = lines;
  }

  /**
   * The progress {@code when} asks for: {@code auto} a bar on a terminal unless the output is JSON,
   * {@code always} a bar on a terminal and lines elsewhere, {@code never} nothing.
   */
  static Progress of(PrintWriter err, When when, boolean json) {
    return switch (when) {
      case never -> new Progress(err, false);
      case auto -> new Progress(err, terminal() && !json);
      case always -> terminal() ? new Progress(err, true) : new Progress(err, true, true);
    };
  }

  static boolean terminal() {
    return System.console() != null && System.getenv("CI") == null;
  }

  @Override
  public void started(int totalFiles) {
    started = System.nanoTime();
    this.totalFiles = totalFiles;
    if (lines) line(totalFiles + " file" + (totalFiles == 1 ? "" : "s") + " to ingest");
    else draw(0, totalFiles, "");
  }

  @Override
  public void fileDone(Path file, int index, int totalFiles) {
    filesDone = index + 1;
    if (lines) {
      line("file " + (index + 1) + "/" + totalFiles + " done: " + file.getFileName());
      return;
    }
    draw(index + 1, totalFiles, file.getFileName().toString());
    if (enabled && index + 1 == totalFiles) {
      err.print("\r\033[K");
      err.flush();
    }
  }

  @Override
  public void embedded(Path file, int done, int total) {
    if (!enabled || lines) return;
    double secs = (System.nanoTime() - started) / 1e9;
    int width = 30;
    int filled = total == 0 ? width : (int) ((long) width * done / total);
    err.print("\r\033[K[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + done + "/" + total
        + " texts embedded " + String.format("%.1fs ", secs) + file.getFileName());
    err.flush();
  }

  @Override
  public void chunksDone(Path file, int done, int total) {
    if (!enabled) return;
    String where = "file " + (filesDone + 1) + "/" + totalFiles + " " + file.getFileName();
    if (lines) {
      line(where + ": " + done + "/" + total + " chunks");
      return;
    }
    double secs = (System.nanoTime() - started) / 1e9;
    int width = 30;
    int filled = total == 0 ? width : (int) ((long) width * done / total);
    err.print("\r\033[K[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + done + "/" + total
        + " chunks " + String.format("%.1fs ", secs) + where);
    err.flush();
  }

  @Override
  public void committed(List<String> docIds) {
    committed += docIds.size();
    if (lines) line("committed " + docIds.size() + " documents (" + committed + " in this run)");
  }

  @Override
  public void compacting() {
    if (enabled) line("merging the index's segments");
  }

  /** One progress line: {@code progress: } then the step and the seconds since the start. */
  private void line(String what) {
    double secs = (System.nanoTime() - started) / 1e9;
    err.println("progress: " + what + String.format(Locale.ROOT, " (%.1fs)", secs));
    err.flush();
  }

  private void draw(int done, int total, String name) {
    if (!enabled) return;
    int width = 30;
    int filled = total == 0 ? width : (int) ((long) width * done / total);
    double secs = (System.nanoTime() - started) / 1e9;
    String n = name.length() > 30 ? "…" + name.substring(name.length() - 29) : name;
    err.print("\r\033[K[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + done + "/" + total + " files "
        + String.format("%.1fs ", secs) + n);
    err.flush();
  }
}
