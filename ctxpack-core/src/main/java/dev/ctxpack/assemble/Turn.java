package dev.ctxpack.assemble;

import java.util.Objects;
import java.util.Set;

/**
 * One message of a conversation. {@code role} is {@code system}, {@code user}, {@code assistant}
 * or {@code tool}. {@code name} is the tool's name on a tool result (else empty); {@code
 * toolCallId} links a tool result to the assistant's call (else empty); {@code toolCallsJson} is
 * the serialized {@code tool_calls} array of an assistant turn that calls tools (else empty). A
 * pinned turn is never summarised or pruned.
 */
public record Turn(String role, String content, String name, String toolCallId, String toolCallsJson, boolean pinned) {
  private static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool");

  public Turn {
    Objects.requireNonNull(role, "role");
    if (!ROLES.contains(role)) {
      throw new IllegalArgumentException("unknown role '" + role + "': use system, user, assistant or tool");
    }
    content = content == null ? "" : content;
    name = name == null ? "" : name;
    toolCallId = toolCallId == null ? "" : toolCallId;
    toolCallsJson = toolCallsJson == null ? "" : toolCallsJson;
  }

  public static Turn of(String role, String content) {
    return new Turn(role, content, "", "", "", false);
  }

  public boolean isToolResult() {
    return role.equals("tool");
  }

  public Turn withContent(String c) {
    return new Turn(role, c, name, toolCallId, toolCallsJson, pinned);
  }
}
