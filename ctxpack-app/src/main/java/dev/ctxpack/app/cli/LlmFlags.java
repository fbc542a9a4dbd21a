package dev.ctxpack.app.cli;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.onnx.OpenAiChatClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The chat model of a command ({@code pack --execute} calls it, {@code assemble} summarises older
 * history turns with it, {@code serve} does both): any OpenAI-compatible endpoint, its key only
 * from the environment, so it stays out of shell histories and process lists.
 */
final class LlmFlags {
  @Option(names = "--llm", paramLabel = "openai:MODEL",
      description = "A chat model at any OpenAI-compatible endpoint (pack --execute calls it for every plan step;"
          + " assemble and serve also summarise older history turns with it): base URL from --llm-url or"
          + " CTXPACK_LLM_URL (default https://api.openai.com/v1), key from CTXPACK_LLM_KEY or OPENAI_API_KEY."
          + " Default: none (plans run offline, summaries are extractive).")
  String llm;

  @Option(names = "--llm-url", paramLabel = "URL", description = "Base URL of the --llm endpoint (overrides CTXPACK_LLM_URL).")
  String llmUrl;

  /** The model of {@code --llm} at {@code --llm-url} (else {@code CTXPACK_LLM_URL}), or null (none). */
  LlmClient client() {
    if (llm == null) {
      if (llmUrl != null) throw new UsageException("--llm-url needs --llm openai:MODEL");
      return null;
    }
    if (!llm.startsWith("openai:") || llm.length() == "openai:".length()) {
      throw new UsageException("--llm must be openai:MODEL, was '" + llm + "'");
    }
    String name = llm.substring("openai:".length());
    try {
      if (llmUrl == null) return OpenAiChatClient.fromEnvironment(name);
      String key = System.getenv(OpenAiChatClient.KEY_ENV);
      if (key == null || key.isBlank()) key = System.getenv("OPENAI_API_KEY");
      return OpenAiChatClient.of(llmUrl, name, key == null || key.isBlank() ? null : key, Duration.ofSeconds(60));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--llm: " + e.getMessage());
    }
  }

  /** These options as arguments, to hand them on to another command's defaults. */
  String[] args() {
    List<String> a = new ArrayList<>();
    if (llm != null) a.addAll(List.of("--llm", llm));
    if (llmUrl != null) a.addAll(List.of("--llm-url", llmUrl));
    return a.toArray(String[]::new);
  }
}
