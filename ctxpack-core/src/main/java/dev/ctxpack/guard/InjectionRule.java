package dev.ctxpack.guard;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One detection rule: its id ({@code en.ignore-previous}), its family ({@code override}, {@code
 * role}, {@code fence}, {@code tool}, {@code exfil}, {@code hidden}) and what it matches: a
 * pattern over the {@link FoldedText folded} text (lower case, no accents, one space between
 * words), or phrases over its letters alone ({@code compact}, for text written with gaps). {@code
 * triggers} are substrings a pattern's match must contain; without any of them it is not run.
 */
public record InjectionRule(String id, String family, Pattern pattern, List<String> compact, List<String> triggers) {
  public InjectionRule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(family, "family");
    compact = compact == null ? List.of() : List.copyOf(compact);
    triggers = triggers == null ? List.of() : List.copyOf(triggers);
    if (pattern == null && compact.isEmpty()) throw new IllegalArgumentException("rule " + id + " matches nothing");
  }

  /** A pattern rule that runs only on text holding one of {@code triggers} (empty: always). */
  static InjectionRule regex(String id, List<String> triggers, String family, String regex) {
    return new InjectionRule(id, family, Pattern.compile(regex, Pattern.MULTILINE), List.of(), triggers);
  }

  static InjectionRule compact(String id, String family, String... phrases) {
    return new InjectionRule(id, family, null, List.of(phrases), List.of());
  }

  /**
   * Whether the folded text can match: a trigger of letters alone is among its {@code words}, another
   * trigger occurs in {@code folded}, or the rule has none.
   */
  boolean mayMatch(String folded, java.util.Set<String> words) {
    if (triggers.isEmpty()) return true;
    for (String t : triggers) {
      if (isWord(t) ? words.contains(t) : folded.contains(t)) return true;
    }
    return false;
  }

  /** Letters a-z only (what {@link InjectionDetector} collects as words). */
  private static boolean isWord(String t) {
    if (t.isEmpty()) return false;
    for (int i = 0; i < t.length(); i++) if (t.charAt(i) < 'a' || t.charAt(i) > 'z') return false;
    return true;
  }
}
