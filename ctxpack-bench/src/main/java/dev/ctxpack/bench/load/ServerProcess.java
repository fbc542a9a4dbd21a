package dev.ctxpack.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ctxpack serve} in its own JVM: started with a command line, its address read from the line
 * it prints on stderr ({@code ctxpack serve: listening on http://HOST:PORT (...)}), its stderr copied
 * to a log file, its memory read from {@code /proc/PID/status} and, through {@code jcmd}, its heap.
 * {@link #close()} sends SIGTERM (the service's graceful stop), then kills it if it does not exit.
 */
final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("ctxpack serve: listening on (http://\\S+)");

  private final Process process;
  private final URI base;
  private final Deque<String> tail;

  private ServerProcess(Process process, URI base, Deque<String> tail) {
    this.process = process;
    this.base = base;
    this.tail = tail;
  }

  /** The base address in a {@code listening on} line, or null when {@code line} is not one. */
  static URI listeningAddress(String line) {
    Matcher m = LISTENING.matcher(line);
    return m.find() ? URI.create(m.group(1)) : null;
  }

  /** Starts {@code command} and waits (up to {@code within}) until it says where it listens. */
  static ServerProcess start(List<String> command, Path log, Duration within) throws IOException, InterruptedException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    // A driver stopped early (Ctrl-C) takes its server with it.
    Runtime.getRuntime().addShutdownHook(new Thread(p::destroy, "ctxpack-serve-stop"));
    CompletableFuture<URI> address = new CompletableFuture<>();
    Deque<String> tail = new ArrayDeque<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
           PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
        for (String line; (line = r.readLine()) != null; ) {
          w.println(line);
          synchronized (tail) {
            tail.addLast(line);
            if (tail.size() > 20) tail.removeFirst();
          }
          URI u = listeningAddress(line);
          if (u != null) address.complete(u);
        }
      } catch (IOException e) {
        address.completeExceptionally(e);
      }
      address.completeExceptionally(new IOException("ctxpack serve exited before it listened"));
    }, "ctxpack-serve-stderr");
    reader.setDaemon(true);
    reader.start();
    try {
      return new ServerProcess(p, address.get(within.toMillis(), TimeUnit.MILLISECONDS), tail);
    } catch (ExecutionException | TimeoutException e) {
      p.destroyForcibly();
      String last;
      synchronized (tail) {
        last = String.join("\n", tail);
      }
      throw new IOException("ctxpack serve did not start (" + (e instanceof TimeoutException ? "no listening line within "
          + within.toSeconds() + " s" : e.getCause().getMessage()) + "); its last lines:\n" + last, e);
    }
  }

  URI uri(String path) {
    return base.resolve(path);
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** {@code VmRSS} (or another {@code /proc/PID/status} field) in KiB; -1 when unreadable. */
  long statusKib(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith(field + ":")) return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process is gone
    }
    return -1;
  }

  /**
   * The heap in use after a full collection, and the heap committed, in KiB ({@code jcmd PID GC.run},
   * then {@code GC.heap_info}); null when jcmd cannot attach.
   */
  long[] liveHeapKib() {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    if (!Files.isExecutable(jcmd)) return null;
    try {
      run(jcmd.toString(), Long.toString(process.pid()), "GC.run");
      String info = run(jcmd.toString(), Long.toString(process.pid()), "GC.heap_info");
      return heapInfo(info);
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** {@code [used, total]} KiB from the first {@code total NK, used NK} of a {@code GC.heap_info} answer. */
  static long[] heapInfo(String info) {
    Matcher m = Pattern.compile("total (\\d+)K, used (\\d+)K").matcher(info);
    return m.find() ? new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(1))} : null;
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) return;
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
