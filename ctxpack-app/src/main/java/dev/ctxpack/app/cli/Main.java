package dev.ctxpack.app.cli;

import dev.ctxpack.app.Errors;
import dev.ctxpack.app.ExitCodes;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ctxpack} command line. Exit codes: 0 success, 1 runtime failure, 2 usage error; an
 * error is one line on stderr naming what was wrong.
 *
 * <p>Every command takes {@code --help} and {@code --format text|json}; {@code --help} prints the
 * usage as text, or, when {@code --format json} is given too, as {@code {"command", "usage"}} (what
 * {@code help --format json} prints).
 */
@Command(
    name = "ctxpack",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Context packaging for retrieval-augmented generation: the smallest verbatim, deduplicated,"
        + " query-relevant evidence that fits a token budget, with citable sources and an audit trail.",
    subcommands = {
      DemoCommand.class,
      IngestCommand.class,
      ChunkCommand.class,
      RemoveCommand.class,
      CorpusReportCommand.class,
      SearchCommand.class,
      DedupCommand.class,
      CompressCommand.class,
      PackCommand.class,
      AssembleCommand.class,
      VerifyCommand.class,
      CheckCommand.class,
      ServeCommand.class,
      MemoryCommand.class,
      SolrCommand.class,
      HelpCommand.class
    })
public final class Main implements Runnable {
  /**
   * Lucene reports its JDK-specific code paths through java.util.logging at INFO and WARNING; the
   * CLI keeps stderr for its own messages. Held in a field: JUL keeps loggers weakly.
   */
  private static final java.util.logging.Logger LUCENE_LOG = java.util.logging.Logger.getLogger("org.apache.lucene");

  static {
    LUCENE_LOG.setLevel(java.util.logging.Level.SEVERE);
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin FormatOption format = new FormatOption();

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command: try 'ctxpack demo' or 'ctxpack --help'");
  }

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the CLI with the given streams and returns the exit code (used by tests). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = commandLine(out, err);
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("error: " + ex.getMessage());
      err.flush();
      return ExitCodes.USAGE;
    });
    cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
      err.println("error: " + Errors.message(ex));
      err.flush();
      return Errors.exitCode(ex);
    });
    int code;
    try {
      code = cl.execute(args);
    } catch (LinkageError | VirtualMachineError e) {
      // A broken installation (a class missing from the jar) or the JVM out of memory: one line,
      // and the stack trace only on request.
      err.println("error: internal failure: " + e + (System.getenv("CTXPACK_DEBUG") == null
          ? " (set CTXPACK_DEBUG=1 for the stack trace)" : ""));
      if (System.getenv("CTXPACK_DEBUG") != null) e.printStackTrace(err);
      code = ExitCodes.FAILURE;
    }
    out.flush();
    err.flush();
    return code;
  }

  /** The command tree, writing to {@code out} and {@code err}, as {@link #run} executes it (its error handlers aside). */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setExecutionStrategy(Main::execute);
    return cl;
  }

  /** Runs the last command parsed, as picocli does, except that {@code --help} with {@code --format json} prints JSON. */
  private static int execute(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult p = parsed; p != null; p = p.hasSubcommand() ? p.subcommand() : null) {
      if (!p.isUsageHelpRequested()) continue;
      if (p.matchedOptionValue("--format", Format.text) == Format.json) {
        PrintWriter out = p.commandSpec().commandLine().getOut();
        out.println(HelpCommand.json(p.commandSpec().commandLine()));
        out.flush();
        return ExitCodes.OK;
      }
      break;
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"ctxpack " + (v == null ? "0.1.0-SNAPSHOT" : v) + " (Java " + System.getProperty("java.version") + ")"};
    }
  }
}
