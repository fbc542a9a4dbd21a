package dev.ctxpack.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.pack.Budgets;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (input != null && batch != null) throw new UsageException("give --input or --batch, not both");
    if (budget != null && preset != null) throw new UsageException("give --budget or --preset, not both");
    Integer defaultBudget = budget(budget, preset, "--budget", "--preset");
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
        in.add(passage(Json.parseObject(lines.get(i)), ids));
      } catch (Exception e) {
        errors++;
        err.println("ctxpack: line " + (i + 1) + ": " + Errors.message(e) + " (skipped; the other lines were compressed)");
      }
    }
    out.println(Json.line(view(compressor.compress(query, in, options(defaultBudget, threshold)), compressor)));
    out.flush();
    return errors == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /** The compressor these options ask for: sentence vectors from {@code --embedder}, or lexical only. */
  ExtractiveCompressor compressor() {
    SentenceVectors vectors = embedder.equals("none") ? SentenceVectors.none()
        : SentenceVectors.embedder(Components.embedder(embedder));
    return ExtractiveCompressor.defaults(vectors);
  }

  /** {@link #endpoint(ExtractiveCompressor)} with {@link #compressor()}. */
  JsonEndpoint endpoint() {
    return endpoint(compressor());
  }

  /**
   * One compress request, {@code {"id", "query", "budget" | "preset" | "threshold", "passages"}} to
   * its compression: a {@code --batch} line, and {@code POST /v1/compress}. The command's options
   * are the defaults for requests that give none.
   */
  JsonEndpoint endpoint(ExtractiveCompressor compressor) {
    Integer defaultBudget = budget(budget, preset, "--budget", "--preset");
    return req -> {
      String q = BatchRunner.query(req, query);
      if (q == null || q.isBlank()) throw new IllegalArgumentException("field 'query' must be a non-empty string");
      Integer b = req.has("budget") || req.has("preset")
          ? budget(req.has("budget") ? BatchRunner.integer(req, "budget", 0) : null, BatchRunner.text(req, "preset", null),
              "budget", "preset")
          : defaultBudget;
      Double t = threshold;
      if (req.has("threshold")) t = number(req.get("threshold"), "threshold");
      JsonNode ps = BatchRunner.texts(req, "passages", BatchRunner.MAX_PASSAGES, "");
      List<CompressInput> in = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      for (int i = 0; i < ps.size(); i++) {
        if (!ps.get(i).isObject()) throw new IllegalArgumentException("passages[" + i + "] must be an object");
        try {
          in.add(passage((ObjectNode) ps.get(i), ids));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("passages[" + i + "]: " + e.getMessage(), e);
        }
      }
      ObjectNode res = Json.object();
      String id = BatchRunner.text(req, "id", null);
      if (id != null) res.put("id", id);
      res.setAll(view(compressor.compress(q, in, options(b, t)), compressor));
      return res;
    };
  }

  private CompressOptions options(Integer budget, Double threshold) {
    if (budget == null && threshold == null) throw new IllegalArgumentException("give a budget, a preset or a threshold");
    if (threshold != null && !(threshold >= 0 && threshold <= 1)) {
      throw new IllegalArgumentException("threshold must be a probability in [0, 1], was " + threshold);
    }
    return new CompressOptions(budget == null ? 0 : budget, threshold == null ? Double.NaN : threshold,
        !noPredecessor, !noClauses && budget != null);
  }

  /** The budget from a number or a preset name (null when neither); errors name the field. */
  private static Integer budget(Integer n, String preset, String nField, String presetField) {
    if (n != null && preset != null) throw new IllegalArgumentException("give " + nField + " or " + presetField + ", not both");
    if (preset != null) {
      try {
        return Budgets.preset(preset);
      } catch (IllegalArgumentException e) {
        throw new UsageException(presetField + ": " + e.getMessage());
      }
    }
    if (n != null && (n <= 0 || n > Budgets.MAX)) {
      throw new UsageException(nField + " must be in [1, " + Budgets.MAX + "] tokens, was " + n);
    }
    return n;
  }

  private static double number(JsonNode v, String field) {
    if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
      throw new IllegalArgumentException("field '" + field + "' must be a number");
    }
    return v.asDouble();
  }

  static CompressInput passage(ObjectNode o, Set<String> ids) {
    String id = BatchRunner.text(o, "id", null);
    if (id == null || id.isBlank()) throw new IllegalArgumentException("field 'id' must be a non-empty string");
    if (!ids.add(id)) throw new IllegalArgumentException("id '" + id + "' appears twice");
    String text = BatchRunner.text(o, "text", null);
    if (text == null || text.isEmpty()) throw new IllegalArgumentException("field 'text' of " + id + " must be a non-empty string");
    double score = Double.NaN;
    JsonNode s = o.get("score");
    if (s != null && !s.isNull()) score = number(s, "score");
    return CompressInput.of(id, text, BatchRunner.text(o, "title", ""), score);
  }

  static ObjectNode view(Compression c, ExtractiveCompressor compressor) {
    ObjectNode res = Json.object();
    res.put("tokensIn", c.tokensIn());
    res.put("tokensOut", c.tokensOut());
    res.put("scorer", compressor.scorer().id());
    ArrayNode passages = res.putArray("passages");
    for (Compression.Compressed p : c.passages()) {
      ObjectNode po = passages.addObject();
      po.put("id", p.id());
      po.put("text", p.text());
      po.put("tokens", p.tokens());
      ArrayNode spans = po.putArray("spans");
      for (Compression.Span s : p.spans()) spans.addArray().add(s.start()).add(s.end());
    }
    ArrayNode dropped = res.putArray("dropped");
    for (Compression.Dropped d : c.dropped()) {
      dropped.addObject().put("id", d.id()).put("start", d.span().start()).put("end", d.span().end())
          .put("reason", d.reason().key()).put("score", Views.round(d.score()));
    }
    return res;
  }

}
