package dev.ctxpack.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tools of an {@code assemble} request, as {@link ToolSpec}s. A tool is an OpenAI tool object,
 * {@code {"type": "function", "function": {"name", "description", "parameters"}}}, or the bare
 * function object {@code {"name", "description", "parameters"}}; {@code "pinned": true} beside
 * either keeps it in whatever its rank. The schema sent (and counted) is the OpenAI tool object,
 * without {@code pinned}, serialized compactly. Kept to this one class so that a fuller schema loader
 * can take its place.
 */
final class AssembleTools {
  private AssembleTools() {}

  static ToolSpec parse(JsonNode tool, String where) {
    if (!tool.isObject()) throw new IllegalArgumentException(where + " must be an object");
    JsonNode fn = tool.has("function") ? tool.get("function") : tool;
    if (!fn.isObject()) throw new IllegalArgumentException(where + ".function must be an object");
    if (tool.has("type") && !tool.get("type").asText().equals("function")) {
      throw new IllegalArgumentException(where + ".type must be \"function\", was " + tool.get("type"));
    }
    JsonNode name = fn.get("name");
    if (name == null || !name.isTextual() || name.asText().isBlank()) {
      throw new IllegalArgumentException(where + ": field 'name' must be a non-empty string");
    }
    JsonNode desc = fn.get("description");
    if (desc != null && !desc.isNull() && !desc.isTextual()) throw new IllegalArgumentException(where + ": field 'description' must be a string");
    JsonNode params = fn.get("parameters");
    if (params != null && !params.isNull() && !params.isObject()) {
      throw new IllegalArgumentException(where + ": field 'parameters' must be a JSON schema object");
    }
    JsonNode pinned = tool.get("pinned");
    if (pinned != null && !pinned.isNull() && !pinned.isBoolean()) throw new IllegalArgumentException(where + ": field 'pinned' must be true or false");
    ObjectNode function = ((ObjectNode) fn).deepCopy();
    function.remove("pinned");
    ObjectNode sent = Json.object();
    sent.put("type", "function");
    sent.set("function", function);
    List<ToolSpec.ToolParameter> flat = new ArrayList<>();
    if (params != null && params.isObject()) flatten(params, "", flat, 0);
    return new ToolSpec(name.asText(), desc == null || desc.isNull() ? "" : desc.asText(), flat, Json.line(sent),
        pinned != null && pinned.asBoolean());
  }

  /** The properties of {@code schema}, nested ones as {@code a.b}, each with its description. */
  private static void flatten(JsonNode schema, String prefix, List<ToolSpec.ToolParameter> out, int depth) {
    JsonNode props = schema.get("properties");
    if (props == null || !props.isObject() || depth > 8) return;
    for (Map.Entry<String, JsonNode> e : props.properties()) {
      String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
      JsonNode d = e.getValue().get("description");
      out.add(new ToolSpec.ToolParameter(path, d != null && d.isTextual() ? d.asText() : ""));
      if (e.getValue().isObject()) {
        flatten(e.getValue(), path, out, depth + 1);
        JsonNode items = e.getValue().get("items");
        if (items != null && items.isObject()) flatten(items, path, out, depth + 1);
      }
    }
  }
}
