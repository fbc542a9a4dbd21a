package dev.ctxpack.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.dedup.Deduplication;
import dev.ctxpack.dedup.DedupLevel;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizers;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (input != null && batch != null) throw new UsageException("give --input or --batch, not both");
    Cascade cascade = cascade();
    if (batch != null) return BatchRunner.run(batch, out, endpoint(cascade));
    List<String> lines = BatchRunner.readLines(input == null ? "-" : input);
    List<Candidate> in = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    int errors = 0;
    boolean scored = lines.stream().anyMatch(l -> l.contains("\"score\""));
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) continue;
      try {
        in.add(candidate(Json.parseObject(lines.get(i)), scored ? 0 : lines.size() - i, ids));
      } catch (Exception e) {
        errors++;
        err.println("ctxpack: line " + (i + 1) + ": " + Errors.message(e) + " (skipped; the other lines were deduplicated)");
      }
    }
    out.println(Json.line(run(cascade, in)));
    out.flush();
    return errors == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }


  /** The cascade these options ask for (its levels and thresholds) and the vectors of its semantic level. */
  record Cascade(CascadeDeduplicator dedup, PassageVectors vectors) {
    Deduplication run(List<Candidate> in, Trace trace) throws java.io.IOException {
      return dedup.dedupCandidates(in, Tokenizers.defaultTokenizer(), vectors, trace);
    }
  }

  /** The cascade of these options, with vectors from {@code --embedder}. */
  Cascade cascade() {
    DedupOptions options = flags.apply(DedupOptions.strict().withLevels(DedupFlags.levels(levels)));
    PassageVectors vectors = options.levels().contains(DedupLevel.SEMANTIC) && !embedder.equals("none")
        ? PassageVectors.fromEmbedder(Components.embedder(embedder)) : PassageVectors.none();
    return new Cascade(new CascadeDeduplicator(options), vectors);
  }

  /** {@link #endpoint(Cascade)} with {@link #cascade()}. */
  JsonEndpoint endpoint() {
    return endpoint(cascade());
  }

  /**
   * One dedup request, {@code {"id", "passages"}} to {@code {"id", "passages", "decisions"}}: a
   * {@code --batch} line, and {@code POST /v1/dedup}.
   */
  static JsonEndpoint endpoint(Cascade cascade) {
    return req -> {
      JsonNode ps = BatchRunner.texts(req, "passages", BatchRunner.MAX_PASSAGES, "");
      List<Candidate> in = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      boolean scored = false;
      for (JsonNode p : ps) scored |= p.has("score");
      for (int i = 0; i < ps.size(); i++) {
        if (!ps.get(i).isObject()) throw new IllegalArgumentException("passages[" + i + "] must be an object");
        try {
          in.add(candidate((ObjectNode) ps.get(i), scored ? 0 : ps.size() - i, ids));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("passages[" + i + "]: " + e.getMessage(), e);
        }
      }
      ObjectNode res = run(cascade, in);
      String id = BatchRunner.text(req, "id", null);
      if (id != null) {
        ObjectNode withId = Json.object();
        withId.put("id", id);
        withId.setAll(res);
        return withId;
      }
      return res;
    };
  }

  private static final LanguageDetector LANGUAGES = new LanguageDetector();

  /**
   * One input passage as a candidate; {@code rank} is its score when none is given: 0 when other
   * passages have scores, else a rank from the input order (first = best).
   */
  static Candidate candidate(ObjectNode o, double rank, Set<String> ids) {
    String id = BatchRunner.text(o, "id", null);
    if (id == null || id.isBlank()) throw new IllegalArgumentException("field 'id' must be a non-empty string");
    if (!ids.add(id)) throw new IllegalArgumentException("id '" + id + "' appears twice");
    String text = BatchRunner.text(o, "text", null);
    if (text == null || text.isEmpty()) throw new IllegalArgumentException("field 'text' of " + id + " must be a non-empty string");
    String docId = BatchRunner.text(o, "docId", id);
    int start = BatchRunner.integer(o, "start", 0);
    int end = BatchRunner.integer(o, "end", start + text.length());
    if (start < 0) throw new IllegalArgumentException("start of " + id + " must be >= 0, was " + start);
    if (end - start != text.length()) {
      throw new IllegalArgumentException("end - start of " + id + " is " + (end - start) + " but its text has "
          + text.length() + " chars (offsets are UTF-16 code units into the document)");
    }
    double score = rank;
    JsonNode s = o.get("score");
    if (s != null && !s.isNull()) {
      if (!s.isNumber() || !Double.isFinite(s.asDouble())) throw new IllegalArgumentException("score of " + id + " must be a finite number");
      score = s.asDouble();
    }
    Chunk chunk = new Chunk(id, docId, new Span(start, end), text, "", 0, 0);
    DocInfo doc = new DocInfo(docId, "", BatchRunner.text(o, "title", ""), LANGUAGES.detect(text), Map.of());
    return new Candidate(chunk, doc, Scores.of(Signal.FUSED, score));
  }

  static ObjectNode run(Cascade cascade, List<Candidate> in) throws java.io.IOException {
    Trace trace = new Trace();
    List<Passage> out = cascade.run(in, trace).passages();
    ObjectNode res = Json.object();
    ArrayNode passages = res.putArray("passages");
    for (Passage p : out) {
      ObjectNode po = passages.addObject();
      po.put("id", p.id());
      po.put("text", p.text());
      ArrayNode sources = po.putArray("sources");
      for (Candidate c : p.sources()) sources.add(c.chunk().id());
      ArrayNode pieces = po.putArray("pieces");
      for (Passage.Piece piece : p.pieces()) {
        pieces.addObject().put("docId", piece.docId()).put("start", piece.span().start()).put("end", piece.span().end());
      }
    }
    ArrayNode decisions = res.putArray("decisions");
    for (Decision d : trace.decisions()) {
      ObjectNode o = decisions.addObject();
      o.put("level", d.level());
      o.put("action", d.action().key());
      o.put("from", d.ids().isEmpty() ? "" : d.ids().get(0));
      o.put("into", d.into());
      if (d.hasSimilarity()) o.put("similarity", Views.round(d.similarity()));
      o.put("rule", d.rule());
      o.put("tokensSaved", d.tokensSaved());
      o.put("reason", d.reason());
    }
    return res;
  }
}
