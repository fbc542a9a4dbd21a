package dev.ctxpack.llm;

import java.io.IOException;
import java.util.List;

/**
 * A chat model. Implementations are thread-safe; they ask for deterministic output (temperature 0)
 * where the service allows it, though a remote model may still vary.
 */
public interface LlmClient {
  /** Names the model, e.g. {@code openai:gpt-4o-mini}. */
  String id();

  /** The model's reply to {@code messages}. */
  String chat(List<ChatMessage> messages) throws IOException;
}
