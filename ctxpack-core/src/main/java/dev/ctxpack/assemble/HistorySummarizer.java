package dev.ctxpack.assemble;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.llm.ChatMessage;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the one message that stands for the older turns of a conversation: a header and one line
 * per turn that kept anything, each starting with who said it ({@code user: …}, {@code assistant:
 * …}). Extractive by default (the compressor keeps the turns' sentences that bear most on the
 * query, verbatim, joined by {@code " … "}); with an {@link LlmClient}, the model writes the lines
 * and the extractive summary is the fallback when it fails. The result always costs at most the
 * budget it is given, counted as one message ({@link MessageCost}).
 */
final class HistorySummarizer {
  /** The fewest tokens a summary may have: a header and one short line. */
  static final int MIN_TOKENS = 24;
  /** How many times the compressor's budget is tightened by the overshoot before lines are dropped. */
  static final int FIT_ROUNDS = 6;
  /** Most characters of the older turns sent to the model (the rest is summarised without it). */
  static final int LLM_MAX_INPUT_CHARS = 200_000;

  private final Compressor compressor;
  private final LlmClient llm;

  HistorySummarizer(Compressor compressor, LlmClient llm) {
    this.compressor = compressor;
    this.llm = llm;
  }

  /** A summary: its text and how it was made ({@code history:extractive}, {@code history:llm:<id>}). */
  record Summary(String text, String rule, String note) {}

  /**
   * The summary of {@code turns} (the older turns, in conversation order, with their indexes in the
   * history) in at most {@code budget} tokens as one message, or {@code null} when nothing of them
   * fits.
   */
  Summary summarise(String query, List<Turn> turns, List<Integer> indexes, int budget, Tokenizer tokenizer,
      HistoryWording words) throws IOException {
    if (budget < MIN_TOKENS) return null;
    String note = "";
    if (llm != null) {
      try {
        String text = byModel(query, turns, budget, tokenizer, words);
        if (text != null) return new Summary(text, "history:llm:" + llm.id(), "");
        note = "the model's summary was empty; extractive instead";
      } catch (IOException | RuntimeException e) {
        note = "the model failed (" + e.getMessage() + "); extractive instead";
      }
    }
    String text = extractive(query, turns, indexes, budget, tokenizer, words);
    return text == null ? null : new Summary(text, "history:extractive", note);
  }

  private String extractive(String query, List<Turn> turns, List<Integer> indexes, int budget, Tokenizer tokenizer,
      HistoryWording words) throws IOException {
    List<CompressInput> inputs = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      Turn t = turns.get(i);
      if (t.content().isBlank()) continue;
      inputs.add(CompressInput.of("t" + indexes.get(i), t.content()));
      labels.add(words.label(t));
    }
    if (inputs.isEmpty()) return null;
    String q = query;
    if (q == null || q.isBlank()) q = lastUser(turns);
    if (q == null) return null;
    int overhead = MessageCost.of(words.header(), tokenizer);
    int room = budget - overhead;
    for (int round = 0; round < FIT_ROUNDS && room > 0; round++) {
      Compression c = compressor.compress(q, inputs, CompressOptions.budget(room));
      List<String> lines = new ArrayList<>();
      for (Compression.Compressed kept : c.passages()) {
        int at = indexOf(inputs, kept.id());
        lines.add(labels.get(at) + ": " + oneLine(kept.text()));
      }
      if (lines.isEmpty()) return null;
      String text = render(words, lines);
      int cost = MessageCost.of(text, tokenizer);
      if (cost <= budget) return text;
      if (round == FIT_ROUNDS - 1) return fit(words, lines, budget, tokenizer, true);
      room -= cost - budget;
    }
    return null;
  }

  private String byModel(String query, List<Turn> turns, int budget, Tokenizer tokenizer, HistoryWording words)
      throws IOException {
    StringBuilder transcript = new StringBuilder();
    for (Turn t : turns) {
      if (t.content().isBlank()) continue;
      if (transcript.length() > LLM_MAX_INPUT_CHARS) break;
      transcript.append(words.label(t)).append(": ").append(oneLine(t.content())).append('\n');
    }
    if (transcript.length() == 0) return null;
    int lineBudget = budget - MessageCost.of(words.header(), tokenizer);
    String system = "You summarise the earlier part of a conversation so that a model can continue it. Write one line"
        + " per point, each starting with who said it: '" + words.user() + ": ', '" + words.assistant() + ": ' or '"
        + words.tool() + " NAME: '. Keep names, numbers, dates, decisions, preferences and open questions; keep first"
        + " what bears on the current question. Do not add anything that was not said. Write in "
        + words.languageName() + ", at most " + Math.max(1, lineBudget) + " tokens, no heading.";
    String user = (query == null || query.isBlank() ? "" : "Current question: " + query + "\n\n")
        + "Conversation:\n" + transcript;
    String reply = llm.chat(List.of(ChatMessage.system(system), ChatMessage.user(user)));
    if (reply == null) return null;
    List<String> lines = new ArrayList<>();
    for (String l : reply.split("\n")) {
      if (!l.isBlank()) lines.add(l.strip());
    }
    if (lines.isEmpty()) return null;
    // The model may overrun the length it was asked for: its last lines go first.
    return fit(words, lines, budget, tokenizer, false);
  }

  /**
   * Header and {@code lines} in at most {@code budget} tokens, dropping lines (the oldest first when
   * {@code oldestFirst}, else the last) until they fit; null when not even one does.
   */
  private static String fit(HistoryWording words, List<String> lines, int budget, Tokenizer tokenizer,
      boolean oldestFirst) {
    List<String> kept = new ArrayList<>(lines);
    while (!kept.isEmpty()) {
      String text = render(words, kept);
      if (MessageCost.of(text, tokenizer) <= budget) return text;
      kept.remove(oldestFirst ? 0 : kept.size() - 1);
    }
    return null;
  }

  static String render(HistoryWording words, List<String> lines) {
    return words.header() + "\n" + String.join("\n", lines);
  }

  /** A turn's text on one line: its line breaks become spaces, so each summary line is one turn. */
  static String oneLine(String text) {
    return text.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  private static int indexOf(List<CompressInput> inputs, String id) {
    for (int i = 0; i < inputs.size(); i++) if (inputs.get(i).id().equals(id)) return i;
    throw new IllegalStateException("the compressor returned an unknown passage " + id);
  }

  private static String lastUser(List<Turn> turns) {
    for (int i = turns.size() - 1; i >= 0; i--) {
      Turn t = turns.get(i);
      if (t.role().equals("user") && !t.content().isBlank()) return t.content();
    }
    for (int i = turns.size() - 1; i >= 0; i--) if (!turns.get(i).content().isBlank()) return turns.get(i).content();
    return null;
  }
}
