package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.solr.SolrCollections;
import dev.ctxpack.solr.SolrDevProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack solr}: ctxpack on SolrCloud. {@code init} creates a collection with ctxpack's
 * configset; {@code dev} runs a SolrCloud on this machine to try it (a child JVM from the
 * ctxpack-solr-dev build: Solr's Jetty line is not the one {@code serve} runs on).
 */
@Command(name = "solr", mixinStandardHelpOptions = true,
    description = "Run ctxpack over SolrCloud: every command's --index takes solr:http://HOST:PORT/solr/COLLECTION or"
        + " solr+zk://HOST:PORT[,HOST:PORT][/CHROOT]/COLLECTION.",
    subcommands = {SolrCommand.Init.class, SolrCommand.Dev.class})
final class SolrCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin FormatOption format = new FormatOption();

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: init or dev");
  }

  @Command(name = "init", mixinStandardHelpOptions = true,
      description = "Create a SolrCloud collection with ctxpack's configset (schema with the English, Portuguese and"
          + " language-neutral text fields, corpus marks, and the vector field when --dimension is given; otherwise the"
          + " first vectors ingested add it). Exit 0 when the collection already exists with ctxpack's schema"
          + " (its layout is left as it is); 1 when it exists with another schema or vector dimension.")
  static final class Init implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--index", paramLabel = "SPEC", required = true,
        description = "The collection: solr:http://HOST:PORT/solr/COLLECTION or solr+zk://HOST:PORT[,HOST:PORT][/CHROOT]/COLLECTION.")
    String index;

    @Option(names = "--shards", paramLabel = "N", defaultValue = "1", description = "Shards (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "1",
        description = "Replicas of each shard (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Option(names = "--dimension", paramLabel = "N", defaultValue = "0",
        description = "The embedder's vector dimension (384 for the bundled MiniLM), to create the vector field now;"
            + " 0 (default) leaves it to the first vectors ingested.")
    int dimension;

    @Mixin FormatOption format = new FormatOption();

    @Override
    public Integer call() throws Exception {
      IndexSpec idx = CommonOptions.spec(index, "--index");
      if (!idx.scheme().startsWith("solr")) throw new UsageException("--index: " + idx + " is not a Solr spec (solr: or solr+zk:)");
      if (shards < 1 || replicas < 1) throw new UsageException("--shards and --replicas must be >= 1");
      if (dimension < 0) throw new UsageException("--dimension must be >= 0");
      SolrCollections.Init r = SolrCollections.init(idx, shards, replicas, dimension);
      PrintWriter out = spec.commandLine().getOut();
      if (format.json()) {
        ObjectNode o = Json.object();
        o.put("index", r.spec()).put("created", r.created()).put("shards", r.shards()).put("replicas", r.replicas())
            .put("dimension", r.dimension());
        out.println(Json.line(o));
      } else {
        String layout = r.shards() + " shard" + (r.shards() == 1 ? "" : "s") + " x " + r.replicas() + " replica"
            + (r.replicas() == 1 ? "" : "s") + ", " + (r.dimension() == 0 ? "vector field added by the first vectors"
            : r.dimension() + "-dimension vectors");
        out.println((r.created() ? "created " : "exists with ctxpack's schema: ") + r.spec() + " (" + layout + ")");
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "dev", mixinStandardHelpOptions = true,
      description = "Start a SolrCloud on this machine (embedded ZooKeeper and N Solr nodes in one JVM, loopback only,"
          + " data under DIR). Prints 'solr ready: solr+zk://HOST:PORT/solr' when it takes requests (add /COLLECTION for"
          + " an index spec), and runs until stopped (SIGTERM or Ctrl-C: a clean shutdown, then 'solr stopped')."
          + " Lines 'stop-node I' / 'start-node I' on stdin stop and start a node. Needs the ctxpack-solr-dev build"
          + " (mvn install builds it; $CTXPACK_SOLR_DEV_JAR names it elsewhere).")
  static final class Dev implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3", description = "Solr nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".ctxpack-solr",
        description = "Where ZooKeeper and the nodes keep their data (default: ${DEFAULT-VALUE}); one that holds"
            + " data of an earlier run is refused without --reset.")
    Path dir;

    @Option(names = "--zk-port", paramLabel = "PORT", defaultValue = "9983",
        description = "ZooKeeper's port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int zkPort;

    @Option(names = "--reset", description = "Empty DIR first.")
    boolean reset;

    @Mixin FormatOption format = new FormatOption();

    @Override
    public Integer call() throws Exception {
      if (nodes < 1 || nodes > 16) throw new UsageException("--nodes must be 1 to 16, was " + nodes);
      if (zkPort < 0 || zkPort > 65535) throw new UsageException("--zk-port must be 0 to 65535, was " + zkPort);
      List<String> args = new ArrayList<>(List.of("--nodes", Integer.toString(nodes), "--dir", dir.toAbsolutePath().toString(),
          "--zk-port", Integer.toString(zkPort)));
      if (reset) args.add("--reset");
      Process child = new ProcessBuilder(SolrDevProcess.command(args)).redirectInput(ProcessBuilder.Redirect.INHERIT)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      Thread stop = new Thread(() -> {
        child.destroy(); // SIGTERM: the cluster shuts down cleanly
        try {
          child.waitFor();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "solr-dev-stop");
      Runtime.getRuntime().addShutdownHook(stop);
      PrintWriter out = spec.commandLine().getOut();
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          out.println(format.json() ? json(line) : line);
          out.flush();
        }
      }
      int code = child.waitFor();
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it waits for the child
      }
      return code == 0 || code == 143 ? ExitCodes.OK : code == 2 ? ExitCodes.USAGE : ExitCodes.FAILURE;
    }

    /** One line of the dev cluster as a JSON event: ready (with its spec), node stopped/started, stopped, or an error. */
    static String json(String line) {
      ObjectNode o = Json.object();
      if (line.startsWith(SolrDevProcess.READY)) {
        o.put("event", "ready").put("index", line.substring(SolrDevProcess.READY.length()));
      } else if (line.equals("solr stopped")) {
        o.put("event", "stopped");
      } else if (line.matches("node \\d+ (stopped|started)")) {
        String[] w = line.split(" ");
        o.put("event", "node " + w[2]).put("node", Integer.parseInt(w[1]));
      } else if (line.startsWith("error: ")) {
        o.put("event", "error").put("message", line.substring("error: ".length()));
      } else {
        o.put("event", "output").put("line", line);
      }
      return Json.line(o);
    }
  }
}
