package dev.ctxpack.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.ToolSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads tool definitions into {@link ToolSpec}s (ctxpack 0.1). Accepted, detected per tool:
 *
 * <ul>
 *   <li>OpenAI tool objects {@code {"type": "function", "function": {"name", "description",
 *       "parameters", "strict"}}} and the bare function form {@code {"name", "description",
 *       "parameters"}};
 *   <li>MCP tool objects {@code {"name", "description", "inputSchema"}} (a {@code tools/list}
 *       result {@code {"tools": [...]}}, bare or in its JSON-RPC {@code "result"}, is read as its list);
 *   <li>an OpenAPI 3 document ({@code "openapi"} and {@code "paths"}): one tool per operation, named
 *       by its {@code operationId} (characters outside {@code [A-Za-z0-9_-]} become {@code _}; without
 *       one, by method and path), described by its summary then description, its path and query
 *       parameters and its JSON request body's properties as the parameters (header and cookie
 *       parameters are the client's business, not the model's); local {@code $ref}s are resolved.
 * </ul>
 *
 * A top-level {@code "pinned": true} on a tool object marks it pinned (a ctxpack extension, not sent
 * to the model). {@link ToolSpec#schemaJson()} is the canonical OpenAI tool object: envelope keys in
 * the order {@code type, function{name, description, strict, parameters}}, schema object keys sorted,
 * no whitespace; so the same tool costs the same tokens however its source was formatted.
 *
 * <p>Errors name the tool by its index (0-based) and name, and the field: {@code tool 3
 * ("get_weather"): "parameters" must be a JSON object, was an array}. Two tools of one name are an
 * error on the second. JSON only (an OpenAPI document in YAML must be converted first). {@link #read(JsonNode,
 * boolean)} with {@code continueOnError} keeps the good tools and lists the bad ones.
 */
public final class ToolSchemas {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> HTTP_METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options", "trace");
  /** Properties flattened at most this deep, and at most this many per tool. */
  static final int MAX_DEPTH = 8;
  static final int MAX_PARAMETERS = 512;

  private ToolSchemas() {}

  /** Tools read, and the ones that could not be (empty unless asked to continue on error). */
  public record Parsed(List<ToolSpec> tools, List<Problem> problems) {
    public Parsed {
      tools = List.copyOf(tools);
      problems = List.copyOf(problems);
    }
  }

  /** A tool that could not be read: its 0-based index in the input, its name if it had one, why. */
  public record Problem(int index, String name, String message) {}

  /** All tools of {@code json}; the first bad tool fails the whole input. */
  public static List<ToolSpec> parse(String json) {
    return read(tree(json), false).tools();
  }

  /** The tools of {@code json}; with {@code continueOnError} a bad tool is a {@link Problem}. */
  public static Parsed parse(String json, boolean continueOnError) {
    return read(tree(json), continueOnError);
  }

