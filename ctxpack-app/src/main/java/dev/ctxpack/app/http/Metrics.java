package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of {@code ctxpack serve}, written by hand in the Prometheus text exposition format
 * (version 0.0.4) for {@code GET /metrics}. Every series is a {@link LongAdder} (or a
 * {@link DoubleAdder} for a histogram's sum) in a concurrent map, so requests update them without
 * locks; {@link #render()} sorts the series by their labels, so the output order is deterministic.
 * Label values are bounded: endpoints are the service's routes (anything else is {@code other}),
 * codes its error codes, verdicts the verifier's.
 */
final class Metrics {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  /** Upper bounds of the request-duration buckets, in seconds ({@code +Inf} is implied). */
  static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  /** Upper bounds of the stage-duration buckets, in seconds: stages take from microseconds to tens of milliseconds. */
  static final double[] STAGE_BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1};

  static final String SEARCH = "/v1/search";
  static final String COMPRESS = "/v1/compress";
  static final String VERIFY = "/v1/verify";
  static final String PACK = "/v1/pack";
  static final String DEDUP = "/v1/dedup";

  /** Keyed by endpoint, then status (or code, or verdict). */
  private final ConcurrentMap<String, ConcurrentMap<String, LongAdder>> requests = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, ConcurrentMap<String, LongAdder>> errors = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Histogram> durations = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, LongAdder> verdicts = new ConcurrentHashMap<>();
  private final LongAdder tokensIn = new LongAdder();
  private final LongAdder tokensOut = new LongAdder();
  /** Keyed by endpoint, then stage. */
  private final ConcurrentMap<String, ConcurrentMap<String, Histogram>> stages = new ConcurrentHashMap<>();
  /** Keyed by level, then action. */
  private final ConcurrentMap<String, ConcurrentMap<String, LongAdder>> dedup = new ConcurrentHashMap<>();
  private final LongAdder promptTokens = new LongAdder();

  /** One stage of one request of {@code endpoint} took {@code nanos} (stage names are the packer's: a fixed set). */
  void stage(String endpoint, String stage, long nanos) {
    stages.computeIfAbsent(endpoint, e -> new ConcurrentHashMap<>())
        .computeIfAbsent(stage, s -> new Histogram(STAGE_BUCKETS)).observe(nanos / 1e9);
  }

  /** One answered request: its endpoint label, HTTP status, error code (null if none) and duration. */
  void request(String endpoint, int status, String errorCode, double seconds) {
    counter(requests, endpoint, Integer.toString(status)).increment();
    if (errorCode != null) counter(errors, endpoint, errorCode).increment();
    durations.computeIfAbsent(endpoint, e -> new Histogram()).observe(seconds);
  }

  /** What an endpoint's result says that is worth counting: compress's tokens, verify's verdicts. */
  void result(String endpoint, JsonNode result) {
    if (result == null) return;
    if (COMPRESS.equals(endpoint)) {
      tokensIn.add(Math.max(0, result.path("tokensIn").asLong(0)));
      tokensOut.add(Math.max(0, result.path("tokensOut").asLong(0)));
    } else if (PACK.equals(endpoint)) {
      promptTokens.add(Math.max(0, result.path("budget").path("used").asLong(0)));
      for (JsonNode d : result.path("trace")) {
        // A dedup decision's rule starts with its level: "near:jaccard>=0.85", "overlap:...".
        if (!"dedup".equals(d.path("stage").asText())) continue;
        String rule = d.path("rule").asText("");
        int colon = rule.indexOf(':');
        dedupDecision(colon > 0 ? rule.substring(0, colon) : rule, d.path("action").asText(""));
      }
    } else if (DEDUP.equals(endpoint)) {
      for (JsonNode d : result.path("decisions")) dedupDecision(d.path("level").asText(""), d.path("action").asText(""));
    } else if (VERIFY.equals(endpoint)) {
      for (JsonNode claim : result.path("claims")) {
        JsonNode verdict = claim.get("verdict");
        if (verdict != null && verdict.isTextual()) {
          verdicts.computeIfAbsent(verdict.asText(), v -> new LongAdder()).increment();
        }
      }
    }
  }

  private void dedupDecision(String level, String action) {
    // Levels and actions are the deduplicator's; anything else (never expected) is not a new series.
    if (!DEDUP_LEVELS.contains(level)) level = "other";
    if (!DEDUP_ACTIONS.contains(action)) action = "other";
    counter(dedup, level, action).increment();
  }

  private static final java.util.Set<String> DEDUP_LEVELS = java.util.Set.of("exact", "near", "overlap", "semantic", "corpus");
  private static final java.util.Set<String> DEDUP_ACTIONS = java.util.Set.of("drop", "merge", "stitch", "group", "keep", "prefer");

  private static LongAdder counter(ConcurrentMap<String, ConcurrentMap<String, LongAdder>> family, String a, String b) {
    return family.computeIfAbsent(a, k -> new ConcurrentHashMap<>()).computeIfAbsent(b, k -> new LongAdder());
  }

  /** Every series in the text exposition format, families and series in a fixed (sorted) order. */
  String render() {
    StringBuilder out = new StringBuilder(4096);
    header(out, "ctxpack_requests_total", "counter", "Requests answered, by endpoint and HTTP status.");
    twoLabels(out, "ctxpack_requests_total", "endpoint", "status", requests);

    header(out, "ctxpack_request_seconds", "histogram", "Time to answer a request, by endpoint, in seconds.");
    for (Map.Entry<String, Histogram> e : new TreeMap<>(durations).entrySet()) {
      e.getValue().render(out, "ctxpack_request_seconds", "endpoint=\"" + escape(e.getKey()) + "\"");
    }

    header(out, "ctxpack_errors_total", "counter", "Error answers, by endpoint and error code.");
    twoLabels(out, "ctxpack_errors_total", "endpoint", "code", errors);

    header(out, "ctxpack_tokens_in_total", "counter", "Tokens of the passages given to /v1/compress.");
    out.append("ctxpack_tokens_in_total ").append(tokensIn.sum()).append('\n');
    header(out, "ctxpack_tokens_out_total", "counter", "Tokens of the passages /v1/compress kept.");
    out.append("ctxpack_tokens_out_total ").append(tokensOut.sum()).append('\n');

    header(out, "ctxpack_pack_prompt_tokens_total", "counter", "Tokens of the prompts /v1/pack returned.");
    out.append("ctxpack_pack_prompt_tokens_total ").append(promptTokens.sum()).append('\n');

    header(out, "ctxpack_stage_seconds", "histogram", "Time of each stage of a request, by endpoint and stage, in seconds.");
    for (Map.Entry<String, ConcurrentMap<String, Histogram>> e : new TreeMap<>(stages).entrySet()) {
      for (Map.Entry<String, Histogram> st : new TreeMap<>(e.getValue()).entrySet()) {
        st.getValue().render(out, "ctxpack_stage_seconds",
            "endpoint=\"" + escape(e.getKey()) + "\",stage=\"" + escape(st.getKey()) + "\"");
      }
    }

    header(out, "ctxpack_dedup_decisions_total", "counter", "Dedup decisions of /v1/pack and /v1/dedup, by level and action.");
    twoLabels(out, "ctxpack_dedup_decisions_total", "level", "action", dedup);

    header(out, "ctxpack_verify_claims_total", "counter", "Claims checked by /v1/verify, by verdict.");
    for (Map.Entry<String, LongAdder> e : new TreeMap<>(verdicts).entrySet()) {
      out.append("ctxpack_verify_claims_total{verdict=\"").append(escape(e.getKey())).append("\"} ")
          .append(e.getValue().sum()).append('\n');
    }
    return out.toString();
  }

  private static void header(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void twoLabels(StringBuilder out, String name, String first, String second,
      Map<String, ConcurrentMap<String, LongAdder>> family) {
    for (Map.Entry<String, ConcurrentMap<String, LongAdder>> a : new TreeMap<>(family).entrySet()) {
      for (Map.Entry<String, LongAdder> b : new TreeMap<>(a.getValue()).entrySet()) {
        out.append(name).append('{').append(first).append("=\"").append(escape(a.getKey())).append("\",")
            .append(second).append("=\"").append(escape(b.getKey())).append("\"} ").append(b.getValue().sum()).append('\n');
      }
    }
  }

  /** A label value as the format wants it: backslash, double quote and newline escaped. */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** Per-bucket (not cumulative) counts, the last for over the largest bound; cumulated when rendered. */
  private static final class Histogram {
    private final double[] bounds;
    private final LongAdder[] counts;
    private final DoubleAdder sum = new DoubleAdder();

    Histogram() {
      this(BUCKETS);
    }

    Histogram(double[] bounds) {
      this.bounds = bounds;
      this.counts = new LongAdder[bounds.length + 1];
      for (int i = 0; i < counts.length; i++) counts[i] = new LongAdder();
    }

    void observe(double seconds) {
      int i = 0;
      while (i < bounds.length && seconds > bounds[i]) i++;
      counts[i].increment();
      sum.add(seconds);
    }

    void render(StringBuilder out, String name, String labels) {
      long cumulative = 0;
      for (int i = 0; i < counts.length; i++) {
        cumulative += counts[i].sum();
        String le = i < bounds.length ? Double.toString(bounds[i]) : "+Inf";
        out.append(name).append("_bucket{").append(labels).append(",le=\"").append(le).append("\"} ")
            .append(cumulative).append('\n');
      }
      // _count is the +Inf bucket, so the two always agree even while requests are being counted.
      out.append(name).append("_sum{").append(labels).append("} ").append(sum.sum()).append('\n');
      out.append(name).append("_count{").append(labels).append("} ").append(cumulative).append('\n');
    }
  }
}
