package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Components;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.dedup.DedupLevel;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.dedup.Deduplication;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code dedup}: {@code {"id", "passages"}} to {@code {"id", "passages", "decisions"}} (docs/API.md),
 * a {@code --batch} line and {@code POST /v1/dedup}; and the reader and the view the command's
 * {@code --input} mode shares.
 */
public final class DedupEndpoint {
  private static final LanguageDetector LANGUAGES = new LanguageDetector();

  private DedupEndpoint() {}

  /** A cascade (its levels and thresholds) and the vectors of its semantic level. */
  public record Cascade(CascadeDeduplicator dedup, PassageVectors vectors) {
    /**
     * The cascade of {@code options}, with vectors from the embedder {@code embedderSpec} when the
     * semantic level runs ({@code "none"}: no vectors, so that level groups nothing).
     */
    public static Cascade of(DedupOptions options, String embedderSpec) {
      PassageVectors vectors = options.levels().contains(DedupLevel.SEMANTIC) && !embedderSpec.equals("none")
          ? PassageVectors.fromEmbedder(Components.embedder(embedderSpec)) : PassageVectors.none();
      return new Cascade(new CascadeDeduplicator(options), vectors);
    }

    public Deduplication run(List<Candidate> in, Trace trace) throws IOException {
      return dedup.dedupCandidates(in, Tokenizers.defaultTokenizer(), vectors, trace);
    }
  }

  /** The endpoint running {@code cascade} over each request's passages. */
  public static JsonEndpoint of(Cascade cascade) {
    return of(cascade, Requests.MAX_DEDUP_COMPARISONS, "");
  }

  /**
   * {@link #of(Cascade)}, refusing a request whose guard would compare more than {@code
   * maxComparisons} sentence pairs ({@link dev.ctxpack.model.WorkLimitException}; {@code hint}, when
   * not empty, says how to raise the cap).
   */
  public static JsonEndpoint of(Cascade given, long maxComparisons, String hint) {
    Cascade cascade = new Cascade(given.dedup().withMaxComparisons(maxComparisons, hint), given.vectors());
    return req -> {
      JsonNode ps = Requests.texts(req, "passages", Requests.MAX_PASSAGES, "");
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
      Trace trace = new Trace();
      ObjectNode res = view(cascade.run(in, trace).passages(), trace.decisions());
      String id = Requests.text(req, "id", null);
      if (id != null) {
        ObjectNode withId = Json.object();
        withId.put("id", id);
        withId.setAll(res);
        return withId;
      }
      return res;
    };
  }

  /**
   * One input passage {@code {"id", "text", "docId", "start", "end", "score", "title"}} as a
   * candidate; {@code rank} is its score when none is given: 0 when other passages have scores, else
   * a rank from the input order (first = best). {@code ids} collects the ids seen, refusing a repeat.
   */
  public static Candidate candidate(ObjectNode o, double rank, Set<String> ids) {
    String id = Requests.text(o, "id", null);
    if (id == null || id.isBlank()) throw new IllegalArgumentException("field 'id' must be a non-empty string");
    if (!ids.add(id)) throw new IllegalArgumentException("id '" + id + "' appears twice");
    String text = Requests.text(o, "text", null);
    if (text == null || text.isEmpty()) throw new IllegalArgumentException("field 'text' of " + id + " must be a non-empty string");
    String docId = Requests.text(o, "docId", id);
    int start = Requests.integer(o, "start", 0);
    int end = Requests.integer(o, "end", start + text.length());
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
    DocInfo doc = new DocInfo(docId, "", Requests.text(o, "title", ""), LANGUAGES.detect(text), Map.of());
    return new Candidate(chunk, doc, Scores.of(Signal.FUSED, score));
  }

  /** {@code {"passages": [{"id", "text", "sources", "pieces"}], "decisions": [...]}}. */
  public static ObjectNode view(List<Passage> out, List<Decision> trace) {
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
    for (Decision d : trace) {
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