  /** The tools of a UTF-8 JSON file. */
  public static Parsed read(Path file, boolean continueOnError) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      return parse(text, continueOnError);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The tools of an already parsed tree: an array of tool objects, one tool object, an object with
   * a {@code tools} array, or an OpenAPI 3 document.
   */
  public static Parsed read(JsonNode root, boolean continueOnError) {
    Objects.requireNonNull(root, "root");
    if (root.isObject() && root.has("openapi") && root.has("paths")) return openApi(root, continueOnError);
    JsonNode list = root.path("tools").isArray() ? root.get("tools") : root.path("result").path("tools").isArray()
        ? root.get("result").get("tools") : root;
    if (list.isObject()) list = JSON.createArrayNode().add(list);
    if (!list.isArray()) {
      throw new IllegalArgumentException("tools must be a JSON array of tool objects (or an object with a \"tools\" array,"
          + " or an OpenAPI 3 document), was " + kind(list));
    }
    List<ToolSpec> tools = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    Map<String, Integer> seen = new java.util.HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode t = list.get(i);
      try {
        ToolSpec spec = tool(t);
        unique(seen, spec.name(), i, "tool");
        tools.add(spec);
      } catch (IllegalArgumentException e) {
        String name = nameOf(t);
        String message = "tool " + i + (name == null ? "" : " (\"" + name + "\")") + ": " + e.getMessage();
        if (!continueOnError) throw new IllegalArgumentException(message, e);
        problems.add(new Problem(i, name, message));
      }
    }
    return new Parsed(tools, problems);
  }

  /** One OpenAI (wrapped or bare) or MCP tool object. */
  public static ToolSpec tool(JsonNode t) {
    if (t == null || !t.isObject()) throw new IllegalArgumentException("a tool must be a JSON object, was " + kind(t));
    boolean pinned = t.path("pinned").asBoolean(false);
    JsonNode fn = t;
    String where = "";
    if (t.has("function") || "function".equals(t.path("type").asText(null))) {
      String type = t.path("type").asText(null);
      if (type != null && !type.equals("function")) {
        throw new IllegalArgumentException("\"type\" must be \"function\", was \"" + type + "\"");
      }
      fn = t.get("function");
      where = "function.";
      if (fn == null || fn.isNull()) throw new IllegalArgumentException("\"function\" is missing");
      if (!fn.isObject()) throw new IllegalArgumentException("\"function\" must be a JSON object, was " + kind(fn));
    }
    String name = text(fn, "name", where, true);
    String description = text(fn, "description", where, false);
    String schemaKey = fn.has("inputSchema") && where.isEmpty() ? "inputSchema" : "parameters";
    JsonNode schema = fn.get(schemaKey);
    if (schema != null && schema.isNull()) schema = null;
    if (schema != null && !schema.isObject()) {
      throw new IllegalArgumentException("\"" + where + schemaKey + "\" must be a JSON object, was " + kind(schema));
    }
    JsonNode strict = fn.get("strict");
    if (strict != null && !strict.isBoolean()) {
      throw new IllegalArgumentException("\"" + where + "strict\" must be true or false, was " + kind(strict));
    }
    return spec(name, description, schema, strict == null ? null : strict.asBoolean(), pinned);
  }

  /**
   * The canonical OpenAI tool object for a function: see the class comment. {@code parameters} and
   * {@code strict} may be null (left out).
   */
  public static String canonical(String name, String description, JsonNode parameters, Boolean strict) {
    ObjectNode function = JSON.createObjectNode();
    function.put("name", name);
    if (description != null && !description.isEmpty()) function.put("description", description);
    if (strict != null) function.put("strict", strict);
    if (parameters != null) function.set("parameters", sorted(parameters));
    ObjectNode tool = JSON.createObjectNode();
    tool.put("type", "function");
    tool.set("function", function);
    try {
      return JSON.writeValueAsString(tool);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize tool " + name, e);
    }
  }

  private static ToolSpec spec(String name, String description, JsonNode schema, Boolean strict, boolean pinned) {
    List<ToolSpec.ToolParameter> params = new ArrayList<>();
    if (schema != null) SchemaProperties.flatten(schema, "", 0, params);
    return new ToolSpec(name, description, params, canonical(name, description, schema, strict), pinned);
  }

  // ---- OpenAPI 3 ----

  private static Parsed openApi(JsonNode doc, boolean continueOnError) {
    JsonNode paths = doc.get("paths");
    if (!paths.isObject()) throw new IllegalArgumentException("OpenAPI \"paths\" must be a JSON object, was " + kind(paths));
    List<ToolSpec> tools = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    Map<String, Integer> seen = new java.util.HashMap<>();
    int index = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> p = it.next();
      JsonNode item = SchemaProperties.deref(doc, p.getValue());
      for (String method : HTTP_METHODS) {
        JsonNode op = item.get(method);
        if (op == null) continue;
        String id = op.path("operationId").asText("");
        String label = "operation " + index + " (" + method.toUpperCase(java.util.Locale.ROOT) + " " + p.getKey() + ")";
        try {
          ToolSpec spec = operation(doc, p.getKey(), method, item, op);
          unique(seen, spec.name(), index, "operation");
          tools.add(spec);
        } catch (IllegalArgumentException e) {
          String message = label + ": " + e.getMessage();
          if (!continueOnError) throw new IllegalArgumentException(message, e);
          problems.add(new Problem(index, id.isEmpty() ? null : id, message));
        }
        index++;
      }
    }
    return new Parsed(tools, problems);
  }

  private static ToolSpec operation(JsonNode doc, String path, String method, JsonNode item, JsonNode op) {
    if (!op.isObject()) throw new IllegalArgumentException("the operation must be a JSON object, was " + kind(op));
    String id = op.path("operationId").asText("");
    String name = (id.isBlank() ? method + "/" + path : id).replaceAll("[^A-Za-z0-9_-]+", "_").replaceAll("^_+|_+$", "");
    if (name.isEmpty()) throw new IllegalArgumentException("no usable name: \"operationId\" is missing and the path has no letters");
    String summary = op.path("summary").asText("").strip();
    String description = op.path("description").asText("").strip();
    String text = summary.isEmpty() ? description : description.isEmpty() || description.equals(summary) ? summary : summary + "\n\n" + description;
    ObjectNode properties = JSON.createObjectNode();
    ArrayNode required = JSON.createArrayNode();
    Map<String, JsonNode> params = new TreeMap<>();
    List<String> order = new ArrayList<>();
    for (JsonNode list : new JsonNode[] {item.get("parameters"), op.get("parameters")}) {
      if (list == null) continue;
      if (!list.isArray()) throw new IllegalArgumentException("\"parameters\" must be a JSON array, was " + kind(list));
      for (JsonNode raw : list) {
        JsonNode prm = SchemaProperties.deref(doc, raw);
        String pname = prm.path("name").asText("");
        String in = prm.path("in").asText("");
        if (pname.isEmpty()) throw new IllegalArgumentException("a parameter has no \"name\"");
        if (!in.equals("path") && !in.equals("query")) continue;
        if (!params.containsKey(pname)) order.add(pname);
        params.put(pname, prm); // an operation's parameter overrides the path item's
      }
    }
    for (String pname : order) {
      JsonNode prm = params.get(pname);
      ObjectNode schema = prm.get("schema") != null && prm.get("schema").isObject()
          ? SchemaProperties.resolved(doc, prm.get("schema")).deepCopy() : JSON.createObjectNode();
      String pd = prm.path("description").asText("");
      if (!pd.isEmpty() && !schema.has("description")) schema.put("description", pd);
      properties.set(pname, schema);
      if (prm.path("required").asBoolean(false)) required.add(pname);
    }
    JsonNode body = SchemaProperties.deref(doc, op.path("requestBody"));
    JsonNode bodySchema = body.path("content").path("application/json").path("schema");
    if (bodySchema.isObject()) {
      JsonNode bs = SchemaProperties.resolved(doc, bodySchema);
      if (bs.path("properties").isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> f = bs.get("properties").fields(); f.hasNext(); ) {
          Map.Entry<String, JsonNode> e = f.next();
          if (!properties.has(e.getKey())) properties.set(e.getKey(), e.getValue());
        }
        for (JsonNode r : bs.path("required")) if (!contains(required, r.asText())) required.add(r.asText());
      } else {
        properties.set("body", bs);
        if (body.path("required").asBoolean(false)) required.add("body");
      }
    }
    ObjectNode schema = JSON.createObjectNode();
    schema.put("type", "object");
    schema.set("properties", properties);
    if (!required.isEmpty()) schema.set("required", required);
    return spec(name, text, schema, null, op.path("x-ctxpack-pinned").asBoolean(false));
  }

  /** A model cannot tell two tools of one name apart: the second is refused, naming the first. */
  private static void unique(Map<String, Integer> seen, String name, int index, String what) {
    Integer first = seen.putIfAbsent(name, index);
    if (first != null) throw new IllegalArgumentException("the name \"" + name + "\" is already used by " + what + " " + first);
  }

  private static boolean contains(ArrayNode a, String s) {
    for (JsonNode n : a) if (n.asText().equals(s)) return true;
    return false;
  }

  // ---- helpers ----

  private static JsonNode tree(String json) {
    Objects.requireNonNull(json, "json");
    try {
      JsonNode n = JSON.readTree(json);
      if (n == null || n.isMissingNode()) throw new IllegalArgumentException("no tools: the input is empty");
      return n;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not valid JSON at line " + e.getLocation().getLineNr() + ", column "
          + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage(), e);
    }
  }

  private static String text(JsonNode node, String field, String where, boolean required) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      if (required) throw new IllegalArgumentException("\"" + where + field + "\" is missing");
      return "";
    }
    if (!v.isTextual()) throw new IllegalArgumentException("\"" + where + field + "\" must be a string, was " + kind(v));
    if (required && v.asText().isBlank()) throw new IllegalArgumentException("\"" + where + field + "\" is blank");
    return v.asText();
  }

  private static String nameOf(JsonNode t) {
    if (t == null || !t.isObject()) return null;
    JsonNode n = t.path("function").isObject() ? t.path("function").path("name") : t.path("name");
    return n.isTextual() && !n.asText().isBlank() ? n.asText() : null;
  }

  static String kind(JsonNode n) {
    if (n == null || n.isMissingNode()) return "missing";
    if (n.isObject()) return "an object";
    if (n.isArray()) return "an array";
    if (n.isTextual()) return "a string";
    if (n.isBoolean()) return "a boolean";
    if (n.isNumber()) return "a number";
    return "null";
  }

  /** A copy of {@code n} with every object's keys in sorted order. */
  static JsonNode sorted(JsonNode n) {
    if (n.isObject()) {
      TreeMap<String, JsonNode> keys = new TreeMap<>();
      n.fields().forEachRemaining(e -> keys.put(e.getKey(), sorted(e.getValue())));
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      keys.forEach(o::set);
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = JsonNodeFactory.instance.arrayNode();
      n.forEach(x -> a.add(sorted(x)));
      return a;
    }
    return n;
  }
}
