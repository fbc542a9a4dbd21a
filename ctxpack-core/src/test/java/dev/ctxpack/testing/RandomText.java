package dev.ctxpack.testing;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Generators of awkward text for properties: English and Portuguese words, CJK, emoji and other
 * supplementary code points (surrogate pairs), CRLF and blank lines, Markdown markers, abbreviations,
 * decimals and runs of terminal punctuation.
 */
public final class RandomText {
  private RandomText() {}

  private static final List<String> WORDS = List.of(
      "the", "of", "and", "model", "context", "window", "retrieval", "tokens", "budget", "Lucene",
      "ação", "não", "você", "coração", "informações", "pág.", "Sra.", "Dr.", "e.g.", "i.e.", "et al.",
      "é", "à", "São", "Paulo", "café", "3.14", "1973", "J.", "R.", "Tolkien", "naïve", "Ωmega");

  private static final List<String> SPACES = List.of(
      " ", " ", " ", " ", "  ", "\n", "\r\n", "\n\n", "\r\n\r\n", "\t", "\u00A0", "\u3000", " \n ");

  private static final List<String> PUNCTUATION = List.of(
      ".", ".", ". ", "! ", "? ", "?! ", "... ", "…", ",", ";", ":", "\"", "”", "“", "(", ")", "'",
      "- ", "# ", "\n- ", "\n1. ", "\n## ", "> ", "*", "<|endoftext|>");

  private static final List<String> EMOJI = List.of(
      "😀", "👍🏽", "🇧🇷", "👨‍👩‍👧", "🙂", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𠜎", "🤖");

  /** One piece of text: a word, a space run, punctuation, CJK, emoji or a random code point. */
  public static Arbitrary<String> fragment() {
    return Arbitraries.frequencyOf(
        Tuple.of(20, Arbitraries.of(WORDS)),
        Tuple.of(15, Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12)),
        Tuple.of(4, Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(3)),
        Tuple.of(25, Arbitraries.of(SPACES)),
        Tuple.of(12, Arbitraries.of(PUNCTUATION)),
        Tuple.of(5, Arbitraries.strings().withCharRange('\u4E00', '\u9FFF').ofMinLength(1).ofMaxLength(8)),
        Tuple.of(5, Arbitraries.of(EMOJI)),
        Tuple.of(4, supplementary()),
        Tuple.of(3, bmpCodePoint()),
        Tuple.of(2, Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(6)));
  }

  /** Text of up to {@code maxFragments} fragments joined, often empty or whitespace only. */
  public static Arbitrary<String> text(int maxFragments) {
    return fragment().list().ofMinSize(0).ofMaxSize(maxFragments).map(l -> String.join("", l));
  }

  /**
   * Text of up to {@code maxFragments} fragments where one fragment in about twenty is a word of 1 to
   * 40 kB with no space: base64-like letters and digits, letters only, or emoji and CJK (surrogate
   * pairs throughout).
   */
  public static Arbitrary<String> textWithLongWords(int maxFragments) {
    return Arbitraries.frequencyOf(Tuple.of(19, fragment()), Tuple.of(1, longWord()))
        .list().ofMinSize(1).ofMaxSize(maxFragments).map(l -> String.join("", l));
  }

  /** A word of 1,000 to 40,000 chars with no whitespace. */
  public static Arbitrary<String> longWord() {
    Arbitrary<String> base64 = Arbitraries.strings()
        .withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=").ofMinLength(1000).ofMaxLength(40_000);
    Arbitrary<String> letters = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1000).ofMaxLength(40_000);
    Arbitrary<String> emojiAndCjk = Arbitraries.oneOf(Arbitraries.of(EMOJI), Arbitraries.strings().withCharRange('\u4E00', '\u9FFF').ofLength(1))
        .list().ofMinSize(500).ofMaxSize(15_000).map(l -> String.join("", l));
    return Arbitraries.oneOf(base64, letters, emojiAndCjk);
  }

  /** A code point outside the BMP, written as a surrogate pair. */
  public static Arbitrary<String> supplementary() {
    return Arbitraries.integers().between(0x10000, 0x10FFFF)
        .filter(Character::isDefined)
        .map(cp -> new String(Character.toChars(cp)));
  }

  /** Any assigned BMP character that is not a surrogate. */
  public static Arbitrary<String> bmpCodePoint() {
    return Arbitraries.chars().range('\u0000', '\uFFFF')
        .filter(c -> !Character.isSurrogate(c) && Character.isDefined(c))
        .map(String::valueOf);
  }

  /** Whitespace as the tests understand it: Java whitespace plus Unicode space separators. */
  public static boolean isSpace(char c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  /** True when offset {@code i} of {@code s} falls between the two halves of a surrogate pair. */
  public static boolean splitsSurrogatePair(String s, int i) {
    return i > 0 && i < s.length() && Character.isHighSurrogate(s.charAt(i - 1)) && Character.isLowSurrogate(s.charAt(i));
  }
}
