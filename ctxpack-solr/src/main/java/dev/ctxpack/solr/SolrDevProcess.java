package dev.ctxpack.solr;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The dev SolrCloud of the ctxpack-solr-dev build ({@code dev.ctxpack.solr.dev.SolrDev}: embedded
 * ZooKeeper and N Solr nodes on loopback) as a child JVM. Solr's nodes run on another Jetty line
 * than ctxpack's service, so they never share a JVM with it. {@code ctxpack solr dev} runs it in the
 * foreground; the evaluations start and stop one with {@link #start}.
 */
public final class SolrDevProcess implements Closeable {
  /** The line the dev cluster prints when it takes requests, before its ZooKeeper spec. */
  public static final String READY = "solr ready: ";

  private final Process process;
  private final String spec;

  private SolrDevProcess(Process process, String spec) {
    this.process = process;
    this.spec = spec;
  }

  /**
   * The dev cluster's jar: {@code $CTXPACK_SOLR_DEV_JAR}, else {@code ctxpack-solr-dev/target/} in
   * the checkout this code was built in, else in one above the working directory.
   */
  public static Path jar() throws IOException {
    String env = System.getenv("CTXPACK_SOLR_DEV_JAR");
    if (env != null && !env.isBlank()) {
      Path p = Path.of(env);
      if (!Files.isRegularFile(p)) throw new IOException("CTXPACK_SOLR_DEV_JAR names " + p + ", which is not a file");
      return p;
    }
    Path from;
    try {
      from = Path.of(SolrDevProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new IOException("cannot tell where ctxpack was built; set CTXPACK_SOLR_DEV_JAR to the dev cluster's jar", e);
    }
    // Beside the build this code came from (a checkout's jar or classes), else above the working directory.
    for (Path start : java.util.List.of(from.toAbsolutePath(), Path.of(System.getProperty("user.dir", ".")).toAbsolutePath())) {
      for (Path p = start; p != null; p = p.getParent()) {
        Path jar = p.resolve("ctxpack-solr-dev").resolve("target").resolve("ctxpack-solr-dev.jar");
        if (Files.isRegularFile(jar)) return jar;
      }
    }
    throw new IOException("the Solr dev cluster is not built: run `mvn -q install -DskipTests -pl ctxpack-solr-dev -am`"
        + " in the ctxpack checkout, or set CTXPACK_SOLR_DEV_JAR to its jar");
  }

  /** The command that runs the dev cluster with {@code args} ({@code --nodes N --dir DIR --zk-port P [--reset]}). */
  public static List<String> command(List<String> args) throws IOException {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> cmd = new ArrayList<>(List.of(java, "-jar", jar().toString()));
    cmd.addAll(args);
    return cmd;
  }

  /**
   * Starts a dev cluster of {@code nodes} nodes with its data in {@code dir} (emptied first) and
   * ZooKeeper on a free port, and waits until it takes requests; its stderr goes to this process's.
   */
  public static SolrDevProcess start(int nodes, Path dir) throws IOException {
    Process p = new ProcessBuilder(command(List.of("--nodes", Integer.toString(nodes), "--dir", dir.toAbsolutePath().toString(),
        "--zk-port", "0", "--reset"))).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith(READY)) {
        Thread drain = new Thread(() -> {
          try {
            while (out.readLine() != null) {
              // the cluster's later lines (node events, "solr stopped") are not needed here
            }
          } catch (IOException ignored) {
            // the child ended
          }
        }, "solr-dev-out");
        drain.setDaemon(true);
        drain.start();
        return new SolrDevProcess(p, line.substring(READY.length()));
      }
    }
    p.destroy();
    throw new IOException("the Solr dev cluster stopped before it was ready (exit " + waitFor(p) + ")");
  }

  private static int waitFor(Process p) {
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The cluster's ZooKeeper spec, without a collection: {@code solr+zk://127.0.0.1:PORT/solr}. */
  public String spec() {
    return spec;
  }

  /** Stops the cluster cleanly (SIGTERM) and waits for it. */
  @Override
  public void close() {
    process.destroy();
    waitFor(process);
  }
}
