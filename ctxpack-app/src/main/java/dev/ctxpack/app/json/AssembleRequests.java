package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.AssembleRequest;
import dev.ctxpack.assemble.Component;
import dev.ctxpack.assemble.ComponentLimit;
import dev.ctxpack.assemble.FewShot;
import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.app.Errors;
import dev.ctxpack.ingest.ToolSchemas;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.pack.Budgets;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.ModelProfile;
import dev.ctxpack.token.ModelProfiles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an {@code assemble} request (docs/API.md) into an {@link AssembleRequest}, refusing what is
 * malformed or over a cap with a message naming the field ({@code history[3].tool_calls}, {@code
 * limits.tools.cap}...).
 */
public final class AssembleRequests {
  public static final String DEFAULT_MODEL = "gpt-4o";
  public static final int MAX_TOOLS = 256;
  public static final int MAX_TURNS = 2_000;
  public static final int MAX_EXAMPLES = 256;
  public static final int MAX_MEMORIES = 256;
  /** The most characters of text (system, tool schemas, turns, examples, memories) one request may hold together. */
  public static final int MAX_TEXT_CHARS = 4_000_000;

  private static final ModelProfiles MODELS = ModelProfiles.builtIn();

  private AssembleRequests() {}

  /**
   * {@code req} as a request. {@code retrieve}: whether evidence is retrieved when the request does not
   * say ({@code "retrieval": false} turns it off, an object gives its options).
   */
  public static AssembleRequest parse(ObjectNode req, boolean retrieve) {
    ModelProfile model;
    String name = Requests.text(req, "model", DEFAULT_MODEL);
    try {
      model = MODELS.get(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'model': " + e.getMessage());
    }
    AssembleRequest.Builder b = AssembleRequest.builder(model);
    if (req.has("window") && !req.get("window").isNull()) b.window(Requests.integer(req, "window", 0, 1, Budgets.MAX));
    if (req.has("reserve") && !req.get("reserve").isNull()) b.reserve(Requests.integer(req, "reserve", 0, 0, Budgets.MAX));
    long[] chars = {0};
    String system = Requests.text(req, "system", "");
    chars[0] += system.length();
    b.system(system);
    b.tools(tools(req, chars));
    b.history(turns(array(req, "history", MAX_TURNS), "history", chars));
    b.fewShot(examples(req, chars));
    memories(req, b, chars);
    if (chars[0] > MAX_TEXT_CHARS) {
      throw new IllegalArgumentException("the request holds " + chars[0] + " characters of text; at most " + MAX_TEXT_CHARS
          + " are accepted");
    }
    String q = Requests.query(req, "");
    b.query(q);
    JsonNode r = req.get("retrieval");
    if (r != null && !r.isNull() && !(r.isBoolean() || r.isObject())) {
      throw new IllegalArgumentException("field 'retrieval' must be an object of pack options, or false");
    }
    boolean on = r == null || r.isNull() ? retrieve : !r.isBoolean() || r.booleanValue();
    if (on) b.retrieval(retrieval(r != null && r.isObject() ? (ObjectNode) r : Json.object()));
    limits(req, b);
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().startsWith("tool '") ? "field 'tools': " + e.getMessage()
          : "fields 'window'/'reserve': " + e.getMessage());
    }
  }

  private static JsonNode array(ObjectNode req, String field, int max) {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) return Json.MAPPER.createArrayNode();
    if (!v.isArray()) throw new IllegalArgumentException("field '" + field + "' must be an array");
    if (v.size() > max) {
      throw new IllegalArgumentException("field '" + field + "' has " + v.size() + " items; at most " + max + " are accepted per request");
    }
    return v;
  }

  private static List<ToolSpec> tools(ObjectNode req, long[] chars) {
    JsonNode arr = array(req, "tools", MAX_TOOLS);
    List<ToolSpec> out;
    try {
      out = ToolSchemas.read(arr, false).tools();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'tools': " + e.getMessage(), e);
    }
    for (ToolSpec t : out) chars[0] += t.schemaJson().length();
    return out;
  }

  /** OpenAI chat messages as turns; a tool result must answer a call of the assistant turn before it. */
  public static List<Turn> turns(JsonNode arr, String field, long[] chars) {
    List<Turn> out = new ArrayList<>(arr.size());
    Set<String> open = new HashSet<>();
    for (int i = 0; i < arr.size(); i++) {
      String where = field + "[" + i + "]";
      Turn t = turn(arr.get(i), where);
      chars[0] += t.content().length() + t.toolCallsJson().length();
      if (t.isToolResult()) {
        if (!open.remove(t.toolCallId())) {
          throw new IllegalArgumentException(where + ": tool_call_id '" + t.toolCallId()
              + "' answers no tool call of the assistant turn before it");
        }
      } else {
        open.clear();
        if (!t.toolCallsJson().isEmpty()) {
          for (JsonNode c : parse(t.toolCallsJson())) open.add(c.get("id").asText());
        }
      }
      out.add(t);
    }
    return out;
  }

  public static Turn turn(JsonNode m, String where) {
    if (!m.isObject()) throw new IllegalArgumentException(where + " must be a message object");
    ObjectNode o = (ObjectNode) m;
    String role = field(o, "role", where);
    if (role == null) throw new IllegalArgumentException(where + ": field 'role' must be given");
    String content = content(o.get("content"), where);
    String name = field(o, "name", where);
    String callId = field(o, "tool_call_id", where);
    String calls = "";
    JsonNode tc = o.get("tool_calls");
    if (tc != null && !tc.isNull()) {
      if (!role.equals("assistant")) throw new IllegalArgumentException(where + ": only assistant messages carry tool_calls");
      calls = toolCalls(tc, where + ".tool_calls");
    }
    if (role.equals("tool") && (callId == null || callId.isEmpty())) {
      throw new IllegalArgumentException(where + ": a tool message needs its tool_call_id");
    }
    JsonNode pinned = o.get("pinned");
    if (pinned != null && !pinned.isNull() && !pinned.isBoolean()) throw new IllegalArgumentException(where + ": field 'pinned' must be true or false");
    try {
      return new Turn(role, content, name, callId, calls, pinned != null && pinned.asBoolean());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }

  private static String field(ObjectNode o, String f, String where) {
    JsonNode v = o.get(f);
    if (v == null || v.isNull()) return null;
    if (!v.isTextual()) throw new IllegalArgumentException(where + ": field '" + f + "' must be a string");
    return v.asText();
  }

  /** A string, null, or a list of text parts ({@code {"type": "text", "text": "..."}}) joined by blank lines. */
  private static String content(JsonNode c, String where) {
    if (c == null || c.isNull()) return "";
    if (c.isTextual()) return c.asText();
    if (!c.isArray()) throw new IllegalArgumentException(where + ": field 'content' must be a string or a list of text parts");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < c.size(); i++) {
      JsonNode p = c.get(i);
      JsonNode text = p.get("text");
      if (!p.isObject() || !"text".equals(p.path("type").asText()) || text == null || !text.isTextual()) {
        throw new IllegalArgumentException(where + ".content[" + i + "]: only text parts {\"type\": \"text\", \"text\": ...} are accepted");
      }
      sb.append(sb.length() > 0 ? "\n\n" : "").append(text.asText());
    }
    return sb.toString();
  }

  /** The tool calls, checked ({@code id}, {@code function.name}, {@code function.arguments} a JSON string), serialized compactly. */
  private static String toolCalls(JsonNode tc, String where) {
    if (!tc.isArray() || tc.isEmpty()) throw new IllegalArgumentException(where + " must be a non-empty list");
    Set<String> ids = new HashSet<>();
    for (int j = 0; j < tc.size(); j++) {
      String w = where + "[" + j + "]";
      JsonNode c = tc.get(j);
      JsonNode fn = c.get("function");
      if (!c.isObject() || !c.path("id").isTextual() || fn == null || !fn.path("name").isTextual()) {
        throw new IllegalArgumentException(w + " must be {\"id\", \"type\": \"function\", \"function\": {\"name\", \"arguments\"}}");
      }
      if (!ids.add(c.get("id").asText())) throw new IllegalArgumentException(w + ": id '" + c.get("id").asText() + "' is repeated");
      JsonNode args = fn.get("arguments");
      if (args != null && !args.isNull()) {
        if (!args.isTextual()) throw new IllegalArgumentException(w + ".function.arguments must be a string of JSON");
        JsonNode parsed;
        try {
          parsed = Json.MAPPER.readTree(args.asText());
        } catch (Exception e) {
          throw new IllegalArgumentException(w + ".function.arguments is not JSON: " + Errors.message(e));
        }
        if (parsed == null || !parsed.isObject()) throw new IllegalArgumentException(w + ".function.arguments must hold a JSON object");
      }
    }
    return Json.line(tc);
  }

  public static JsonNode parse(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<FewShot> examples(ObjectNode req, long[] chars) {
    JsonNode arr = array(req, "fewShot", MAX_EXAMPLES);
    List<FewShot> out = new ArrayList<>();
    for (int i = 0; i < arr.size(); i++) {
      JsonNode e = arr.get(i);
      if (!e.isObject() || !e.path("input").isTextual() || !e.path("output").isTextual()) {
        throw new IllegalArgumentException("fewShot[" + i + "] must be {\"input\": \"...\", \"output\": \"...\"}");
      }
      chars[0] += e.get("input").asText().length() + e.get("output").asText().length();
      out.add(new FewShot(e.get("input").asText(), e.get("output").asText()));
    }
    return out;
  }

  /**
   * {@code "memories"}: a list of strings or {@code {"text", "kind"?, "id"?}}; or an object {@code
   * {"user", "k"?, "items"?}} that also recalls from the memory store. A top-level {@code "user"}
   * recalls too.
   */
  private static void memories(ObjectNode req, AssembleRequest.Builder b, long[] chars) {
    JsonNode m = req.get("memories");
    JsonNode items = m;
    String user = Requests.text(req, "user", null);
    int k = AssembleRequest.DEFAULT_MEMORY_K;
    if (m != null && m.isObject()) {
      ObjectNode mo = (ObjectNode) m;
      JsonNode u = mo.get("user");
      if (u != null && !u.isNull()) {
        if (!u.isTextual() || u.asText().isBlank()) throw new IllegalArgumentException("field 'memories.user' must be a non-empty string");
        user = u.asText();
      }
      JsonNode kn = mo.get("k");
      if (kn != null && !kn.isNull()) {
        if (!kn.isIntegralNumber() || !kn.canConvertToInt() || kn.asInt() < 0 || kn.asInt() > MAX_MEMORIES) {
          throw new IllegalArgumentException("field 'memories.k' must be an integer in [0, " + MAX_MEMORIES + "], was " + kn);
        }
        k = kn.asInt();
      }
      items = mo.get("items");
    } else if (m != null && !m.isNull() && !m.isArray()) {
      throw new IllegalArgumentException("field 'memories' must be a list of memories or {\"user\", \"k\", \"items\"}");
    }
    List<Memory> out = new ArrayList<>();
    if (items != null && !items.isNull()) {
      if (!items.isArray()) throw new IllegalArgumentException("field 'memories.items' must be a list");
      if (items.size() > MAX_MEMORIES) {
        throw new IllegalArgumentException("field 'memories' has " + items.size() + " items; at most " + MAX_MEMORIES + " are accepted per request");
      }
      for (int i = 0; i < items.size(); i++) {
        JsonNode it = items.get(i);
        String where = "memories[" + i + "]";
        String text;
        Memory.Kind kind = Memory.Kind.FACT;
        String id = "memories[" + i + "]";
        if (it.isTextual()) {
          text = it.asText();
        } else if (it.isObject() && it.path("text").isTextual()) {
          text = it.get("text").asText();
          if (it.hasNonNull("kind")) {
            try {
              kind = Memory.Kind.parse(it.get("kind").asText());
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException(where + ": " + e.getMessage());
            }
          }
          if (it.path("id").isTextual()) id = it.get("id").asText();
        } else {
          throw new IllegalArgumentException(where + " must be a string or {\"text\", \"kind\"}");
        }
        chars[0] += text.length();
        out.add(new Memory(id, user == null ? "" : user, kind, text, "", 0));
      }
    }
    b.memories(out);
    if (user != null) b.recall(user, k);
  }

  /**
   * Pack options for the evidence: {@code budget} (the evidence's need), {@code k}, {@code mode}, {@code order},
   * {@code injection}, {@code redactPii}, {@code minRelevance}, {@code minCoverage}, {@code onInsufficient}, and the switches.
   */
  public static PackOptions retrieval(ObjectNode r) {
    PackOptions o = PackOptions.defaults();
    if (r.has("budget")) o = o.toBuilder().budget(Requests.integer(r, "budget", o.budget().tokens(), 1, Budgets.MAX)).build();
    String mode = Requests.text(r, "mode", null);
    int k = Requests.integer(r, "k", o.retrieval().k(), 1, RetrievalOptions.MAX_K);
    try {
      RetrievalMode m = mode == null ? o.retrieval().mode() : RetrievalMode.parse(mode);
      int perSignal = Math.max(1, Math.min(RetrievalOptions.MAX_K, (k + 1) / 2));
      o = o.toBuilder().retrieval(new RetrievalOptions(m, k, perSignal, perSignal)).build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'retrieval.mode': " + e.getMessage());
    }
    String order = Requests.text(r, "order", null);
    if (order != null) {
      try {
        o = o.toBuilder().order(OrderMode.parse(order)).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field 'retrieval.order': " + e.getMessage());
      }
    }
    String injection = Requests.text(r, "injection", null);
    if (injection != null) {
      try {
        o = o.toBuilder().injection(InjectionPolicy.parse(injection)).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field 'retrieval.injection': " + e.getMessage());
      }
    }
    if (r.has("redactPii")) {
      try {
        o = o.toBuilder().redactPii(PackEndpoint.redactPii(r.get("redactPii"))).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field 'retrieval." + e.getMessage().substring("field '".length()));
      }
    }
    if (r.has("minRelevance")) {
      try {
        o = o.toBuilder().minRelevance(PackEndpoint.minRelevance(r.get("minRelevance"))).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field 'retrieval." + e.getMessage().substring("field '".length()));
      }
    }
    if (r.has("minCoverage")) {
      o = o.toBuilder().minCoverage(PackEndpoint.minCoverage(r.get("minCoverage"), "field 'retrieval.minCoverage'")).build();
    }
    String onInsufficient = Requests.text(r, "onInsufficient", null);
    if (onInsufficient != null) {
      o = o.toBuilder().onInsufficient(PackEndpoint.parseOnInsufficient(onInsufficient, "field 'retrieval.onInsufficient'")).build();
    }
    for (String sw : List.of("dedup", "rerank", "mmr", "compress", "reorder")) {
      JsonNode v = r.get(sw);
      if (v == null || v.isNull()) continue;
      if (!v.isBoolean()) throw new IllegalArgumentException("field 'retrieval." + sw + "' must be true or false");
      boolean on = v.booleanValue();
      o = switch (sw) {
        case "dedup" -> o.toBuilder().dedup(on).build();
        case "rerank" -> o.toBuilder().rerank(on).build();
        case "mmr" -> o.toBuilder().mmr(on).build();
        case "compress" -> o.toBuilder().compress(on).build();
        default -> o.toBuilder().reorder(on).build();
      };
    }
    return o;
  }

  /** {@code "limits": {"tools": {"floor", "cap", "priority", "pinned"}, ...}}, each field over the component's default. */
  private static void limits(ObjectNode req, AssembleRequest.Builder b) {
    JsonNode l = req.get("limits");
    if (l == null || l.isNull()) return;
    if (!l.isObject()) throw new IllegalArgumentException("field 'limits' must be an object of components");
    for (Map.Entry<String, JsonNode> e : l.properties()) {
      Component c;
      try {
        c = Component.parse(e.getKey());
      } catch (IllegalArgumentException x) {
        throw new IllegalArgumentException("field 'limits': " + x.getMessage());
      }
      String where = "limits." + c.key();
      if (!e.getValue().isObject()) throw new IllegalArgumentException("field '" + where + "' must be {\"floor\", \"cap\", \"priority\", \"pinned\"}");
      ObjectNode o = (ObjectNode) e.getValue();
      ComponentLimit d = ComponentLimit.defaults(c);
      int floor = limitInt(o, "floor", d.floor(), where);
      int cap = limitInt(o, "cap", d.cap(), where);
      int priority = limitInt(o, "priority", d.priority(), where);
      JsonNode p = o.get("pinned");
      if (p != null && !p.isNull() && !p.isBoolean()) throw new IllegalArgumentException("field '" + where + ".pinned' must be true or false");
      try {
        b.limit(c, new ComponentLimit(floor, cap, priority, p == null || p.isNull() ? d.pinned() : p.booleanValue()));
      } catch (IllegalArgumentException x) {
        throw new IllegalArgumentException("field '" + where + "': " + x.getMessage());
      }
    }
  }

  private static int limitInt(ObjectNode o, String f, int fallback, String where) {
    try {
      return Requests.integer(o, f, fallback, 0, f.equals("priority") ? 1_000 : Integer.MAX_VALUE);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().replace("field '" + f + "'", "field '" + where + "." + f + "'"));
    }
  }
}
