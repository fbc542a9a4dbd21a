package dev.ctxpack.solr.dev;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.cloud.ZkTestServer;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A SolrCloud on one machine: ZooKeeper and {@code --nodes} Solr nodes in this JVM, all on
 * loopback, data under {@code --dir}. Prints one line {@code solr ready: solr+zk://HOST:PORT/solr}
 * when it takes requests (a collection's spec is that line's address with {@code /COLLECTION}
 * added), then runs until stopped (SIGTERM, Ctrl-C, or end of input on a closed stdin is not a
 * stop): shutdown stops every node, then ZooKeeper, and prints {@code solr stopped}.
 *
 * <p>Lines on stdin control the nodes, for fault drills: {@code stop-node I} and {@code start-node
 * I} (I from 0), each answered by one line {@code node I stopped|started}, or {@code error: ...}.
 *
 * <p>Exit codes: 0 after a clean stop, 1 when the cluster cannot start, 2 on a usage error.
 */
public final class SolrDev {
  /** Jersey, inside Solr, warns through java.util.logging about a provider it does not need. Held: JUL keeps loggers weakly. */
  private static final java.util.logging.Logger JERSEY_LOG = java.util.logging.Logger.getLogger("org.glassfish.jersey");

  private SolrDev() {}

  record Options(int nodes, Path dir, int zkPort, boolean reset) {}

  static final String USAGE = "usage: ctxpack solr dev [--nodes N] [--dir DIR] [--zk-port PORT] [--reset]\n"
      + "  --nodes N       Solr nodes to start (default 3)\n"
      + "  --dir DIR       where ZooKeeper and the nodes keep their data (default ./.ctxpack-solr)\n"
      + "  --zk-port PORT  ZooKeeper's port on 127.0.0.1 (default 9983; 0 picks a free one)\n"
      + "  --reset         empty DIR first (a DIR that holds anything is refused without it)";

  public static void main(String[] args) {
    PrintStream out = System.out;
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    if (o == null) {
      out.println(USAGE);
      return;
    }
    MiniSolrCloudCluster cluster;
    ZkTestServer zk;
    try {
      prepare(o);
      JERSEY_LOG.setLevel(java.util.logging.Level.SEVERE);
      System.setProperty("host", "127.0.0.1");
      System.setProperty("solr.log.dir", o.dir().resolve("logs").toString());
      zk = new ZkTestServer(o.dir().resolve("zookeeper"), o.zkPort());
      zk.run();
      cluster = new MiniSolrCloudCluster(o.nodes(), o.dir().resolve("nodes"), MiniSolrCloudCluster.DEFAULT_CLOUD_SOLR_XML,
          JettyConfig.builder().build(), zk, true);
    } catch (Exception e) {
      System.err.println("error: the Solr cluster could not start: " + e);
      System.exit(1);
      return;
    }
    MiniSolrCloudCluster c = cluster;
    ZkTestServer z = zk;
    Thread stop = new Thread(() -> {
      try {
        c.shutdown();
        z.shutdown();
      } catch (Exception e) {
        System.err.println("error: stopping the cluster: " + e);
      }
      System.out.println("solr stopped");
      System.out.flush();
    }, "solr-dev-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    out.println("solr ready: solr+zk://" + zk.getZkAddress());
    out.flush();
    control(cluster, out);
    // stdin ended (or was never open): keep running until a signal stops the JVM.
    try {
      Thread.currentThread().join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static Options parse(String[] args) {
    int nodes = 3;
    Path dir = Path.of(".ctxpack-solr");
    int zkPort = 9983;
    boolean reset = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--help", "-h" -> {
          return null;
        }
        case "--reset" -> reset = true;
        case "--nodes", "--dir", "--zk-port" -> {
          if (i + 1 >= args.length) throw new IllegalArgumentException(a + " needs a value");
          String v = args[++i];
          if (a.equals("--dir")) {
            dir = Path.of(v);
          } else {
            int n;
            try {
              n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException(a + " takes a number, not '" + v + "'");
            }
            if (a.equals("--nodes")) {
              if (n < 1 || n > 16) throw new IllegalArgumentException("--nodes must be 1 to 16, was " + n);
              nodes = n;
            } else {
              if (n < 0 || n > 65535) throw new IllegalArgumentException("--zk-port must be 0 to 65535, was " + n);
              zkPort = n;
            }
          }
        }
        default -> throw new IllegalArgumentException("unknown option '" + a + "'");
      }
    }
    return new Options(nodes, dir.toAbsolutePath().normalize(), zkPort, reset);
  }

  /** Makes DIR ready: created if missing, emptied with --reset, refused if it holds anything otherwise. */
  static void prepare(Options o) throws IOException {
    Path dir = o.dir();
    if (Files.exists(dir) && !Files.isDirectory(dir)) throw new IOException(dir + " is a file, not a directory");
    if (Files.isDirectory(dir)) {
      boolean empty;
      try (Stream<Path> s = Files.list(dir)) {
        empty = s.findAny().isEmpty();
      }
      if (!empty && !o.reset()) {
        throw new IOException(dir + " holds data of an earlier run: pass --reset to empty it, or choose another --dir");
      }
      if (!empty) {
        try (Stream<Path> s = Files.walk(dir)) {
          for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
            if (!p.equals(dir)) Files.delete(p);
          }
        }
      }
    }
    Files.createDirectories(dir);
  }

  /** Reads node commands from stdin until it ends. */
  private static void control(MiniSolrCloudCluster cluster, PrintStream out) {
    // Fixed at start: the cluster's own list drops a node while it is stopped.
    List<JettySolrRunner> nodes = List.copyOf(cluster.getJettySolrRunners());
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] w = line.trim().split("\\s+");
        if (w.length == 0 || w[0].isEmpty()) continue;
        try {
          if (w.length != 2 || !(w[0].equals("stop-node") || w[0].equals("start-node"))) {
            throw new IllegalArgumentException("commands are 'stop-node I' and 'start-node I'");
          }
          int i = Integer.parseInt(w[1]);
          if (i < 0 || i >= nodes.size()) throw new IllegalArgumentException("no node " + i + " (0 to " + (nodes.size() - 1) + ")");
          JettySolrRunner node = nodes.get(i);
          if (w[0].equals("stop-node")) {
            cluster.stopJettySolrRunner(node);
            cluster.waitForJettyToStop(node);
            out.println("node " + i + " stopped");
          } else {
            // The same port: the node comes back under its name, and its replicas with it.
            cluster.startJettySolrRunner(node, true);
            cluster.waitForNode(node, 60);
            out.println("node " + i + " started");
          }
        } catch (Exception e) {
          out.println("error: " + e.getMessage());
        }
        out.flush();
      }
    } catch (IOException e) {
      // stdin is gone: no more commands
    }
  }
}
