package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.pack.Budgets;
import dev.ctxpack.model.WorkLimitException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code compress}: {@code {"id", "query", "budget" | "preset" | "threshold", "passages"}} to its
 * compression {@code {"id", "tokensIn", "tokensOut", "scorer", "passages", "dropped"}} (docs/API.md),
 * a {@code --batch} line and {@code POST /v1/compress}; and the readers and the view the command's
 * {@code --input} mode shares.
 */
public final class CompressEndpoint {
  private CompressEndpoint() {}

  /**
   * What a request that does not say gets: a query, a budget and a threshold (each null: none), and
   * whether a kept sentence brings the one it leans on and the best sentence left may be cut to a
   * clause.
   */
  public record Defaults(String query, Integer budget, Double threshold, boolean predecessor, boolean clauses) {
    /** No query, budget or threshold (each request gives its own); predecessors and clauses on. */
    public static final Defaults NONE = new Defaults(null, null, null, true, true);
  }

  /** The endpoint over {@code compressor}, with {@code defaults} for what a request does not give. */
  public static JsonEndpoint of(ExtractiveCompressor compressor, Defaults defaults) {
    return of(compressor, defaults, Requests.MAX_SENTENCES, "");
  }

  /**
   * {@link #of(ExtractiveCompressor, Defaults)}, refusing a request whose passages hold more than
   * {@code maxSentences} sentences ({@link WorkLimitException}; {@code hint}, when not empty, says
   * how to raise the cap).
   */
  public static JsonEndpoint of(ExtractiveCompressor compressor, Defaults defaults, int maxSentences, String hint) {
    return req -> {
      String q = Requests.query(req, defaults.query());
      if (q == null || q.isBlank()) throw new IllegalArgumentException("field 'query' must be a non-empty string");
      Integer b = req.has("budget") || req.has("preset")
          ? budget(req.has("budget") ? Requests.integer(req, "budget", 0) : null, Requests.text(req, "preset", null),
              "budget", "preset")
          : defaults.budget();
      Double t = defaults.threshold();
      if (req.has("threshold")) t = number(req.get("threshold"), "threshold");
      JsonNode ps = Requests.texts(req, "passages", Requests.MAX_PASSAGES, "");
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
      int sentences = compressor.sentences(in).size();
      if (sentences > maxSentences) {
        throw new WorkLimitException("sentences in 'passages'", sentences, maxSentences, false, hint);
      }
      ObjectNode res = Json.object();
      String id = Requests.text(req, "id", null);
      if (id != null) res.put("id", id);
      res.setAll(view(compressor.compress(q, in, options(b, t, defaults.predecessor(), defaults.clauses())), compressor));
      return res;
    };
  }

  /** The compression options of a budget and a threshold (either may be null, not both). */
  public static CompressOptions options(Integer budget, Double threshold, boolean predecessor, boolean clauses) {
    if (budget == null && threshold == null) throw new IllegalArgumentException("give a budget, a preset or a threshold");
    if (threshold != null && !(threshold >= 0 && threshold <= 1)) {
      throw new IllegalArgumentException("threshold must be a probability in [0, 1], was " + threshold);
    }
    return new CompressOptions(budget == null ? 0 : budget, threshold == null ? Double.NaN : threshold,
        predecessor, clauses && budget != null);
  }

  /** The budget from a number or a preset name (null when neither); errors name the field. */
  public static Integer budget(Integer n, String preset, String nField, String presetField) {
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

  /** One input passage {@code {"id", "text", "title", "score"}}; {@code ids} collects the ids seen, refusing a repeat. */
  public static CompressInput passage(ObjectNode o, Set<String> ids) {
    String id = Requests.text(o, "id", null);
    if (id == null || id.isBlank()) throw new IllegalArgumentException("field 'id' must be a non-empty string");
    if (!ids.add(id)) throw new IllegalArgumentException("id '" + id + "' appears twice");
    String text = Requests.text(o, "text", null);
    if (text == null || text.isEmpty()) throw new IllegalArgumentException("field 'text' of " + id + " must be a non-empty string");
    double score = Double.NaN;
    JsonNode s = o.get("score");
    if (s != null && !s.isNull()) score = number(s, "score");
    return CompressInput.of(id, text, Requests.text(o, "title", ""), score);
  }

  /** {@code {"tokensIn", "tokensOut", "scorer", "passages": [{"id", "text", "tokens", "spans"}], "dropped": [...]}}. */
  public static ObjectNode view(Compression c, ExtractiveCompressor compressor) {
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
