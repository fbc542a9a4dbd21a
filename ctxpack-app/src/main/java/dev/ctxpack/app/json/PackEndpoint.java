package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.pack.Budgets;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.OnInsufficient;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.pack.PromptTemplate;
import dev.ctxpack.pack.Strategy;
import dev.ctxpack.pii.RedactionOptions;

/**
 * {@code pack}: {@code {"id", "query", "budget" | "preset", "k", "mode", "injection", "template", "order",
 * "repeatKey", "minRelevance", "minCoverage", "onInsufficient", "strategy", "fallback", "maxCalls", "execute",
 * "redactPii"}} to the package's JSON
 * (docs/API.md), a {@code --batch} line and {@code POST /v1/pack}. Each field given replaces that
 * option of the endpoint's defaults; a request never names a file on the host ({@code "template"}
 * is a built-in name) nor a model ({@code "execute"} calls the endpoint's own).
 */
public final class PackEndpoint {
  private PackEndpoint() {}

  /**
   * The endpoint over {@code packer} with {@code options} for what a request does not say.
   * {@code model}: what {@code "execute": true} calls (null: the intermediate steps run offline);
   * {@code executeAll}: every request is executed unless it says {@code "execute": false}.
   */
  public static JsonEndpoint of(DefaultContextPacker packer, PackOptions options, LlmClient model, boolean executeAll) {
    return req -> {
      String q = Requests.query(req, null);
      if (q == null || q.isBlank()) throw new IllegalArgumentException("field 'query' must not be empty");
      PackOptions o = options(req, options);
      boolean execute = executeAll;
      if (req.has("execute")) {
        if (!req.get("execute").isBoolean()) throw new IllegalArgumentException("field 'execute' must be true or false");
        execute = req.get("execute").booleanValue();
      }
      ContextPackage p = packer.pack(q, o);
      ObjectNode json = Views.pack(Requests.text(req, "id", null), p);
      if (execute) json.set("execution", Views.execution(packer.executor(model, o).execute(p)));
      return json;
    };
  }

  /** {@code defaults} with the options {@code req} gives. */
  static PackOptions options(ObjectNode req, PackOptions defaults) {
    PackOptions o = defaults;
    String preset = Requests.text(req, "preset", null);
    if (preset != null) o = o.toBuilder().budget(Budgets.preset(preset)).build();
    if (req.has("budget")) o = o.toBuilder().budget(Requests.integer(req, "budget", o.budget().tokens(), 1, Budgets.MAX)).build();
    if (req.has("k") || req.has("mode")) o = o.toBuilder().retrieval(retrieval(req, o.retrieval())).build();
    if (req.has("redactPii")) o = o.toBuilder().redactPii(redactPii(req.get("redactPii"))).build();
    String injection = Requests.text(req, "injection", null);
    if (injection != null) o = o.toBuilder().injection(parseInjection(injection, "field 'injection'")).build();
    String template = Requests.text(req, "template", null);
    if (template != null) o = o.toBuilder().template(builtInTemplate(template)).build();
    String order = Requests.text(req, "order", null);
    if (order != null) o = o.toBuilder().order(parseOrder(order, "field 'order'")).build();
    if (req.has("repeatKey")) {
      JsonNode v = req.get("repeatKey");
      if (!v.isBoolean()) throw new IllegalArgumentException("field 'repeatKey' must be true or false, was " + v);
      o = o.toBuilder().repeatKey(v.booleanValue()).build();
    }
    if (req.has("minRelevance")) o = o.toBuilder().minRelevance(minRelevance(req.get("minRelevance"))).build();
    if (req.has("minCoverage")) o = o.toBuilder().minCoverage(minCoverage(req.get("minCoverage"), "field 'minCoverage'")).build();
    String onInsufficient = Requests.text(req, "onInsufficient", null);
    if (onInsufficient != null) o = o.toBuilder().onInsufficient(parseOnInsufficient(onInsufficient, "field 'onInsufficient'")).build();
    String strategy = Requests.text(req, "strategy", null);
    if (strategy != null) o = o.toBuilder().strategy(parseStrategy(strategy, "field 'strategy'")).build();
    String fallback = Requests.text(req, "fallback", null);
    if (fallback != null) o = o.toBuilder().fallback(parseFallback(fallback, "field 'fallback'")).build();
    if (req.has("maxCalls")) {
      o = o.toBuilder().maxCalls(Requests.integer(req, "maxCalls", o.plan().maxCalls(), PackOptions.MIN_CALLS, PackOptions.MAX_CALLS)).build();
    }
    return o;
  }

