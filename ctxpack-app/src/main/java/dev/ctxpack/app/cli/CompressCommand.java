package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.CompressEndpoint;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.ExtractiveCompressor;
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

@Command(name = "compress", mixinStandardHelpOptions = true,
    description = "Query-aware extractive compression of given passages to a token budget; no index needed."
        + " Kept text is verbatim; every dropped sentence is reported with its reason.")
final class CompressCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = {"-q", "--query"}, paramLabel = "Q", description = "The question the passages should answer.")
  String query;

  @Option(names = "--budget", paramLabel = "N", description = "Most tokens (o200k_base) the kept text may take, all passages together.")
  Integer budget;

  @Option(names = "--preset", paramLabel = "P", description = "Budget preset: low (1000), medium (4000), high (10000).")
  String preset;

  @Option(names = "--threshold", paramLabel = "P",
      description = "Keep only sentences whose probability of answering is at least P (0-1); with a budget, both hold.")
  Double threshold;

  @Option(names = "--input", paramLabel = "FILE",
      description = "JSON Lines of {\"id\", \"text\", \"title\", \"score\"} in rank order; - for stdin (default).")
  String input;

  @Option(names = "--batch", paramLabel = "FILE",
      description = "JSON Lines of {\"id\", \"query\", \"budget\" | \"preset\" | \"threshold\", \"passages\": [...]}, one result line each; - for stdin.")
  String batch;

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder for sentence vectors, computed on the fly: minilm (default), onnx:..., openai:..., or none (lexical only).")
  String embedder;

  @Option(names = "--no-predecessor", negatable = false,
      description = "Do not bring along the sentence a kept sentence leans on (a leading pronoun or connective).")
  boolean noPredecessor;

  @Option(names = "--no-clauses", negatable = false,
      description = "Keep whole sentences only; never cut the best sentence left to a clause that fits.")
  boolean noClauses;

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (input != null && batch != null) throw new UsageException("give --input or --batch, not both");
    if (budget != null && preset != null) throw new UsageException("give --budget or --preset, not both");
    Integer defaultBudget = CompressEndpoint.budget(budget, preset, "--budget", "--preset");
    if (threshold != null && !(threshold >= 0 && threshold <= 1)) {
      throw new UsageException("--threshold must be a probability in [0, 1], was " + threshold);
    }
    if (batch == null) {
      if (query == null || query.isBlank()) throw new UsageException("--query is required (or use --batch)");
      if (defaultBudget == null && threshold == null) throw new UsageException("give --budget N, --preset P or --threshold P");
    }
    ExtractiveCompressor compressor = compressor();

    if (batch != null) return BatchRunner.run(batch, out, endpoint(compressor));
    List<String> lines = BatchRunner.readLines(input == null ? "-" : input);
    List<CompressInput> in = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    int errors = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) continue;
      try {
        in.add(CompressEndpoint.passage(Json.parseObject(lines.get(i)), ids));
      } catch (Exception e) {
        errors++;
        err.println("ctxpack: line " + (i + 1) + ": " + Errors.message(e) + " (skipped; the other lines were compressed)");
      }
    }
    Compression c = compressor.compress(query, in, CompressEndpoint.options(defaultBudget, threshold, !noPredecessor, !noClauses));
    if (format.json()) out.println(Json.line(CompressEndpoint.view(c, compressor)));
    else out.print(Texts.compression(c, compressor.scorer().id(), in));
    out.flush();
    return errors == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /** The compressor these options ask for: sentence vectors from {@code --embedder}, or lexical only. */
  ExtractiveCompressor compressor() {
    return Components.compressor(embedder);
  }

  /**
   * One {@code --batch} line, {@code {"id", "query", "budget" | "preset" | "threshold", "passages"}},
   * to its compression, with the command's options for what a line does not give ({@code POST
   * /v1/compress} runs the same function with none).
   */
  JsonEndpoint endpoint(ExtractiveCompressor compressor) {
    return CompressEndpoint.of(compressor, defaults());
  }

  /** What a request gets from these options when it does not say: {@link CompressEndpoint.Defaults#NONE} with none given. */
  CompressEndpoint.Defaults defaults() {
    return new CompressEndpoint.Defaults(query, CompressEndpoint.budget(budget, preset, "--budget", "--preset"), threshold,
        !noPredecessor, !noClauses);
  }
}
