package dev.ctxpack.app.cli;

import dev.ctxpack.ingest.IngestListener;
import java.io.PrintWriter;
import java.nio.file.Path;

/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
final class Progress implements IngestListener {
  private final PrintWriter err;
  private final boolean enabled;
  private long started;

  Progress(PrintWriter err, boolean enabled) {
    this.err = err;
    this.enabled = enabled;
  }

  static boolean terminal() {
    return System.console() != null && System.getenv("CI") == null;
  }

  @Override
  public void started(int totalFiles) {
    started = System.nanoTime();
    draw(0, totalFiles, "");
  }

  @Override
  public void fileDone(Path file, int index, int totalFiles) {
    draw(index + 1, totalFiles, file.getFileName().toString());
    if (enabled && index + 1 == totalFiles) {
      err.print("\r\033[K");
      err.flush();
    }
  }

  @Override
  public void embedded(Path file, int done, int total) {
    if (!enabled) return;
    double secs = (System.nanoTime() - started) / 1e9;
    int width = 30;
    int filled = total == 0 ? width : (int) ((long) width * done / total);
    err.print("\r\033[K[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + done + "/" + total
        + " texts embedded " + String.format("%.1fs ", secs) + file.getFileName());
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
