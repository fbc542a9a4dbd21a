package dev.ctxpack.guard;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One detection rule: its id ({@code en.ignore-previous}), its family ({@code override}, {@code
 * role}, {@code fence}, {@code tool}, {@code exfil}, {@code hidden}) and what it matches: a
 * pattern over the {@link FoldedText folded} text (lower case, no accents, one space between
 * words), or phrases over its letters alone ({@code compact}, for text written with gaps). {@code
 * triggers} are substrings a pattern's match must contain; without any of them it is not run. {@code
 * requires} is a second such condition, checked after the triggers: every match also contains one of
 * them (a pattern built of alternatives whose trigger words are common, such as "function" in "use
 * the function x with", names here the longer strings each alternative cannot match without). Both
 * only skip a text the pattern cannot match, so they never change a hit.
 */
public record InjectionRule(String id, String family, Pattern pattern, List<String> compact, List<String> triggers,
    List<String> requires) {
  public InjectionRule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(family, "family");
    compact = compact == null ? List.of() : List.copyOf(compact);
    triggers = triggers == null ? List.of() : List.copyOf(triggers);
    requires = requires == null ? List.of() : List.copyOf(requires);
    if (pattern == null && compact.isEmpty()) throw new IllegalArgumentException("rule " + id + " matches nothing");
  }

  /** A rule with no {@code requires}. */
  public InjectionRule(String id, String family, Pattern pattern, List<String> compact, List<String> triggers) {
    this(id, family, pattern, compact, triggers, List.of());
  }

  /** This rule, run only on text that also holds one of {@code strings} (words or other strings, as triggers are read). */
  InjectionRule requiring(List<String> strings) {
    return new InjectionRule(id, family, pattern, compact, triggers, strings);
  }

  /**
   * Every string {@code prefix + middle + suffix} for each prefix, middle and suffix in turn: the
   * literal forms of a pattern such as {@code (?:call|use) (?:the )?(?:tool|function) }.
   */
  static List<String> every(List<String> prefixes, List<String> middles, List<String> suffixes) {
    List<String> out = new java.util.ArrayList<>();
    for (String p : prefixes) for (String m : middles) for (String s : suffixes) out.add(p + m + s);
    return out;
  }

  /** A pattern rule that runs only on text holding one of {@code triggers} (empty: always). */
  static InjectionRule regex(String id, List<String> triggers, String family, String regex) {
    return new InjectionRule(id, family, Pattern.compile(regex, Pattern.MULTILINE), List.of(), triggers, List.of());
  }

  static InjectionRule compact(String id, String family, String... phrases) {
    return new InjectionRule(id, family, null, List.of(phrases), List.of(), List.of());
  }

  /**
   * Whether the folded text can match: it holds one of the triggers (or the rule has none) and one of
   * the strings the rule requires (or it requires none). A string of letters alone is looked up among
   * the text's {@code words}, another is searched for in {@code folded}.
   */
  boolean mayMatch(String folded, java.util.Set<String> words) {
    return holdsAny(triggers, folded, words) && holdsAny(requires, folded, words);
  }

  private static boolean holdsAny(List<String> strings, String folded, java.util.Set<String> words) {
    if (strings.isEmpty()) return true;
    for (String t : strings) {
      if (isWord(t) ? words.contains(t) : folded.contains(t)) return true;
    }
    return false;
  }

  /** Letters a-z only (what {@link InjectionDetector} collects as words). */
  static boolean isWord(String t) {
    if (t.isEmpty()) return false;
    for (int i = 0; i < t.length(); i++) if (t.charAt(i) < 'a' || t.charAt(i) > 'z') return false;
    return true;
  }
}
