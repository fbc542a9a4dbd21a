package dev.ctxpack.compress;

import dev.ctxpack.text.Terms;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Flags the sentences a compression never keeps: page furniture ({@link Noise}), a sentence met
 * earlier in the request (by its repeat key: {@link DropReason#DUPLICATE}), and a sentence
 * unrelated to the query (no query term in it or its neighbours, in a passage that holds query
 * terms elsewhere, and less than an even chance by the scorer). Also tells, for the report, an
 * off-topic drop from one over the budget. Steps 1 and 5 of {@link ExtractiveCompressor}'s flow.
 * Thread-safe.
 */
final class SentenceFilter {
  private final Noise noise = new Noise();

  /** Noise and repeated sentences, by index; {@code null} where neither. */
  DropReason[] noiseAndRepeats(List<Sentence> sentences) {
    int n = sentences.size();
    DropReason[] flagged = new DropReason[n];
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String text = sentences.get(i).text();
      flagged[i] = noise.classify(text);
      if (flagged[i] == null && words(text) >= 3 && seen.putIfAbsent(repeatKey(text), i) != null) {
        flagged[i] = DropReason.DUPLICATE;
      }
    }
    return flagged;
  }

  /**
   * Off-topic rather than over the budget: below the threshold or the scorer's on-topic line, or
   * short of an even chance with no query term in the sentence or its neighbours.
   */
  static boolean offTopic(int i, List<Sentence> sentences, boolean[] hasTerm, Set<String> queryTerms,
      double[] score, double onTopic, boolean[] anchored) {
    if (!Double.isNaN(onTopic) && score[i] < onTopic) return true;
    // Dropped and sharing no query term with its neighbourhood: off-topic, whatever its passage.
    return unrelated(i, sentences, hasTerm, queryTerms, score, null);
  }

  /**
   * Unrelated to the query, and never kept: short of an even chance by the scorer, no query term in
   * the sentence or its neighbours, in a passage that holds query terms elsewhere. A passage with no
   * query term at all was found by meaning (dense retrieval, a paraphrase): its sentences are left
   * to the scores and the budget ({@code anchored} null: every passage counts as holding some).
   */
  static boolean unrelated(int i, List<Sentence> sentences, boolean[] hasTerm, Set<String> queryTerms,
      double[] score, boolean[] anchored) {
    if (score[i] >= 0.5 || queryTerms.isEmpty()) return false;
    if (anchored != null && !anchored[sentences.get(i).input()]) return false;
    for (int j = Math.max(0, i - 1); j <= Math.min(sentences.size() - 1, i + 1); j++) {
      if (j != i && !Selection.samePart(sentences.get(j), sentences.get(i))) continue;
      if (hasTerm[j]) return false;
    }
    return true;
  }

  static boolean hasTerm(String text, Terms.Table queryTerms) {
    boolean[] hit = {false};
    Terms.scan(text, (t, at) -> {
      if (!hit[0] && queryTerms.contains(t)) hit[0] = true;
    });
    return hit[0];
  }

  /** The query's terms that are not stop words. */
  static Set<String> queryTerms(String query) {
    Set<String> q = new HashSet<>();
    Terms.scan(query, (t, at) -> {
      String w = t.toString();
      if (!Terms.STOP_WORDS.contains(w)) q.add(w);
    });
    return q;
  }

  /**
   * What two sentences share when one repeats the other: the text lower-cased with runs of
   * whitespace made one space (cheaper than the identity form, and what a repeated sentence of a
   * page template differs by).
   */
  private static String repeatKey(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    boolean space = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        space = sb.length() > 0;
        continue;
      }
      if (space) sb.append(' ');
      space = false;
      sb.append(Character.toLowerCase(c));
    }
    return sb.toString();
  }

  private static int words(String s) {
    int n = 0;
    boolean in = false;
    for (int i = 0; i < s.length(); i++) {
      boolean w = Character.isLetterOrDigit(s.charAt(i));
      if (w && !in) n++;
      in = w;
    }
    return n;
  }
}
