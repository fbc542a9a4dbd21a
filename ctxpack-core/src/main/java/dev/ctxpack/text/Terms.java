package dev.ctxpack.text;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The terms the reranker's features match: runs of letters and digits, Unicode-normalised (NFKD),
 * lower-cased and with accents folded ({@code Ação} and {@code acao} are one term), a trailing
 * plural {@code s} dropped ({@code células}, {@code celula}). Terms of one letter and the small
 * English and Portuguese stop-word lists below are not query terms. Thread-safe.
 */
public final class Terms {
  /**
   * Receives each term of a text with the char offset where it starts. {@code term} is reused for
   * the next term: read it during the call, copy it ({@code toString()}) to keep it.
   */
  public interface Sink {
    void term(CharSequence term, int start);
  }

  /** Folded forms of U+0080..U+2FFF (Latin, Greek, Cyrillic, symbols...), filled as they are met. */
  private static final String[] FOLDED = new String[0x3000];

  /** Function words of English and Portuguese, kept in their folded form. */
  public static final Set<String> STOP_WORDS = Stream.of(
      // English
      "a", "an", "and", "are", "as", "at", "be", "been", "being", "but", "by", "can", "could", "did", "do",
      "does", "for", "from", "had", "has", "have", "how", "if", "in", "into", "is", "it", "its", "may",
      "might", "more", "most", "no", "not", "of", "on", "or", "our", "over", "shall", "should", "so",
      "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
      "to", "up", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why",
      "will", "with", "would", "you", "your",
      // Portuguese
      "à", "às", "ao", "aos", "aquela", "aquele", "aquilo", "até", "com", "como", "da", "das", "de",
      "dela", "dele", "do", "dos", "é", "ela", "ele", "eles", "elas", "em", "entre", "era", "essa", "esse",
      "esta", "está", "este", "eu", "foi", "foram", "há", "isso", "isto", "já", "lhe", "mais", "mas",
      "mesmo", "muito", "na", "não", "nas", "nem", "no", "nos", "num", "numa", "os", "ou", "para", "pela",
      "pelas", "pelo", "pelos", "por", "qual", "quais", "quando", "que", "quem", "são", "se", "sem", "ser",
      "seu", "seus", "sua", "suas", "sobre", "também", "tem", "têm", "um", "uma", "umas", "uns", "você")
      .map(Terms::fold).filter(w -> !w.isEmpty()).collect(Collectors.toUnmodifiableSet());

  /** {@link #STOP_WORDS} for look-ups by any {@link CharSequence}, without copying it. */
  public static final Table STOP_TABLE = new Table(STOP_WORDS);

  private Terms() {}

  /**
   * A fixed set of terms, each with its index, looked up by any {@link CharSequence} without
   * copying it (open addressing, linear probing).
   */
  public static final class Table {
    private final String[] keys;
    private final int[] values;
    private final int mask;

    /** Term {@code i} of {@code terms} gets index {@code i}; a repeated term keeps its first index. */
    public Table(java.util.Collection<String> terms) {
      int cap = Integer.highestOneBit(Math.max(4, terms.size() * 2) - 1) << 1;
      keys = new String[cap];
      values = new int[cap];
      mask = cap - 1;
      int i = 0;
      for (String t : terms) {
        int slot = hash(t) & mask;
        while (keys[slot] != null && !keys[slot].equals(t)) slot = (slot + 1) & mask;
        if (keys[slot] == null) {
          keys[slot] = t;
          values[slot] = i;
        }
        i++;
      }
    }

    /** Whether {@code term} is in the table. */
    public boolean contains(CharSequence term) {
      return get(term) >= 0;
    }

    /** The index of {@code term}, or -1. */
    public int get(CharSequence term) {
      if (term instanceof Term t) return get(t);
      for (int slot = hash(term) & mask; ; slot = (slot + 1) & mask) {
        String k = keys[slot];
        if (k == null) return -1;
        if (k.contentEquals(term)) return values[slot];
      }
    }

    /** The index of the term {@code s[from, to)}, or -1: {@link #get(CharSequence)} without a view of the region. */
    public int get(CharSequence s, int from, int to) {
      int n = to - from;
      int h = 0;
      for (int i = from; i < to; i++) h = 31 * h + s.charAt(i);
      for (int slot = mix(h) & mask; ; slot = (slot + 1) & mask) {
        String k = keys[slot];
        if (k == null) return -1;
        if (k.length() == n && same(k, s, from)) return values[slot];
      }
    }

    private static boolean same(String k, CharSequence s, int from) {
      if (s instanceof String str) return k.regionMatches(0, str, from, k.length());
      for (int i = 0; i < k.length(); i++) if (k.charAt(i) != s.charAt(from + i)) return false;
      return true;
    }

