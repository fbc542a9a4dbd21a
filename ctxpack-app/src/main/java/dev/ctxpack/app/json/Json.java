package dev.ctxpack.app.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON of the CLI and the service: compact single lines, stable key order, nesting limited to
 * 64 levels and a key given twice refused when reading.
 */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  static {
    MAPPER.configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, false);
    // A key given twice is refused, not read as its last value: {"k": 5, "k": 1000000} is ambiguous.
    MAPPER.enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    MAPPER.getFactory().setStreamReadConstraints(
        StreamReadConstraints.builder().maxNestingDepth(64).maxStringLength(50_000_000).build());
  }

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  public static String line(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String pretty(JsonNode node) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Parses one JSON object, or throws {@link IllegalArgumentException} saying what is wrong. */
  public static ObjectNode parseObject(String line) {
    JsonNode n;
    try {
      n = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage());
    }
    if (n == null || !n.isObject()) throw new IllegalArgumentException("expected a JSON object");
    return (ObjectNode) n;
  }
}
