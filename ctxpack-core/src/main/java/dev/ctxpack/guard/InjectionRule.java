package dev.ctxpack.guard;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One detection rule: its id ({@code en.ignore-previous}), its family ({@code override}, {@code
 * role}, {@code fence}, {@code tool}, {@code exfil}, {@code hidden}) and what it matches: a
 * pattern over the {@link FoldedText folded} text (lower case, no accents, one space between
 * words), or phrases over its letters alone ({@code compact}, for text written with gaps).
 */
public record InjectionRule(String id, String family, Pattern pattern, List<String> compact) {
  public InjectionRule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(family, "family");
    compact = compact == null ? List.of() : List.copyOf(compact);
    if (pattern == null && compact.isEmpty()) throw new IllegalArgumentException("rule " + id + " matches nothing");
  }

  static InjectionRule regex(String id, String family, String regex) {
    return new InjectionRule(id, family, Pattern.compile(regex, Pattern.MULTILINE), List.of());
  }

  static InjectionRule compact(String id, String family, String... phrases) {
    return new InjectionRule(id, family, null, List.of(phrases));
  }
}