    /** {@link #get(CharSequence)} for a term of {@link #scan}: its hash is already known and its characters are read directly. */
    private int get(Term term) {
      int n = term.length;
      for (int slot = mix(term.hash) & mask; ; slot = (slot + 1) & mask) {
        String k = keys[slot];
        if (k == null) return -1;
        if (k.length() == n && term.matches(k)) return values[slot];
      }
    }

    private static int hash(CharSequence s) {
      int h = 0;
      for (int i = 0; i < s.length(); i++) h = 31 * h + s.charAt(i);
      return mix(h);
    }

    private static int mix(int h) {
      return h ^ (h >>> 16);
    }
  }

  /**
   * The term {@link #scan} is reading, reused from one term to the next: its characters, and their
   * {@link String#hashCode} kept as they are appended, so that a {@link Table} look-up does not read
   * them again.
   */
  private static final class Term implements CharSequence {
    private char[] chars = new char[24];
    private int length;
    private int hash;
    /** The hash without the last character: dropping a plural "s" needs no second pass. */
    private int hashBeforeLast;

    void append(char c) {
      if (length == chars.length) chars = java.util.Arrays.copyOf(chars, length * 2);
      chars[length++] = c;
      hashBeforeLast = hash;
      hash = 31 * hash + c;
    }

    void append(String s) {
      for (int i = 0; i < s.length(); i++) append(s.charAt(i));
    }

    /** Drops the last character (at most once after an append). */
    void dropLast() {
      length--;
      hash = hashBeforeLast;
    }

    void clear() {
      length = 0;
      hash = 0;
    }

    boolean matches(String k) {
      for (int i = 0; i < length; i++) if (k.charAt(i) != chars[i]) return false;
      return true;
    }

    @Override
    public int length() {
      return length;
    }

    @Override
    public char charAt(int index) {
      if (index < 0 || index >= length) throw new IndexOutOfBoundsException("index " + index + ", length " + length);
      return chars[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return toString().substring(start, end);
    }

    @Override
    public String toString() {
      return new String(chars, 0, length);
    }
  }

  /** Calls {@code sink} for every term of {@code text}, in order. */
  public static void scan(String text, Sink sink) {
    Term term = new Term();
    int start = -1;
    int n = text.length();
    for (int i = 0; i <= n; i++) {
      char c = i < n ? text.charAt(i) : ' ';
      if (c < 0x80) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
          if (start < 0) start = i;
          term.append(c);
          continue;
        }
        if (c >= 'A' && c <= 'Z') {
          if (start < 0) start = i;
          term.append((char) (c + 32));
          continue;
        }
      } else if (isMark(c)) {
        continue; // a combining accent of decomposed text: folded away, the term goes on
      } else if (Character.isLetterOrDigit(c)) {
        if (start < 0) start = i;
        term.append(folded(c));
        continue;
      }
      if (start >= 0) {
        emit(term, start, sink);
        term.clear();
        start = -1;
      }
    }
  }

  private static void emit(Term term, int start, Sink sink) {
    int len = term.length;
    if (len < 2) return;
    // Plurals of both languages: "cells" -> "cell", "células" -> "celula"; not "-ss", "-us", "-is".
    if (len > 3 && term.chars[len - 1] == 's') {
      char p = term.chars[len - 2];
      if (p != 's' && p != 'u' && p != 'i') term.dropLast();
    }
    sink.term(term, start);
  }

  private static String folded(char c) {
    if (c >= FOLDED.length) return foldSlow(c);
    String f = FOLDED[c];
    if (f == null) {
      f = foldSlow(c);
      FOLDED[c] = f; // a benign race: every thread computes the same immutable string
    }
    return f;
  }

  /** The content terms of {@code text} in order, repeats kept: every term {@link #scan} finds that is not a stop word. */
  public static java.util.List<String> content(String text) {
    java.util.List<String> out = new java.util.ArrayList<>();
    scan(text, (t, start) -> {
      if (!STOP_TABLE.contains(t)) out.add(t.toString());
    });
    return out;
  }

  /** The folded form of one word, as {@link #scan} would produce it (for the stop-word lists and tests). */
  public static String fold(String word) {
    StringBuilder sb = new StringBuilder();
    scan(word, (t, s) -> sb.append(t));
    return sb.toString();
  }

  private static boolean isMark(char c) {
    int t = Character.getType(c);
    return t == Character.NON_SPACING_MARK || t == Character.COMBINING_SPACING_MARK || t == Character.ENCLOSING_MARK;
  }

  private static String foldSlow(char c) {
    String d = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFKD);
    StringBuilder sb = new StringBuilder(d.length());
    for (int i = 0; i < d.length(); i++) {
      char x = d.charAt(i);
      if (!isMark(x) && Character.isLetterOrDigit(x)) sb.append(x);
    }
    return sb.toString().toLowerCase(Locale.ROOT);
  }
}
