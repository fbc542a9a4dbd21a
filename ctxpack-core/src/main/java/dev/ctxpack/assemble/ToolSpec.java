package dev.ctxpack.assemble;

import java.util.List;
import java.util.Objects;

/**
 * A tool the model may call. {@code schemaJson} is the tool's definition exactly as it is sent to
 * the model (the serialized OpenAI tool object {@code {"type": "function", "function": {"name",
 * "description", "parameters"}}}); its cost is the token count of that text. {@code parameters}
 * flattens the JSON schema's properties (nested ones as {@code a.b}) with their descriptions, for
 * ranking. A pinned tool is always included.
 */
public record ToolSpec(String name, String description, List<ToolParameter> parameters, String schemaJson,
    boolean pinned) {
  public ToolSpec {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) throw new IllegalArgumentException("tool name must not be blank");
    description = description == null ? "" : description;
    parameters = parameters == null ? List.of() : List.copyOf(parameters);
    Objects.requireNonNull(schemaJson, "schemaJson");
  }

  /** One property of a tool's parameter schema: its dotted path and its description (may be empty). */
  public record ToolParameter(String name, String description) {
    public ToolParameter {
      Objects.requireNonNull(name, "name");
      description = description == null ? "" : description;
    }
  }
}