  /** {@code "k"} (candidates, 1 to 1,000, half from each signal) and {@code "mode"} over {@code base}, as {@code pack -k --mode}. */
  private static RetrievalOptions retrieval(ObjectNode req, RetrievalOptions base) {
    int k = Requests.integer(req, "k", base.k(), 1, RetrievalOptions.MAX_K);
    String mode = Requests.text(req, "mode", null);
    RetrievalMode m;
    try {
      m = mode == null ? base.mode() : RetrievalMode.parse(mode);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'mode': " + e.getMessage());
    }
    int perSignal = Math.max(1, Math.min(RetrievalOptions.MAX_K, (k + 1) / 2));
    return new RetrievalOptions(m, k, perSignal, perSignal);
  }

  /** {@code "minRelevance"}: a number in [0, 1], or {@code "auto"} for the budget's default line. */
  public static double minRelevance(JsonNode v) {
    if (v.isTextual() && v.textValue().trim().equalsIgnoreCase("auto")) return PackOptions.Relevance.AUTO;
    if (!v.isNumber() || !(v.doubleValue() >= 0 && v.doubleValue() <= 1)) {
      throw new IllegalArgumentException("field 'minRelevance' must be a number in [0, 1] or \"auto\", was " + v);
    }
    return v.doubleValue();
  }

  /** {@code "minCoverage"}: a number in [0, 1], {@code "auto"} or {@code "off"} ({@link #minCoverage(String, String)}). */
  public static double minCoverage(JsonNode v, String where) {
    if (v.isTextual()) return minCoverage(v.textValue().trim(), where);
    if (!v.isNumber() || !(v.doubleValue() >= 0 && v.doubleValue() <= 1)) {
      throw new IllegalArgumentException(where + " must be a number in [0, 1], \"auto\" or \"off\", was " + v);
    }
    return v.doubleValue();
  }

  /**
   * {@code --min-coverage} and a textual {@code "minCoverage"}: auto ({@link PackOptions.Relevance#AUTO}:
   * the default with the default line, none with a hand-set one), off ({@link PackOptions.Relevance#NO_COVER})
   * or a number in [0, 1].
   */
  public static double minCoverage(String v, String where) {
    if (v.equalsIgnoreCase("auto")) return PackOptions.Relevance.AUTO;
    if (v.equalsIgnoreCase("off")) return PackOptions.Relevance.NO_COVER;
    double c;
    try {
      c = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + " must be a number in [0, 1], auto or off, was '" + v + "'");
    }
    if (!(c >= 0 && c <= 1)) throw new IllegalArgumentException(where + " must be in [0, 1], was " + v);
    return c;
  }

  /** {@code --on-insufficient} and {@code "onInsufficient"}: abstain, best-effort or fail. */
  public static OnInsufficient parseOnInsufficient(String value, String where) {
    try {
      return OnInsufficient.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }

  private static Strategy parseStrategy(String value, String where) {
    try {
      return Strategy.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }

  /** A fallback strategy ({@code --fallback}, {@code "fallback"}): a plan strategy, or none (stuff stays stuff). */
  public static Strategy parseFallback(String value, String where) {
    if (value.trim().equalsIgnoreCase("none")) return Strategy.STUFF;
    Strategy s = parseStrategy(value, where);
    if (s == Strategy.STUFF) throw new IllegalArgumentException(where + ": use map-reduce, refine, tree or none, was " + value);
    return s;
  }

  /** {@code "redactPii"}: true (every type), false (none), or the type keys as a list or a comma-separated string. */
  public static RedactionOptions redactPii(JsonNode v) {
    if (v.isBoolean()) return v.booleanValue() ? RedactionOptions.all() : RedactionOptions.off();
    String list;
    if (v.isTextual()) {
      list = v.textValue();
    } else if (v.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (var e : v) {
        if (!e.isTextual()) throw new IllegalArgumentException("field 'redactPii' must list type names, found " + e);
        sb.append(sb.length() > 0 ? "," : "").append(e.textValue());
      }
      list = sb.toString();
    } else {
      throw new IllegalArgumentException("field 'redactPii' must be true, false, or a list of types, was " + v);
    }
    try {
      return RedactionOptions.parse(list);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'redactPii': " + e.getMessage());
    }
  }

  /** {@code "template"} of a request: a built-in name only (a request never names a file on the host). */
  private static PromptTemplate builtInTemplate(String name) {
    try {
      return PromptTemplate.byName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'template': " + e.getMessage());
    }
  }

  private static OrderMode parseOrder(String value, String where) {
    try {
      return OrderMode.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }

  private static InjectionPolicy parseInjection(String value, String where) {
    try {
      return InjectionPolicy.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }
}
