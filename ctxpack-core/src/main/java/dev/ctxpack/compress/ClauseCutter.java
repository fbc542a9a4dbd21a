package dev.ctxpack.compress;

import dev.ctxpack.text.Terms;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts a sentence to its best clause-aligned part that fits the room left: the stretch between
 * clause boundaries ({@code , ; : — –} followed by a space) holding the most query terms, still a
 * verbatim substring. {@link BudgetedSelector} asks it for the best sentences left when room remains
 * but no whole sentence fits. Thread-safe.
 */
final class ClauseCutter {
  /** The fewest tokens worth a clause cut: less is rarely a statement. */
  static final int MIN_CLAUSE_TOKENS = 8;

  private final Tokenizer tokenizer;

  ClauseCutter(Tokenizer tokenizer) {
    this.tokenizer = tokenizer;
  }

  /**
   * The part of {@code s} between clause boundaries ({@code , ; : — –} and the like) that fits
   * {@code room} tokens and holds the most query terms (ties: the longer, then the earlier), as
   * offsets in the part; {@code null} when none fits or none holds a query term.
   */
  int[] bestClause(String query, Sentence s, int room) {
    if (room < MIN_CLAUSE_TOKENS) return null;
    String text = s.text();
    List<Integer> bounds = new ArrayList<>();
    bounds.add(0);
    for (int i = 0; i < text.length() - 1; i++) {
      char c = text.charAt(i);
      if ((c == ',' || c == ';' || c == ':' || c == '—' || c == '–' || c == ')') && Character.isWhitespace(text.charAt(i + 1))) {
        bounds.add(i + 2);
      }
    }
    bounds.add(text.length());
    if (bounds.size() < 3) return null;
    Set<String> q = SentenceFilter.queryTerms(query);
    int best = -1;
    int[] bestSpan = null;
    int bestLength = 0;
    for (int a = 0; a < bounds.size() - 1; a++) {
      for (int b = a + 1; b < bounds.size(); b++) {
        if (a == 0 && b == bounds.size() - 1) continue; // the whole sentence did not fit
        int start = bounds.get(a);
        int end = bounds.get(b);
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) end--;
        if (end <= start) continue;
        String piece = text.substring(start, end);
        if (tokenizer.count(piece) > room) break;
        Set<String> hit = new HashSet<>();
        Terms.scan(piece, (t, at) -> {
          String w = t.toString();
          if (q.contains(w)) hit.add(w);
        });
        if (hit.size() > best || (hit.size() == best && end - start > bestLength)) {
          best = hit.size();
          bestLength = end - start;
          bestSpan = new int[] {s.start() + start, s.start() + end};
        }
      }
    }
    return best > 0 ? bestSpan : null;
  }
}
