package dev.ctxpack.bench.clean;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The baseline: Haystack 2's {@code DocumentCleaner(remove_repeated_substrings=True)}, its only
 * header and footer rule, re-implemented in Java for a same-run comparison. Pages are the text
 * split at form feeds; pages 2 to n−1 are compared (the first and last are ignored, as Haystack's
 * {@code n_first_pages_to_ignore=1}, {@code n_last_pages_to_ignore=1}); the header is the longest
 * word n-gram (3 to 29 words, whitespace-split with line breaks kept) common to the first 300
 * characters of all of them, and every occurrence of it is removed from every page; then the same
 * for the footer over the last 300 characters. A text without form feeds is one page: nothing is
 * found. Ties between equally long n-grams, which Haystack breaks by set order, are broken here by
 * string order.
 */
final class HaystackCleaner {
  static final int N_CHARS = 300;
  static final int MIN_NGRAM = 3;
  static final int MAX_NGRAM = 30;

  private HaystackCleaner() {}

  /** Which chars of {@code text} the baseline removes, its pages starting at {@code pageStarts} (form feeds there). */
  static boolean[] removed(String text, List<Integer> pageStarts) {
    // Each page as its chars and their offsets in text.
    List<StringBuilder> pages = new ArrayList<>();
    List<List<Integer>> offsets = new ArrayList<>();
    List<Integer> starts = pageStarts.isEmpty() ? List.of(0) : pageStarts;
    for (int p = 0; p < starts.size(); p++) {
      int from = starts.get(p);
      int to = p + 1 < starts.size() ? starts.get(p + 1) : text.length();
      pages.add(new StringBuilder(text.substring(from, to)));
      List<Integer> o = new ArrayList<>();
      for (int i = from; i < to; i++) o.add(i);
      offsets.add(o);
    }
    for (boolean header : new boolean[] {true, false}) {
      List<String> edges = new ArrayList<>();
      for (int p = 1; p < pages.size() - 1; p++) {
        String s = pages.get(p).toString();
        edges.add(header ? s.substring(0, Math.min(N_CHARS, s.length())) : s.substring(Math.max(0, s.length() - N_CHARS)));
      }
      String found = longestCommonNgram(edges);
      if (found.isEmpty()) continue;
      for (int p = 0; p < pages.size(); p++) removeAll(pages.get(p), offsets.get(p), found);
    }
    boolean[] removed = new boolean[text.length()];
    java.util.Arrays.fill(removed, true);
    for (List<Integer> o : offsets) for (int i : o) removed[i] = false;
    return removed;
  }

  /** Python's {@code page.replace(found, "")}: every non-overlapping occurrence, left to right. */
  private static void removeAll(StringBuilder page, List<Integer> offsets, String found) {
    int at = page.indexOf(found);
    while (at >= 0) {
      page.delete(at, at + found.length());
      offsets.subList(at, at + found.length()).clear();
      at = page.indexOf(found, at);
    }
  }

  static String longestCommonNgram(List<String> sequences) {
    List<String> seqs = sequences.stream().filter(s -> !s.isEmpty()).toList();
    if (seqs.isEmpty()) return "";
    Set<String> common = null;
    for (String s : seqs) {
      Set<String> grams = allNgrams(s);
      if (common == null) common = grams;
      else common.retainAll(grams);
    }
    String longest = "";
    for (String g : common) {
      if (g.length() > longest.length() || (g.length() == longest.length() && g.compareTo(longest) < 0)) longest = g;
    }
    return longest.isBlank() ? "" : longest;
  }

  private static Set<String> allNgrams(String seq) {
    String[] words = seq.replace("\n", " \n").replace("\t", " \t").split(" ", -1);
    Set<String> out = new HashSet<>();
    for (int n = MIN_NGRAM; n < MAX_NGRAM; n++) {
      for (int i = 0; i + n <= words.length; i++) {
        out.add(String.join(" ", java.util.Arrays.asList(words).subList(i, i + n)).replace(" \n", "\n").replace(" \t", "\t"));
      }
    }
    return out;
  }
}
