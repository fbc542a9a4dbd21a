package dev.ctxpack.bench.dedup;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Light perturbations that turn a text into a plausible copy of itself, as duplicated corpora hold
 * them (re-exports, scrapes, edited versions). Each is deterministic given its {@link Random}; each
 * returns {@code null} when it does not apply to the text (a one-sentence text has no sentence to
 * drop), and otherwise a text that differs from its input.
 */
public final class Perturbations {
  /** The kinds of copy, as written in the corpus report. */
  public enum Kind {
    /** Runs of spaces doubled and the case of word initials flipped: same identity form. */
    WHITESPACE_CASE("whitespace/case"),
    /** Commas, semicolons, quotes and brackets dropped or swapped: same words. */
    PUNCTUATION("punctuation"),
    /** One sentence removed: every remaining sentence is verbatim original text. */
    DROP_SENTENCE("sentence dropped"),
    /** A sentence of another text put in front: the original follows verbatim. */
    PREPEND_SENTENCE("sentence of another context prepended"),
    /** One word replaced by another word of the same text. */
    CHANGE_WORD("word changed");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();
  /** A word of at least four letters, not part of a longer run of letters or digits. */
  private static final Pattern WORD = Pattern.compile("(?<![\\p{L}\\p{N}\\p{M}])\\p{L}{4,}(?![\\p{L}\\p{N}\\p{M}])");

  private Perturbations() {}

  /** The sentences of {@code text} (English rules), verbatim. */
  public static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (Span s : SEGMENTER.split(text, Language.EN)) out.add(s.of(text));
    return out;
  }

  /**
   * About one space in six doubled and one word initial in six (ASCII letters) flipped in case; at
   * least one change. Words and the normalised identity form are unchanged.
   */
  public static String whitespaceCase(String text, Random r) {
    StringBuilder sb = new StringBuilder(text.length() + 16);
    boolean changed = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean wordStart = i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1));
      if (c == ' ' && r.nextInt(6) == 0) {
        sb.append("  ");
        changed = true;
      } else if (wordStart && isAsciiLetter(c) && r.nextInt(6) == 0) {
        sb.append(flip(c));
        changed = true;
      } else {
        sb.append(c);
      }
    }
    if (!changed) {
      for (int i = 0; i < sb.length(); i++) {
        if (isAsciiLetter(sb.charAt(i))) {
          sb.setCharAt(i, flip(sb.charAt(i)));
          return sb.toString();
        }
      }
      return null;
    }
    return sb.toString();
  }

  /**
   * Punctuation next to a space dropped or swapped: about half the commas before a space dropped,
   * {@code ;} to {@code ,}, double quotes to single, brackets to commas; at least one change. A
   * mark is only removed where a space follows or precedes it, so no two words are joined: the
   * words are unchanged.
   */
  public static String punctuation(String text, Random r) {
    StringBuilder sb = new StringBuilder(text.length());
    boolean changed = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean spaceAfter = i + 1 < text.length() && text.charAt(i + 1) == ' ';
      boolean spaceBefore = i > 0 && text.charAt(i - 1) == ' ';
      if (c == ',' && spaceAfter && r.nextBoolean()) {
        changed = true; // dropped
      } else if (c == ';' && spaceAfter) {
        sb.append(',');
        changed = true;
      } else if (c == '"') {
        sb.append('\'');
        changed = true;
      } else if (c == '(' && spaceBefore) {
        sb.setLength(sb.length() - 1);
        sb.append(", ");
        changed = true;
      } else if (c == ')' && (spaceAfter || i + 1 == text.length())) {
        sb.append(spaceAfter ? "," : "");
        changed = true;
      } else {
        sb.append(c);
      }
    }
    if (!changed) {
      // Insert a comma after the first word followed by a space.
      int sp = text.indexOf(' ');
      if (sp <= 0) return null;
      return text.substring(0, sp) + "," + text.substring(sp);
    }
    return sb.toString();
  }

  /** One sentence, chosen at random, removed with the space after it; null for fewer than two. */
  public static String dropSentence(String text, Random r) {
    List<Span> spans = SEGMENTER.split(text, Language.EN);
    if (spans.size() < 2) return null;
    int k = r.nextInt(spans.size());
    Span s = spans.get(k);
    if (k + 1 < spans.size()) return text.substring(0, s.start()) + text.substring(spans.get(k + 1).start());
    return text.substring(0, spans.get(k - 1).end()) + text.substring(s.end());
  }

  /** A random sentence of {@code donor}, a space, then {@code text}; null when the donor has none. */
  public static String prependSentence(String text, String donor, Random r) {
    List<String> ds = sentences(donor);
    if (ds.isEmpty()) return null;
    return ds.get(r.nextInt(ds.size())) + " " + text;
  }

  /**
   * One word of four letters or more replaced by a different word of the text (its initial's case
   * kept); null when the text has no two different such words.
   */
  public static String changeWord(String text, Random r) {
    List<int[]> at = new ArrayList<>();
    Matcher m = WORD.matcher(text);
    while (m.find()) at.add(new int[] {m.start(), m.end()});
    if (at.size() < 2) return null;
    int[] target = at.get(r.nextInt(at.size()));
    String old = text.substring(target[0], target[1]);
    List<String> others = new ArrayList<>();
    for (int[] w : at) {
      String s = text.substring(w[0], w[1]);
      if (!s.toLowerCase(Locale.ROOT).equals(old.toLowerCase(Locale.ROOT))) others.add(s);
    }
    if (others.isEmpty()) return null;
    String w = others.get(r.nextInt(others.size())).toLowerCase(Locale.ROOT);
    if (Character.isUpperCase(old.charAt(0))) w = Character.toUpperCase(w.charAt(0)) + w.substring(1);
    return text.substring(0, target[0]) + w + text.substring(target[1]);
  }

  /** Applies {@code kind}; {@code donor} is only read by {@link Kind#PREPEND_SENTENCE}. */
  public static String apply(Kind kind, String text, String donor, Random r) {
    return switch (kind) {
      case WHITESPACE_CASE -> whitespaceCase(text, r);
      case PUNCTUATION -> punctuation(text, r);
      case DROP_SENTENCE -> dropSentence(text, r);
      case PREPEND_SENTENCE -> prependSentence(text, donor, r);
      case CHANGE_WORD -> changeWord(text, r);
    };
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static char flip(char c) {
    return Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
  }
}
