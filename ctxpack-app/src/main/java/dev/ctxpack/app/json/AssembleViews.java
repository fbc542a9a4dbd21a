package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.Assembly;
import dev.ctxpack.assemble.Component;
import dev.ctxpack.assemble.Replay;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.model.Decision;

/**
 * The JSON of {@code assemble} (docs/API.md): the messages in OpenAI's chat format with the tools,
 * the same window in Anthropic's Messages API shape, the budget, the waste report, how the history
 * was fitted, the evidence's sources, and the trace.
 */
public final class AssembleViews {
  private AssembleViews() {}

  public static ObjectNode assembly(String id, String model, Assembly a) {
    ObjectNode o = Json.object();
    if (id != null) o.put("id", id);
    o.put("model", model);
    ArrayNode messages = o.putArray("messages");
    for (Assembly.Message m : a.messages()) messages.add(openAi(m.turn()));
    ArrayNode tools = o.putArray("tools");
    for (ToolSpec t : a.tools()) tools.add(AssembleRequests.parse(t.schemaJson()));
    o.set("anthropic", anthropic(a));
    ObjectNode b = o.putObject("budget");
    b.put("window", a.budget().window());
    b.put("reserve", a.budget().reserve());
    b.put("limit", a.budget().limit());
    b.put("used", a.budget().used());
    b.put("left", a.budget().limit() - a.budget().used());
    b.set("byComponent", byComponent(a.budget()));
    ObjectNode waste = o.putObject("waste");
    waste.put("threshold", dev.ctxpack.assemble.Assembler.WASTE_SHARE);
    ArrayNode flags = waste.putArray("flags");
    for (Assembly.WasteFlag f : a.waste()) {
      flags.addObject().put("component", f.component().key()).put("tokens", f.tokens())
          .put("share", Math.round(f.share() * 1000) / 1000.0).put("shrink", f.shrink());
    }
    ObjectNode h = o.putObject("history");
    h.put("given", a.history().given()).put("sent", a.history().sent()).put("dropped", a.history().dropped())
        .put("summarised", a.history().summarised()).put("pruned", a.history().pruned())
        .put("compacted", a.history().compacted()).put("compactor", a.history().compactor());
    o.set("sources", a.evidence().map(p -> Views.pack(null, p).get("sources")).orElse(Json.MAPPER.createArrayNode()));
    a.evidence().ifPresent(p -> o.set("evidence", Views.evidence(p.evidence())));
    Views.coverage(o, a.trace());
    ArrayNode trace = o.putArray("trace");
    for (Decision d : a.trace()) trace.add(Views.decision(d));
    return o;
  }

  public static ObjectNode byComponent(Assembly.WindowBudget budget) {
    ObjectNode by = Json.object();
    for (Component c : Component.values()) by.put(c.key(), budget.get(c));
    return by;
  }

  /** One message as OpenAI's chat API takes it. */
  public static ObjectNode openAi(Turn t) {
    ObjectNode m = Json.object();
    m.put("role", t.role());
    if (t.content().isEmpty() && !t.toolCallsJson().isEmpty()) m.putNull("content");
    else m.put("content", t.content());
    if (!t.name().isEmpty()) m.put("name", t.name());
    if (!t.toolCallId().isEmpty()) m.put("tool_call_id", t.toolCallId());
    if (!t.toolCallsJson().isEmpty()) m.set("tool_calls", AssembleRequests.parse(t.toolCallsJson()));
    return m;
  }

  /**
   * The window in Anthropic's Messages API shape: {@code system} a list of text blocks (the system
   * prompt, the memories, and any system turn of the history, which that API has no role for);
   * {@code messages} alternating user and assistant (consecutive messages of one role merged into
   * one of content blocks); an assistant's tool calls as {@code tool_use} blocks, tool results as
   * {@code tool_result} blocks of a user message; {@code tools} as {@code {name, description,
   * input_schema}}. A message with no text, call or result is left out (that API refuses empty text).
   */
  public static ObjectNode anthropic(Assembly a) {
    ObjectNode o = Json.object();
    ArrayNode system = o.putArray("system");
    ArrayNode messages = o.putArray("messages");
    String role = null;
    ArrayNode blocks = null;
    for (Assembly.Message m : a.messages()) {
      Turn t = m.turn();
      if (t.role().equals("system")) {
        system.addObject().put("type", "text").put("text", t.content());
        continue;
      }
      // That API refuses empty text: a message with nothing in it (no text, no call, no result) is left out.
      if (t.content().isEmpty() && t.toolCallsJson().isEmpty() && !t.isToolResult()) continue;
      String r = t.role().equals("assistant") ? "assistant" : "user";
      if (!r.equals(role)) {
        ObjectNode msg = messages.addObject().put("role", r);
        blocks = msg.putArray("content");
        role = r;
      }
      if (t.isToolResult()) {
        blocks.addObject().put("type", "tool_result").put("tool_use_id", t.toolCallId()).put("content", t.content());
        continue;
      }
      if (!t.content().isEmpty()) blocks.addObject().put("type", "text").put("text", t.content());
      if (!t.toolCallsJson().isEmpty()) {
        for (JsonNode c : AssembleRequests.parse(t.toolCallsJson())) {
          JsonNode fn = c.get("function");
          String args = fn.path("arguments").asText("");
          ObjectNode use = blocks.addObject().put("type", "tool_use").put("id", c.get("id").asText()).put("name", fn.get("name").asText());
          use.set("input", args.isBlank() ? Json.object() : AssembleRequests.parse(args));
        }
      }
    }
    // A message of a single text block is sent as a plain string.
    for (JsonNode msg : messages) {
      JsonNode content = msg.get("content");
      if (content.size() == 1 && content.get(0).path("type").asText().equals("text")) {
        ((ObjectNode) msg).put("content", content.get(0).get("text").asText());
      }
    }
    ArrayNode tools = o.putArray("tools");
    for (ToolSpec t : a.tools()) {
      JsonNode fn = AssembleRequests.parse(t.schemaJson()).get("function");
      ObjectNode x = tools.addObject().put("name", t.name());
      if (!t.description().isEmpty()) x.put("description", t.description());
      JsonNode params = fn.get("parameters");
      x.set("input_schema", params != null && params.isObject() ? params
          : Json.object().put("type", "object").set("properties", Json.object()));
    }
    return o;
  }

  public static ObjectNode replay(Replay.Result r) {
    ObjectNode o = Json.object();
    o.put("window", r.window()).put("reserve", r.reserve()).put("limit", r.limit());
    if (r.compressionStartsAt() > 0) o.put("compressionStartsAt", r.compressionStartsAt());
    else o.putNull("compressionStartsAt");
    ArrayNode turns = o.putArray("turns");
    for (Replay.Step s : r.steps()) {
      ObjectNode t = turns.addObject().put("turn", s.turn()).put("index", s.index()).put("used", s.budget().used());
      t.set("byComponent", byComponent(s.budget()));
      t.putObject("history").put("given", s.history().given()).put("sent", s.history().sent())
          .put("dropped", s.history().dropped()).put("summarised", s.history().summarised())
          .put("pruned", s.history().pruned()).put("compacted", s.history().compacted());
      t.put("tools", s.tools()).put("evidence", s.evidence());
    }
    return o;
  }
}
