package dev.ctxpack.assemble;

import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import java.util.List;

/**
 * The words the history compactor writes into a conversation, in its language: the summary's
 * header, who said each line, and the marker left in place of a pruned tool result. Portuguese for
 * a conversation whose user turns read as Portuguese, English otherwise.
 */
record HistoryWording(Language language, String header, String user, String assistant, String system, String tool) {
  static final HistoryWording EN = new HistoryWording(Language.EN,
      "Summary of the earlier conversation (verbatim excerpts, oldest first):", "user", "assistant", "system", "tool");
  static final HistoryWording PT = new HistoryWording(Language.PT,
      "Resumo da conversa anterior (trechos literais, do mais antigo ao mais recente):", "usuário", "assistente",
      "sistema", "ferramenta");

  /** Characters of the conversation's user turns read to tell its language. */
  static final int SAMPLE_CHARS = 2_000;

  /** The wording of {@code history}: its user turns tell the language (all turns when it has none). */
  static HistoryWording of(List<Turn> history, LanguageDetector detector) {
    StringBuilder users = new StringBuilder();
    for (Turn t : history) {
      if (users.length() >= SAMPLE_CHARS) break;
      if (t.role().equals("user")) users.append(t.content()).append('\n');
    }
    if (users.toString().isBlank()) {
      for (Turn t : history) {
        if (users.length() >= SAMPLE_CHARS) break;
        if (!t.isToolResult()) users.append(t.content()).append('\n');
      }
    }
    return detector.detect(users.toString()) == Language.PT ? PT : EN;
  }

  /** Who said {@code t}, as a summary line starts: {@code user}, {@code assistant}, {@code tool get_weather}… */
  String label(Turn t) {
    return switch (t.role()) {
      case "user" -> user;
      case "assistant" -> assistant;
      case "system" -> system;
      default -> t.name().isEmpty() ? tool : tool + " " + t.name();
    };
  }

  /** What replaces a pruned tool result: names the tool and the tokens taken out. */
  String pruned(String toolName, int tokens) {
    String name = toolName.isEmpty() ? "?" : toolName;
    return language == Language.PT
        ? "[resultado da ferramenta " + name + " removido: " + tokens + " tokens]"
        : "[tool result of " + name + " pruned: " + tokens + " tokens]";
  }

  /** The language's name, as an instruction to a model writes it. */
  String languageName() {
    return language == Language.PT ? "Portuguese" : "English";
  }
}
