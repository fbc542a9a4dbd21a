package dev.ctxpack.app.cli;

import dev.ctxpack.app.Errors;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.DedupEndpoint;
import dev.ctxpack.app.json.DedupEndpoint.Cascade;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "dedup", mixinStandardHelpOptions = true,
    description = "Run the dedup cascade (exact, near, overlap, semantic) over given passages; no index needed.")
final class DedupCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin DedupFlags flags = new DedupFlags();

  @Option(names = "--input", paramLabel = "FILE",
      description = "JSON Lines of {\"id\", \"text\", \"docId\", \"start\", \"end\", \"score\"}; - for stdin (default).")
  String input;

  @Option(names = "--batch", paramLabel = "FILE",
      description = "JSON Lines of {\"id\", \"passages\": [...]}, one result line each; - for stdin.")
  String batch;

  @Option(names = "--levels", split = ",", paramLabel = "L",
      description = "Levels to run: exact,near,overlap,semantic. Default: all four.")
  List<String> levels = List.of("exact", "near", "overlap", "semantic");

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder for the semantic level: minilm (default), onnx:..., openai:..., or none.")
  String embedder;

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (input != null && batch != null) throw new UsageException("give --input or --batch, not both");
    Cascade cascade = cascade();
    if (batch != null) return BatchRunner.run(batch, out, DedupEndpoint.of(cascade));
    List<String> lines = BatchRunner.readLines(input == null ? "-" : input);
    List<Candidate> in = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    int errors = 0;
    boolean scored = lines.stream().anyMatch(l -> l.contains("\"score\""));
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) continue;
      try {
        in.add(DedupEndpoint.candidate(Json.parseObject(lines.get(i)), scored ? 0 : lines.size() - i, ids));
      } catch (Exception e) {
        errors++;
        err.println("ctxpack: line " + (i + 1) + ": " + Errors.message(e) + " (skipped; the other lines were deduplicated)");
      }
    }
    Trace trace = new Trace();
    List<Passage> passages = cascade.run(in, trace).passages();
    if (format.json()) out.println(Json.line(DedupEndpoint.view(passages, trace.decisions())));
    else out.print(Texts.dedup(in.size(), passages, trace.decisions()));
    out.flush();
    return errors == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }


  /** The cascade of these options, with vectors from {@code --embedder}. */
  Cascade cascade() {
    return Cascade.of(options(), embedder);
  }

  /** The dedup options of {@code --levels} and the thresholds: {@link DedupOptions#strict()} with none given. */
  DedupOptions options() {
    return flags.apply(DedupOptions.strict().withLevels(DedupFlags.levels(levels)));
  }
}
