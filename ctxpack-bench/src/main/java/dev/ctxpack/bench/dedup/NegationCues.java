package dev.ctxpack.bench.dedup;

import dev.ctxpack.bench.data.TextPair;
import dev.ctxpack.similarity.Words;
import java.util.List;
import java.util.Set;

/**
 * Which ASSIN pairs contradict each other through a negation, by a fixed, checkable definition: the
 * words of each sentence are ctxpack's {@link Words#of} (NFKC, lower case, runs of letters and
 * digits, accents kept); a sentence is negated when one of its words is a cue of {@link #CUES}; a
 * pair is a negation pair when exactly one of its two sentences is negated.
 */
public final class NegationCues {
  /** não, nunca, nenhum, nenhuma, nem, jamais, ninguém, nada, sem. */
  public static final Set<String> CUES = Set.of("não", "nunca", "nenhum", "nenhuma", "nem", "jamais", "ninguém", "nada", "sem");

  private NegationCues() {}

  /** The cue words of {@code text}, in order. */
  public static List<String> cues(String text) {
    return Words.of(text).stream().filter(CUES::contains).toList();
  }

  public static boolean negated(String text) {
    return !cues(text).isEmpty();
  }

  /** The definition used: exactly one of the two sentences has a cue. */
  public static boolean isNegationPair(TextPair p) {
    return negated(p.a()) != negated(p.b());
  }

  /** A looser variant, reported for comparison: the two sentences' sets of cue words differ. */
  public static boolean cueSetsDiffer(TextPair p) {
    return !Set.copyOf(cues(p.a())).equals(Set.copyOf(cues(p.b())));
  }

  /** Another variant, for comparison: words are whitespace-separated tokens, lower-cased, punctuation kept. */
  public static boolean isNegationPairByWhitespaceTokens(TextPair p) {
    return wsNegated(p.a()) != wsNegated(p.b());
  }

  private static boolean wsNegated(String text) {
    for (String t : text.toLowerCase(java.util.Locale.ROOT).split("\\s+")) if (CUES.contains(t)) return true;
    return false;
  }
}
