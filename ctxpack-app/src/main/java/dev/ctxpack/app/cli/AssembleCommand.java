package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.AssembleEndpoint;
import dev.ctxpack.app.json.AssembleRequests;
import dev.ctxpack.app.json.AssembleViews;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.assemble.AssembleRequest;
import dev.ctxpack.assemble.Assembler;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.assemble.Replay;
import dev.ctxpack.assemble.ReplayChart;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.pack.StageListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "assemble", mixinStandardHelpOptions = true,
    description = "Assemble a whole context window (system prompt, tools, memories, few-shot examples, history,"
        + " retrieved evidence, query) within one token budget; or replay a conversation turn by turn.")
final class AssembleCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--request", paramLabel = "FILE",
      description = "The request, one JSON object (docs/API.md); - for stdin. With --replay: the base request"
          + " (model, system, tools, limits...) of every turn.")
  String request;

  @Option(names = "--batch", paramLabel = "FILE", description = "JSON Lines of requests, one result line each; - for stdin.")
  String batch;

  @Option(names = "--replay", paramLabel = "FILE",
      description = "A transcript (a JSON list of chat messages, or JSON Lines of them): assemble at every user turn"
          + " and report the tokens per component per turn.")
  String replay;

  @Option(names = "--svg", paramLabel = "OUT", description = "With --replay: also draw the tokens per turn as an SVG chart.")
  Path svg;

  @Option(names = "--index", paramLabel = "SPEC",
      description = "Index the evidence is retrieved from: a directory, or lucene:DIR (default: $CTXPACK_INDEX or"
          + " ./.ctxpack, if it exists; without one, no evidence).")
  String index;

  @Option(names = "--memory", paramLabel = "DIR",
      description = "Memory store a request's \"user\" recalls from (ctxpack memory). Default: <index>/memory.")
  Path memory;

  @Mixin LlmFlags llm = new LlmFlags();

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder of the index (as at ingest); also ranks few-shot examples. Default: ${DEFAULT-VALUE}.")
  String embedder;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    int modes = (request != null && replay == null ? 1 : 0) + (batch != null ? 1 : 0) + (replay != null ? 1 : 0);
    if (modes != 1) throw new UsageException("give one of --request FILE, --batch FILE or --replay FILE");
    if (svg != null && replay == null) throw new UsageException("--svg needs --replay");
    if (batch != null && request != null) throw new UsageException("give --request or --batch, not both");
    IndexSpec spec = indexSpec();
    try (Index idx = spec == null ? null : Components.openExisting(spec); MemoryStore memories = openMemory(spec, idx)) {
      Embedder e = idx != null ? Components.searchEmbedder(idx, embedder) : null;
      Assembler assembler = Components.assembler(e, idx == null ? null : Components.packer(idx, e, StageListener.NONE), memories,
          llm.client());
      if (batch != null) return BatchRunner.run(batch, out, AssembleEndpoint.of(assembler));
      if (replay != null) return replay(assembler, out);
      ObjectNode req = readObject(request);
      if (format.json()) {
        out.println(Json.line(AssembleEndpoint.of(assembler).handle(req)));
      } else {
        AssembleRequest r = AssembleRequests.parse(req, assembler.retrieves());
        out.print(Texts.assembly(r.model().name(), assembler.assemble(r)));
      }
      return ExitCodes.OK;
    }
  }

  /** The index of --index; else of $CTXPACK_INDEX or ./.ctxpack, if there is one; else none. */
  private IndexSpec indexSpec() throws IOException {
    if (index != null) return CommonOptions.spec(index, "--index");
    String env = System.getenv("CTXPACK_INDEX");
    IndexSpec spec = env != null && !env.isBlank() ? CommonOptions.spec(env, "CTXPACK_INDEX") : IndexSpec.ofPath(Path.of(".ctxpack"));
    return Indexes.exists(spec) ? spec : null;
  }

  /** The memory store of {@code --memory}, else the one beside the index; none without either. */
  private MemoryStore openMemory(IndexSpec spec, Index idx) throws IOException {
    IndexSpec store = memory != null ? IndexSpec.ofPath(memory) : idx != null ? MemoryStores.beside(spec) : null;
    if (store == null) return null;
    Embedder e = idx != null ? Components.searchEmbedder(idx, embedder) : Components.embedder(embedder);
    return MemoryCommand.Where.open(store, e);
  }

  private int replay(Assembler assembler, PrintWriter out) throws IOException {
    ObjectNode base = request != null ? readObject(request) : Json.object();
    base.remove("history");
    base.remove("query");
    List<Turn> transcript = transcript(Path.of(replay));
    AssembleRequest r = AssembleRequests.parse(base, assembler.retrieves());
    Replay.Result result = new Replay(assembler).run(r, transcript);
    if (format.json()) out.println(Json.line(AssembleViews.replay(result)));
    else out.print(Texts.replay(result));
    if (svg != null) {
      Files.writeString(svg, ReplayChart.svg(result, "ctxpack replay: " + Path.of(replay).getFileName() + " (" + r.model().name()
          + ", limit " + r.limit() + ")"), StandardCharsets.UTF_8);
    }
    return ExitCodes.OK;
  }

  /** A JSON list of chat messages, {@code {"messages": [...]}}, or JSON Lines of messages. */
  static List<Turn> transcript(Path file) throws IOException {
    if (!Files.exists(file)) throw new java.nio.file.NoSuchFileException(file.toString());
    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
    ArrayNode messages = Json.MAPPER.createArrayNode();
    if (text.startsWith("[") || text.startsWith("{\"messages\"")) {
      JsonNode n;
      try {
        n = Json.MAPPER.readTree(text);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalArgumentException(file + ": invalid JSON: " + e.getOriginalMessage());
      }
      if (n.isObject()) n = n.get("messages");
      if (n == null || !n.isArray()) throw new IllegalArgumentException(file + ": expected a list of messages");
      messages = (ArrayNode) n;
    } else {
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].isBlank()) continue;
        try {
          messages.add(Json.parseObject(lines[i]));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage());
        }
      }
    }
    try {
      return AssembleRequests.turns(messages, "transcript", new long[1]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage());
    }
  }

  private static ObjectNode readObject(String source) throws IOException {
    String text;
    if (source.equals("-")) {
      text = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    } else {
      Path p = Path.of(source);
      if (!Files.exists(p)) throw new java.nio.file.NoSuchFileException(source);
      text = Files.readString(p, StandardCharsets.UTF_8);
    }
    try {
      return Json.parseObject(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage());
    }
  }
}
