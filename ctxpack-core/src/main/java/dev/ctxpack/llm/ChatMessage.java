package dev.ctxpack.llm;

import java.util.Objects;

/** One chat message: {@code role} is {@code system}, {@code user}, {@code assistant} or {@code tool}. */
public record ChatMessage(String role, String content) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }

  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }
}
