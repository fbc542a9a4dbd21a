package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.MemoryViews;
import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ctxpack memory add|list|recall|delete}: a user's long-term facts and episodic memories, in
 * the memory store beside the index ({@code <index>/memory} unless {@code --memory DIR}).
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
    description = "Add, list, recall and delete a user's memories (facts and episodes), stored beside the index"
        + " (<index>/memory, or --memory DIR).",
    subcommands = {MemoryCommand.Add.class, MemoryCommand.ListMemories.class, MemoryCommand.Recall.class,
        MemoryCommand.Delete.class})
final class MemoryCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The subcommands' format when they give none: {@code ctxpack memory --format json list ...}. */
  @Mixin FormatOption format = new FormatOption();

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: add, list, recall or delete");
  }

  /** Where the memories are and which user: options every subcommand shares. */
  static final class Where {
    @Mixin CommonOptions common = new CommonOptions();

    @Option(names = "--memory", paramLabel = "DIR",
        description = "Memory directory. Default: <index>/memory (the index of --index, $CTXPACK_INDEX or ./.ctxpack).")
    Path memory;

    @Option(names = "--user", paramLabel = "USER", required = true, description = "The user whose memories these are.")
    String user;

    /** The store of --memory, else the one beside the index ({@code <index>/memory} for a Lucene index). */
    IndexSpec store() {
      return memory != null ? IndexSpec.ofPath(memory) : MemoryStores.beside(common.indexSpec());
    }

    /** The store, with the embedder when {@code embed} (adding and recalling need vectors; listing does not). */
    MemoryStore open(boolean embed) throws IOException {
      return open(store(), embed ? Components.embedder(common.embedder) : null);
    }

    static MemoryStore open(IndexSpec store, Embedder embedder) throws IOException {
      try {
        return MemoryStores.open(store, embedder);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
  }

  @Command(name = "add", mixinStandardHelpOptions = true, description = "Add a memory; the same text again returns the"
      + " one stored. JSON: the memory {id, user, kind, text, created}.")
  static final class Add implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin Where where = new Where();

    @Option(names = "--kind", paramLabel = "KIND", required = true,
        description = "fact (long-term, brought into every session) or episode (a past exchange, recalled by similarity).")
    String kind;

    @Option(names = "--text", paramLabel = "TEXT", description = "The memory's text.")
    String text;

    @Option(names = "--file", paramLabel = "FILE", description = "Read the memory's text from FILE (UTF-8; - for stdin).")
    Path file;

    @Override
    public Integer call() throws Exception {
      Memory.Kind k = Memory.Kind.parse(kind);
      if ((text == null) == (file == null)) throw new UsageException("give the memory as --text TEXT or --file FILE");
      String t = text != null ? text : file.toString().equals("-")
          ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8) : Files.readString(file, StandardCharsets.UTF_8);
      Memory m;
      try (MemoryStore store = where.open(true)) {
        m = store.add(where.user, k, t);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json(spec, where)) out.println(Json.line(MemoryViews.view(m, false)));
      else out.println(m.id() + "\t" + m.kind().key() + "\t" + m.created());
      return ExitCodes.OK;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "The user's memories, oldest first. JSON: {user, memories: [{id, user, kind, text, created}]}.")
  static final class ListMemories implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin Where where = new Where();

    @Override
    public Integer call() throws Exception {
      List<Memory> ms;
      try (MemoryStore store = where.open(false)) {
        ms = store.list(where.user);
      }
      print(spec, where, ms, false);
      return ExitCodes.OK;
    }
  }

  @Command(name = "recall", mixinStandardHelpOptions = true, description = "What a session for QUERY brings in: the"
      + " user's facts (the most relevant when more than -k), then the most similar episodes. JSON: {user, memories:"
      + " [{id, user, kind, text, created, score}]}.")
  static final class Recall implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin Where where = new Where();

    @Option(names = "--query", paramLabel = "Q", required = true, description = "The request's query.")
    String query;

    @Option(names = "-k", paramLabel = "K", defaultValue = "5", description = "Most facts and most episodes. Default: ${DEFAULT-VALUE}.")
    int k;

    @Override
    public Integer call() throws Exception {
      List<Memory> ms;
      try (MemoryStore store = where.open(true)) {
        ms = store.recall(where.user, query, k);
      }
      print(spec, where, ms, true);
      return ExitCodes.OK;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = "Delete the user's memories by id. JSON: {deleted: n, missing: [ids]}; exit 1 when one is missing.")
  static final class Delete implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin Where where = new Where();

    @Parameters(paramLabel = "ID", arity = "1..*")
    List<String> ids;

    @Override
    public Integer call() throws Exception {
      List<String> missing = new ArrayList<>();
      int deleted = 0;
      try (MemoryStore store = where.open(false)) {
        for (String id : ids) {
          if (store.delete(where.user, id)) deleted++;
          else missing.add(id);
        }
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json(spec, where)) {
        ObjectNode o = Json.object();
        o.put("deleted", deleted);
        ArrayNode m = o.putArray("missing");
        missing.forEach(m::add);
        out.println(Json.line(o));
      } else {
        out.println("deleted " + deleted + " memor" + (deleted == 1 ? "y" : "ies"));
      }
      PrintWriter err = spec.commandLine().getErr();
      for (String id : missing) err.println("error: user '" + where.user + "' has no memory with id '" + id + "'");
      return missing.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
  }

  /** Whether a subcommand writes JSON: its own {@code --format}, else the one given to {@code memory}, else text. */
  private static boolean json(CommandLine.Model.CommandSpec spec, Where where) {
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    if (parsed != null && parsed.hasMatchedOption("--format")) return where.common.json();
    Object parent = spec.parent() == null ? null : spec.parent().userObject();
    return parent instanceof MemoryCommand m ? m.format.json() : where.common.json();
  }

  private static void print(CommandLine.Model.CommandSpec spec, Where where, List<Memory> ms, boolean scores) {
    PrintWriter out = spec.commandLine().getOut();
    if (json(spec, where)) {
      out.println(Json.line(MemoryViews.list(where.user, ms, scores)));
      return;
    }
    for (Memory m : ms) {
      out.println(m.id() + "\t" + m.kind().key() + "\t" + m.created() + (scores ? "\t" + String.format(java.util.Locale.ROOT,
          "%.4f", m.score()) : "") + "\t" + m.text().replace('\n', ' '));
    }
  }
}
