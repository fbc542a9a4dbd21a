package dev.ctxpack.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.ToolSpec;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON schema walking for {@link ToolSchemas}: flattening properties and resolving local refs. */
final class SchemaProperties {
  private SchemaProperties() {}

  /**
   * Appends the properties of {@code schema} under {@code prefix}: nested objects as {@code a.b},
   * an array's item properties under the array's name, {@code anyOf}/{@code oneOf}/{@code allOf}
   * branches merged. A property without a description takes its title, or its items' description.
   */
  static void flatten(JsonNode schema, String prefix, int depth, List<ToolSpec.ToolParameter> out) {
    if (depth > ToolSchemas.MAX_DEPTH || out.size() >= ToolSchemas.MAX_PARAMETERS || !schema.isObject()) return;
    JsonNode props = schema.get("properties");
    if (props != null && props.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext() && out.size() < ToolSchemas.MAX_PARAMETERS; ) {
        Map.Entry<String, JsonNode> e = it.next();
        String name = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
        JsonNode p = e.getValue();
        if (!out.stream().anyMatch(x -> x.name().equals(name))) out.add(new ToolSpec.ToolParameter(name, describe(p)));
        flatten(p, name, depth + 1, out);
      }
    }
    JsonNode items = schema.get("items");
    if (items != null && items.isObject()) flatten(items, prefix, depth + 1, out);
    for (String k : List.of("anyOf", "oneOf", "allOf")) {
      JsonNode branches = schema.get(k);
      if (branches != null && branches.isArray()) for (JsonNode b : branches) flatten(b, prefix, depth + 1, out);
    }
  }

  private static String describe(JsonNode p) {
    for (JsonNode n : new JsonNode[] {p, p.path("items")}) {
      String d = n.path("description").asText("");
      if (d.isBlank()) d = n.path("title").asText("");
      if (!d.isBlank()) return d.strip();
    }
    return "";
  }

  /** {@code node}, or what its local {@code $ref} ({@code #/a/b}) points to; a missing node stays missing. */
  static JsonNode deref(JsonNode doc, JsonNode node) {
    JsonNode n = node;
    for (int hops = 0; n != null && n.isObject() && n.has("$ref") && hops < 16; hops++) {
      n = pointer(doc, n.get("$ref").asText(""));
    }
    return n == null ? MissingNode.getInstance() : n;
  }

  /** A copy of {@code schema} with every local {@code $ref} replaced by its target; a cycle becomes {@code {}}. */
  static JsonNode resolved(JsonNode doc, JsonNode schema) {
    return resolve(doc, schema, new ArrayDeque<>(), 0);
  }

  private static JsonNode resolve(JsonNode doc, JsonNode n, Deque<String> stack, int depth) {
    if (depth > 32) return JsonNodeFactory.instance.objectNode();
    if (n.isObject() && n.has("$ref")) {
      String ref = n.get("$ref").asText("");
      if (stack.contains(ref)) return JsonNodeFactory.instance.objectNode();
      JsonNode target = pointer(doc, ref);
      if (target == null) throw new IllegalArgumentException("\"$ref\" " + ref + " does not resolve to anything in the document");
      stack.push(ref);
      JsonNode out = resolve(doc, target, stack, depth + 1);
      stack.pop();
      return out;
    }
    if (n.isObject()) {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      n.fields().forEachRemaining(e -> o.set(e.getKey(), resolve(doc, e.getValue(), stack, depth + 1)));
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = JsonNodeFactory.instance.arrayNode();
      n.forEach(x -> a.add(resolve(doc, x, stack, depth + 1)));
      return a;
    }
    return n;
  }

  private static JsonNode pointer(JsonNode doc, String ref) {
    if (!ref.startsWith("#/")) {
      throw new IllegalArgumentException("\"$ref\" " + ref + " is not a local reference (#/...); only those are resolved");
    }
    JsonNode n = doc.at(ref.substring(1));
    return n.isMissingNode() ? null : n;
  }
}
