package dev.ctxpack.bench.segment;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Candidate segmentation rules, measured without changing the segmenter: where a rule would add a
 * boundary ctxpack does not make (or remove one it makes), how many of those positions are gold.
 * Applied to ctxpack's predictions one at a time, each gives an estimated score. Estimates only: a
 * real change can interact with the segmenter's other rules.
 */
public final class WhatIf {
  private WhatIf() {}

  /** A rule: its name, what it does, and whether it adds boundaries (else it removes them). */
  public record Rule(String name, String description, boolean adds, Pattern pattern) {}

  private static final String CLOSERS = "[\"'”’)\\]»}]*";

  public static final List<Rule> RULES = List.of(
      new Rule("!? before lower-case", "end a sentence at ! or ? (runs, then closers) before whitespace and a lower-case letter",
          true, Pattern.compile("[!?]+" + CLOSERS + "\\s+(?=\\p{Ll})")),
      new Rule(". before lower-case", "end a sentence at a single . (closers after it) before whitespace and a lower-case letter, "
          + "unless the word before is abbreviation-like (ErrorKinds.abbreviationLike) or ends with a digit",
          true, Pattern.compile("(?<![.])\\." + CLOSERS + "\\s+(?=\\p{Ll})")),
      new Rule(": before capital", "end a sentence at : before whitespace and an upper-case letter or an opening quote",
          true, Pattern.compile(":\\s+(?=[\\p{Lu}\"“«'‘])")),
      new Rule(": before quote or dash", "end a sentence at : before whitespace and an opening quote or a dash (\" “ « ‘ — --)",
          true, Pattern.compile(":\\s+(?=[\"“«‘—]|--)")),
      new Rule("no break after ellipsis", "never end a sentence at ... or … (or ..)",
          false, Pattern.compile("(?:\\.\\.+|…)" + CLOSERS + "\\s+")));

  /** Per rule: changed positions that are gold, and that are not. */
  public record Effect(long gold, long notGold) {
    public Effect plus(Effect o) {
      return new Effect(gold + o.gold, notGold + o.notGold);
    }
  }

  /** The positions (normalised boundaries) where {@code rule} fires in {@code text}. */
  public static Set<Integer> fires(Rule rule, String text) {
    Set<Integer> out = new TreeSet<>();
    Matcher m = rule.pattern().matcher(text);
    while (m.find()) {
      int b = m.end();
      if (rule.name().equals(". before lower-case")) {
        String w = ErrorKinds.wordBefore(text, m.start());
        if (ErrorKinds.abbreviationLike(w) || (!w.isEmpty() && Character.isDigit(w.charAt(w.length() - 1)))) continue;
      }
      if (b < text.length()) out.add(b);
    }
    return out;
  }

  /** What {@code rule} changes in {@code predicted} against {@code gold} on one text. */
  public static Effect effect(Rule rule, String text, Set<Integer> gold, Set<Integer> predicted) {
    long g = 0;
    long ng = 0;
    for (int b : fires(rule, text)) {
      if (rule.adds() == predicted.contains(b)) continue; // adds: already there; removes: not there
      if (gold.contains(b)) g++;
      else ng++;
    }
    return new Effect(g, ng);
  }

  /** ctxpack's score with {@code e} applied by {@code rule}. */
  public static Boundaries.Score apply(Rule rule, Boundaries.Score s, Effect e) {
    return rule.adds()
        ? new Boundaries.Score(s.tp() + e.gold(), s.fp() + e.notGold(), s.fn() - e.gold())
        : new Boundaries.Score(s.tp() - e.gold(), s.fp() - e.notGold(), s.fn() + e.gold());
  }

  static List<String> names() {
    List<String> n = new ArrayList<>();
    for (Rule r : RULES) n.add(r.name());
    return n;
  }
}
