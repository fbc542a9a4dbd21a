package dev.ctxpack.app.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Components;
import dev.ctxpack.assemble.PinnedOverLimitException;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * Random {@code assemble} requests as JSON: the same request gives byte-identical JSON from two
 * separately built assemblers, and the budget's {@code used} is the count of the JSON sent.
 */
class AssembleJsonPropertiesTest {
  private static final String[] WORDS = {"café", "coffee", "torra", "roast", "🌍", "<|im_start|>", "\"quoted\"", "\\", "a\nb",
      "minutes", "minutos", "the", "de"};

  private static String text(Random r, int max) {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(max + 1); i > 0; i--) sb.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    return sb.toString().strip();
  }

  static ObjectNode request(long seed) {
    Random r = new Random(seed);
    ObjectNode o = Json.object();
    o.put("model", r.nextBoolean() ? "gpt-4o" : "gpt-4");
    o.put("window", 400 + r.nextInt(4_000));
    o.put("reserve", r.nextInt(200));
    o.put("system", text(r, 60));
    ArrayNode tools = o.putArray("tools");
    for (int i = r.nextInt(6); i > 0; i--) {
      ObjectNode fn = tools.addObject().put("type", "function").putObject("function").put("name", "tool_" + i).put("description", text(r, 20));
      fn.putObject("parameters").put("type", "object").putObject("properties").putObject("x").put("type", "string")
          .put("description", text(r, 8));
      if (r.nextInt(5) == 0) ((ObjectNode) tools.get(tools.size() - 1)).put("pinned", true);
    }
    ArrayNode history = o.putArray("history");
    for (int i = r.nextInt(16); i > 0; i--) {
      if (r.nextInt(4) == 0) {
        ObjectNode call = history.addObject().put("role", "assistant").putNull("content");
        call.putArray("tool_calls").addObject().put("id", "call_" + i).put("type", "function").putObject("function")
            .put("name", "tool_1").put("arguments", "{\"x\": \"" + i + "\"}");
        history.addObject().put("role", "tool").put("tool_call_id", "call_" + i).put("content", text(r, 40));
      } else {
        history.addObject().put("role", r.nextBoolean() ? "user" : "assistant").put("content", text(r, 50))
            .put("pinned", r.nextInt(10) == 0);
      }
    }
    ArrayNode examples = o.putArray("fewShot");
    for (int i = r.nextInt(4); i > 0; i--) examples.addObject().put("input", text(r, 15)).put("output", text(r, 15));
    ArrayNode memories = o.putArray("memories");
    for (int i = r.nextInt(4); i > 0; i--) memories.add(text(r, 15));
    o.put("query", text(r, 20) + " torra?");
    if (r.nextBoolean()) o.putObject("limits").putObject("history").put("cap", r.nextInt(800));
    return o;
  }

  @Property(tries = 25)
  void theSameRequestGivesByteIdenticalJson(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) throws Exception {
    String a;
    try {
      a = Json.line(AssembleEndpoint.of(Components.assembler(null, null, null, null)).handle(request(seed)));
    } catch (PinnedOverLimitException e) {
      return;
    }
    String b = Json.line(AssembleEndpoint.of(Components.assembler(null, null, null, null)).handle(request(seed)));
    assertThat(b).isEqualTo(a);
    JsonNode out = Json.parseObject(a);
    dev.ctxpack.token.Tokenizer tok = dev.ctxpack.token.Tokenizers.byName(out.get("model").asText().equals("gpt-4") ? "cl100k_base" : "o200k_base");
    int n = dev.ctxpack.assemble.MessageCost.REPLY_PRIMING;
    for (JsonNode m : out.get("messages")) {
      n += dev.ctxpack.assemble.MessageCost.of(new dev.ctxpack.assemble.Turn(m.get("role").asText(),
          m.path("content").isNull() ? "" : m.path("content").asText(), m.path("name").asText(""),
          m.path("tool_call_id").asText(""), m.has("tool_calls") ? Json.line(m.get("tool_calls")) : "", false), tok);
    }
    for (JsonNode t : out.get("tools")) n += tok.count(Json.line(t));
    assertThat(out.get("budget").get("used").asInt()).isEqualTo(n).isLessThanOrEqualTo(out.get("budget").get("limit").asInt());
  }
}
