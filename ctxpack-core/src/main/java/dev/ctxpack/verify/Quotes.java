package dev.ctxpack.verify;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Quoted extracts: found in an answer's text and attributed to citations ({@link #find}), and
 * checked against the sources ({@link #check}). Matching is verbatim after {@link Folded}: case,
 * runs of white space, quote marks and dash forms do not count; an ellipsis stands for omitted
 * text. A misquote's closest real span is found by aligning the extract's words with each source's
 * (candidate starts voted by shared words, then the longest common subsequence around each).
 */
final class Quotes {
  /** Extracts shorter than this many words are terms or scare quotes, not quotes. */
  static final int MIN_WORDS = 3;
  /** A quote longer than this many characters is taken for unbalanced marks and ignored. */
  static final int MAX_CHARS = 4000;
  /** Above this share of its words matched in order by a span, an extract is altered, not from no source. */
  static final double ALTERED_MIN = 0.5;

  private static final Pattern ELLIPSIS = Pattern.compile("\\[\\s*(?:\\.\\.\\.|…)\\s*]|\\(\\s*(?:\\.\\.\\.|…)\\s*\\)|\\.\\.\\.+|…");
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  private Quotes() {}

  // ---- finding -------------------------------------------------------------------------------

  /** The closing mark for an opening one, or 0 when {@code c} opens no quote. */
  private static char closer(char c) {
    return switch (c) {
      case '"' -> '"';
      case '“' -> '”';
      case '«' -> '»';
      case '„' -> '“';
      default -> 0;
    };
  }

  /** Spans {@code [start, end)} of the text inside each pair of quote marks of {@code text[from, to)}. */
  static List<int[]> spans(String text, int from, int to) {
    List<int[]> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      char close = closer(text.charAt(i));
      if (close == 0) continue;
      int limit = Math.min(to, i + 1 + MAX_CHARS);
      int j = -1;
      int restart = -1;
      for (int k = i + 1; k < limit; k++) {
        char c = text.charAt(k);
        if (c == close || (close == '”' && c == '"') || (close == '“' && c == '”')) {
          j = k;
          break;
        }
        if (c == text.charAt(i) && !markerBefore(text, k).isEmpty()) { // a fresh extract after a citation
          restart = k;
          break;
        }
        if (c == '\n' && k + 1 < limit && text.charAt(k + 1) == '\n') break; // not across paragraphs
      }
      if (restart >= 0) {
        i = restart - 1;
        continue;
      }
      if (j < 0) continue;
      // a mark right after a citation marker opens an extract ("… [S1] \"…\""): the mark at i
      // before it is unbalanced (a stray mark of the claim's own text), not this quote's opening
      List<String> before = markerBefore(text, j);
      if (!before.isEmpty() && before.equals(markerIn(text, i + 1, j))) continue;
      if (words(text.substring(i + 1, j)) >= MIN_WORDS) out.add(new int[] {i + 1, j});
      i = j;
    }
    return out;
  }

  static int words(String s) {
    int n = 0;
    for (var m = WORD.matcher(s); m.find(); ) n++;
    return n;
  }

  /**
   * The quotes of an answer's {@code text} given its claims (in answer order, located): each
   * attributed as {@link Quote} says. Claims whose text is only quotes and that cite nothing are
   * extracts supporting the claim before them, not claims: they are removed from {@code claims}.
   */
  static List<Quote> find(String text, List<Claim> claims) {
    List<Quote> out = new ArrayList<>();
    List<int[]> all = spans(text, 0, text.length());
    if (all.isEmpty()) return out;
    // 1. quote-only claims without citations are the previous claim's extracts
    List<Claim> kept = new ArrayList<>();
    for (Claim c : claims) {
      if (c.citations().isEmpty() && c.start() >= 0 && onlyQuotes(text, c, all)) continue;
      kept.add(c);
    }
    claims.clear();
    claims.addAll(kept);
    // 2. attribution
    for (int[] s : all) {
      int open = s[0] - 1;
      int close = s[1];
      int claim = 0;
      for (int k = 0; k < claims.size(); k++) {
        Claim c = claims.get(k);
        if (c.start() <= open && open < c.end()) {
          claim = k + 1;
          break;
        }
        if (c.end() <= open && !blankLineBetween(text, c.end(), open)) claim = k + 1; // the claim before, same paragraph
      }
      List<String> cites = markerBefore(text, open);
      boolean evidence = !cites.isEmpty();
      if (cites.isEmpty()) cites = markerAfter(text, close + 1);
      if (cites.isEmpty() && claim > 0) cites = claims.get(claim - 1).citations();
      out.add(new Quote(text.substring(s[0], s[1]), cites, s[0], s[1], claim));
      if (evidence && claim > 0) withoutExtract(claims, claim - 1, text.substring(open, close + 1));
    }
    return out;
  }

  /**
   * An extract that follows a citation ({@code claim [S1] "…"}, {@code [S1] "…" — restated}) is the
   * claim's evidence, not what it states: claim {@code k} is checked on its own words, without it,
   * when those still state something; else (the claim is the extract) it is left whole.
   */
  private static void withoutExtract(List<Claim> claims, int k, String marked) {
    Claim c = claims.get(k);
    int at = c.text().indexOf(marked);
    if (at < 0) return;
    String rest = Answer.tidy(c.text().substring(0, at) + " " + c.text().substring(at + marked.length()))
        .replaceAll("^[\\s:;,\u2014\u2013-]+|[\\s:;,\u2014\u2013-]+$", "")
        .replaceAll("[\\s:;,\u2014\u2013-]+([.!?])$", "$1");
    if (!Answer.factual(rest)) return;
    claims.set(k, new Claim(rest, c.citations(), c.start(), c.end()));
  }

  private static boolean onlyQuotes(String text, Claim c, List<int[]> quotes) {
    StringBuilder outside = new StringBuilder();
    int p = c.start();
    for (int[] q : quotes) {
      if (q[1] <= c.start() || q[0] - 1 >= c.end()) continue;
      if (q[0] - 1 < c.start() || q[1] + 1 > c.end()) return false;
      outside.append(text, p, q[0] - 1);
      p = q[1] + 1;
    }
    if (p == c.start()) return false; // no quote inside
    outside.append(text, p, c.end());
    String rest = outside.toString();
    for (Answer.Marker m = Answer.nextMarker(rest, 0, rest.length()); m != null; m = Answer.nextMarker(rest, 0, rest.length())) {
      rest = rest.substring(0, m.start()) + rest.substring(m.end());
    }
    return words(rest) == 0;
  }

  private static boolean blankLineBetween(String text, int from, int to) {
    int nl = text.indexOf('\n', from);
    while (nl >= 0 && nl < to) {
      int next = nl + 1;
      while (next < to && (text.charAt(next) == ' ' || text.charAt(next) == '\t' || text.charAt(next) == '\r')) next++;
      if (next < to && text.charAt(next) == '\n') return true;
      nl = text.indexOf('\n', nl + 1);
    }
    return false;
  }

  /** The IDs of a marker right before the opening mark at {@code open} (white space, colon or dash between). */
  private static List<String> markerBefore(String text, int open) {
    int i = open - 1;
    while (i >= 0 && (Character.isWhitespace(text.charAt(i)) || ":-–—".indexOf(text.charAt(i)) >= 0)) i--;
    if (i < 0 || text.charAt(i) != ']') return List.of();
    int from = Math.max(0, i - Answer.MAX_MARKER);
    int bracket = text.lastIndexOf('[', i);
    if (bracket < from) return List.of();
    Answer.Marker m = Answer.nextMarker(text, bracket, i + 1);
    return m != null && m.end() == i + 1 ? m.ids() : List.of();
  }

  /** The IDs of the last citation marker inside {@code text[from, to)}, or empty. */
  private static List<String> markerIn(String text, int from, int to) {
    List<String> last = List.of();
    for (Answer.Marker m = Answer.nextMarker(text, from, to); m != null; m = Answer.nextMarker(text, m.end(), to)) {
      last = m.ids();
    }
    return last;
  }

  /** The IDs of a marker right after a closing mark ({@code from} is just past it; white space or , . ; between). */
  private static List<String> markerAfter(String text, int from) {
    int i = from;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || ",.;".indexOf(text.charAt(i)) >= 0)) i++;
    if (i >= text.length() || text.charAt(i) != '[') return List.of();
    Answer.Marker m = Answer.nextMarker(text, i, Math.min(text.length(), i + Answer.MAX_MARKER + 2));
    return m != null && m.start() == i ? m.ids() : List.of();
  }

  // ---- checking ------------------------------------------------------------------------------

  /**
   * Text compared as the quote check compares it, with each folded char's offset in the original,
   * and (computed once, when a misquote needs them) the original's lower-cased words and their spans.
   */
  static final class Folded {
    private final String text;
    private final int[] offsets;
    private final String original;
    private List<String> words;
    private List<int[]> at;

    Folded(String text, int[] offsets, String original) {
      this.text = text;
      this.offsets = offsets;
      this.original = original;
    }

    String text() {
      return text;
    }

    int[] offsets() {
      return offsets;
    }

    private void words() {
      if (words != null) return;
      words = new ArrayList<>();
      at = new ArrayList<>();
      for (var m = WORD.matcher(original); m.find(); ) {
        words.add(m.group().toLowerCase(java.util.Locale.ROOT));
        at.add(new int[] {m.start(), m.end()});
      }
    }

    static Folded of(String s) {
      StringBuilder b = new StringBuilder(s.length());
      int[] off = new int[s.length()];
      int n = 0;
      boolean space = true; // drop leading space
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if ("\"'“”‘’«»‹›„‚`´".indexOf(c) >= 0) continue;
        if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
          if (!space) {
            b.append(' ');
            off[n++] = i;
            space = true;
          }
          continue;
        }
        if ("‐‑‒–—―−".indexOf(c) >= 0) c = '-';
        b.append(Character.toLowerCase(c));
        off[n++] = i;
        space = false;
      }
      int len = b.length();
      if (len > 0 && b.charAt(len - 1) == ' ') b.setLength(--len);
      return new Folded(b.toString(), java.util.Arrays.copyOf(off, len), s);
    }
  }

  /** The ellipsis-separated parts of an extract, folded, blank parts dropped. */
  static List<String> parts(String quote) {
    List<String> out = new ArrayList<>();
    for (String p : ELLIPSIS.split(quote)) {
      String f = Folded.of(p).text().strip();
      // edge punctuation of a part ("… the drug, …") need not be in the source
      f = f.replaceAll("^[\\s.,;:!?]+|[\\s.,;:!?]+$", "");
      if (!f.isEmpty()) out.add(f);
    }
    return out;
  }

  /** The span {@code [start, end)} of {@code source} holding every part in order, or null. */
  static int[] verbatim(List<String> parts, Folded source) {
    if (parts.isEmpty()) return null;
    int at = 0;
    int start = -1;
    int end = -1;
    for (String p : parts) {
      int i = indexOfWord(source.text(), p, at);
      if (i < 0) return null;
      if (start < 0) start = i;
      end = i + p.length();
      at = end;
    }
    return new int[] {source.offsets()[start], source.offsets()[end - 1] + 1};
  }

  /** The first occurrence of {@code p} at or after {@code from} that does not start or end inside a word. */
  private static int indexOfWord(String s, String p, int from) {
    for (int i = s.indexOf(p, from); i >= 0; i = s.indexOf(p, i + 1)) {
      boolean left = i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)) || !Character.isLetterOrDigit(p.charAt(0));
      int e = i + p.length();
      boolean right = e == s.length() || !Character.isLetterOrDigit(s.charAt(e))
          || !Character.isLetterOrDigit(p.charAt(p.length() - 1));
      if (left && right) return i;
    }
    return -1;
  }

  /**
   * Checks {@code q} against {@code sources} (in their given order; {@code folded} their folded
   * texts): verbatim in a cited source, verbatim in another, or the closest span anywhere.
   */
  static QuoteCheck check(Quote q, List<VerifySource> sources, List<Folded> folded, Map<String, Integer> byId) {
    List<String> parts = parts(q.text());
    List<Integer> cited = new ArrayList<>();
    for (String id : q.citations()) {
      Integer i = byId.get(id);
      if (i != null) cited.add(i);
    }
    boolean anywhere = cited.isEmpty();
    for (int i : cited) {
      int[] span = verbatim(parts, folded.get(i));
      if (span != null) return found(q, QuoteCheck.Status.VERBATIM, sources.get(i), span);
    }
    for (int i = 0; i < sources.size(); i++) {
      if (cited.contains(i)) continue;
      int[] span = verbatim(parts, folded.get(i));
      if (span != null) {
        return found(q, anywhere ? QuoteCheck.Status.VERBATIM : QuoteCheck.Status.OTHER_SOURCE, sources.get(i), span);
      }
    }
    // closest span: cited sources first, so a tie goes to what the answer cites
    List<Integer> order = new ArrayList<>(cited);
    for (int i = 0; i < sources.size(); i++) if (!cited.contains(i)) order.add(i);
    // words as the sources' are cut (quote marks and apostrophes split words in both)
    List<String> qWords = wordList(q.text().toLowerCase(java.util.Locale.ROOT), null);
    double best = 0;
    int bestSource = -1;
    int[] bestSpan = null;
    for (int i : order) {
      Aligned a = closest(qWords, folded.get(i));
      if (a != null && a.similarity > best + 1e-12) {
        best = a.similarity;
        bestSource = i;
        bestSpan = a.span;
      }
    }
    QuoteCheck.Status status = best > ALTERED_MIN ? QuoteCheck.Status.ALTERED : QuoteCheck.Status.NO_SOURCE;
    if (bestSource < 0) return new QuoteCheck(q, status, null, null, 0);
    VerifySource s = sources.get(bestSource);
    return new QuoteCheck(q, status, s.id(),
        new Evidence(s.id(), bestSpan[0], bestSpan[1], s.text().substring(bestSpan[0], bestSpan[1]), best), best);
  }

  private static QuoteCheck found(Quote q, QuoteCheck.Status status, VerifySource s, int[] span) {
    return new QuoteCheck(q, status, s.id(), new Evidence(s.id(), span[0], span[1], s.text().substring(span[0], span[1]), 1),
        1);
  }

  private record Aligned(int[] span, double similarity) {}

  /** Lower-cased words of {@code folded}; with {@code offsets}, each word's [start, end) appended. */
  private static List<String> wordList(String folded, List<int[]> offsets) {
    List<String> out = new ArrayList<>();
    for (var m = WORD.matcher(folded); m.find(); ) {
      out.add(m.group());
      if (offsets != null) offsets.add(new int[] {m.start(), m.end()});
    }
    return out;
  }

  /** The span of {@code source} whose words best match {@code q} in order (longest common subsequence), or null. */
  private static Aligned closest(List<String> q, Folded f) {
    if (q.isEmpty()) return null;
    f.words();
    List<int[]> at = f.at;
    List<String> words = f.words;
    String source = f.original;
    Map<String, List<Integer>> inQuote = new HashMap<>();
    for (int k = 0; k < q.size(); k++) inQuote.computeIfAbsent(q.get(k), x -> new ArrayList<>()).add(k);
    Map<Integer, Integer> votes = new HashMap<>();
    for (int p = 0; p < words.size(); p++) {
      List<Integer> ks = inQuote.get(words.get(p));
      if (ks == null) continue;
      for (int k : ks) votes.merge(p - k, 1, Integer::sum);
    }
    if (votes.isEmpty()) return null;
    List<Map.Entry<Integer, Integer>> starts = new ArrayList<>(votes.entrySet());
    starts.sort((a, b) -> b.getValue() != a.getValue().intValue() ? b.getValue() - a.getValue()
        : Integer.compare(a.getKey(), b.getKey()));
    int slack = Math.max(2, q.size() / 4);
    Aligned best = null;
    for (int c = 0; c < Math.min(8, starts.size()); c++) {
      int from = Math.max(0, starts.get(c).getKey() - slack);
      int to = Math.min(words.size(), starts.get(c).getKey() + q.size() + slack);
      if (from >= to) continue;
      int[] m = lcs(q, words, from, to);
      if (m[0] == 0) continue;
      double sim = (double) m[0] / q.size();
      if (best == null || sim > best.similarity + 1e-12) {
        // the span the whole extract stands for: unmatched words at its edges (a changed first or
        // last word) take the source's words beside the matched ones
        int first = Math.max(0, m[1] - m[3]);
        int last = Math.min(words.size() - 1, m[2] + (q.size() - 1 - m[4]));
        int end = at.get(last)[1];
        while (end < source.length() && !Character.isWhitespace(source.charAt(end))
            && ".,;:!?)]\"'”»".indexOf(source.charAt(end)) < 0) {
          end++;
        }
        best = new Aligned(new int[] {at.get(first)[0], end}, sim);
      }
    }
    return best;
  }

  /**
   * {length, first matched word, last matched word, the quote's first matched word, its last} of the
   * longest common subsequence of q and words[from, to).
   */
  private static int[] lcs(List<String> q, List<String> words, int from, int to) {
    int n = q.size();
    int m = to - from;
    int[][] d = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        d[i][j] = q.get(i).equals(words.get(from + j)) ? d[i + 1][j + 1] + 1 : Math.max(d[i + 1][j], d[i][j + 1]);
      }
    }
    int first = -1;
    int last = -1;
    int qFirst = -1;
    int qLast = -1;
    for (int i = 0, j = 0; i < n && j < m; ) {
      if (q.get(i).equals(words.get(from + j)) && d[i][j] == d[i + 1][j + 1] + 1) {
        if (first < 0) {
          first = from + j;
          qFirst = i;
        }
        last = from + j;
        qLast = i;
        i++;
        j++;
      } else if (d[i + 1][j] >= d[i][j + 1]) {
        i++;
      } else {
        j++;
      }
    }
    return new int[] {d[0][0], first, last, qFirst, qLast};
  }
}
