package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * The memories as one system message: a header in the query's language (pt or en) and one line per
 * memory, {@code - text}, facts and episodes in the order given (inline ones first, then what the
 * store recalled: facts, then episodes best first). Memories are taken in that order while they
 * fit; the message is counted exactly and, while over its budget, the last one taken goes.
 */
final class MemoryBlock {
  private MemoryBlock() {}

  record Chosen(String text, List<Memory> memories, int tokens) {}

  static String header(Language lang) {
    return lang == Language.PT ? "O que você lembra deste usuário (pode estar desatualizado):"
        : "What you remember about this user (it may be out of date):";
  }

  static String render(List<Memory> memories, Language lang) {
    StringBuilder sb = new StringBuilder(header(lang));
    for (Memory m : memories) sb.append("\n- ").append(m.text().strip().replace('\n', ' '));
    return sb.toString();
  }

  /** What all of them cost as one message (0 when there are none). */
  static int need(List<Memory> memories, Language lang, Tokenizer tok) {
    return memories.isEmpty() ? 0 : MessageCost.of(render(memories, lang), tok);
  }

  static Chosen choose(List<Memory> memories, Language lang, int budget, Tokenizer tok, Trace trace) {
    if (memories.isEmpty()) return new Chosen("", List.of(), 0);
    int used = MessageCost.of(header(lang), tok);
    List<Memory> taken = new ArrayList<>();
    List<Integer> index = new ArrayList<>();
    for (int i = 0; i < memories.size(); i++) {
      Memory m = memories.get(i);
      int c = tok.count("\n- " + m.text().strip().replace('\n', ' '));
      if (used + c <= budget) {
        taken.add(m);
        index.add(i);
        used += c;
      } else {
        trace.add(Stage.MEMORIES, Action.DROP, "memories:budget", List.of(m.id()), "", c,
            m.kind().key() + " memory of " + c + " tokens does not fit the " + Math.max(0, budget - used) + " left of " + budget);
      }
    }
    while (!taken.isEmpty()) {
      String text = render(taken, lang);
      int exact = MessageCost.of(text, tok);
      if (exact <= budget) {
        for (Memory m : taken) {
          trace.add(Stage.MEMORIES, Action.KEEP, "memories:" + m.kind().key(), List.of(m.id()), "", 0,
              m.score() == 0 ? "given" : "recalled, score " + String.format(java.util.Locale.ROOT, "%.4f", m.score()));
        }
        return new Chosen(text, taken, exact);
      }
      Memory last = taken.remove(taken.size() - 1);
      trace.add(Stage.MEMORIES, Action.DROP, "memories:exact-count", List.of(last.id()), "", 0,
          "the memories message counted " + exact + " tokens, over " + budget + "; dropped the last one taken");
    }
    return new Chosen("", List.of(), 0);
  }
}
