package dev.ctxpack.verify;

import static dev.ctxpack.verify.VerifyText.fold;
import static dev.ctxpack.verify.VerifyText.stem;
import static dev.ctxpack.verify.VerifyText.wordsOf;

import dev.ctxpack.similarity.Guard;
import dev.ctxpack.text.Terms;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Whether a cited sentence that states the claim contradicts it, and why: a polarity one has and
 * the other lacks ({@link Polarity}: falsity frames over the dedup guard's negation cues, a frame over
 * a negated clause cancelling it; in Portuguese "no" is <i>em + o</i>), a word negated by
 * a prefix ("dependent"/"independent"), an opposite direction ("increases"/"decreases",
 * "aumenta"/"reduz"), or another number or month of the same kind where the claim's is in no cited
 * source. Polarity and direction are read only in the part of the sentence that states the claim.
 * The evidence search asks it about every cited sentence aligned with the claim. Stateless.
 */
final class Contradiction {
  private Contradiction() {}

  /** Opposite directions: a claim with one and a sentence with the other (and not the first) disagree. */
  private static final Map<String, Set<String>> OPPOSITES = opposites(new String[][] {
      {"increase", "decrease", "reduce", "lower", "diminish", "decline", "drop", "fall"},
      {"increased", "decreased", "reduced", "lowered", "diminished", "declined", "dropped", "fell"},
      {"increase", "decreases", "reduces", "lowers", "diminishes", "declines", "drops", "falls"},
      {"increases", "decreases", "reduces", "lowers", "diminishes", "declines", "drops", "falls"},
      {"raise", "lower", "reduce", "decrease"},
      {"raises", "lowers", "reduces", "decreases"},
      {"higher", "lower", "smaller", "fewer"},
      {"more", "less", "fewer"},
      {"greater", "lesser", "smaller"},
      {"larger", "smaller"},
      {"positive", "negative"},
      {"positively", "negatively", "inversely"},
      {"improve", "worsen", "impair"},
      {"improves", "worsens", "impairs"},
      {"improved", "worsened", "impaired"},
      {"promote", "inhibit", "suppress", "prevent"},
      {"promotes", "inhibits", "suppresses", "prevents"},
      {"activate", "inhibit", "suppress", "deactivate"},
      {"activates", "inhibits", "suppresses", "deactivates"},
      {"upregulate", "downregulate"},
      {"upregulates", "downregulates"},
      {"upregulated", "downregulated"},
      {"enhance", "reduce", "impair", "inhibit"},
      {"enhances", "reduces", "impairs", "inhibits"},
      {"impede", "promote", "facilitate", "enable"},
      {"impedes", "promotes", "facilitates", "enables"},
      {"increased", "decreased", "reduced", "lowered", "impaired", "attenuated", "diminished"},
      {"elevated", "decreased", "reduced", "lowered"},
      {"enhanced", "reduced", "decreased", "impaired", "attenuated", "suppressed"},
      {"faster", "slower"},
      {"gain", "loss"},
      {"required", "dispensable"},
      {"necessary", "dispensable", "unnecessary"},
      {"before", "after"},
      {"above", "below"},
      {"aumenta", "diminui", "reduz"},
      {"aumentou", "diminuiu", "reduziu", "caiu"},
      {"aumento", "queda", "redução", "diminuição"},
      {"maior", "menor"},
      {"superior", "inferior"},
      {"antes", "depois"},
      {"acima", "abaixo"},
      {"melhora", "piora"},
      {"positivo", "negativo"},
  });

  /** Prefixes that negate the word they open (English and Portuguese). */
  private static final List<String> NEGATING_PREFIXES = List.of("non", "un", "in", "im", "ir", "dis", "des", "anti");

  private static final Pattern CLAUSE_START = Pattern.compile("[,;:()\\u2013\\u2014]");

  /** Why sentence {@code s} contradicts the claim, or {@code null}. */
  static String conflict(ClaimTerms ct, SourceSentences r, int s, Set<String> union, String foldedAll) {
    TreeMap<String, List<String>> sc = r.cues(s);
    String label = "[" + r.inputs.get(r.sentences.get(s).input()).id() + "]";
    // Polarity and direction are read in the part of the sentence that states the claim: from the
    // start of the clause holding its first term to its last term. "X is Y, not Z" does not negate
    // "X is Y"; "X is not Y" and "No X is Y" do.
    String scope = scope(r.sentences.get(s).text(), ct);
    TreeMap<String, List<String>> scoped = scope.length() == r.sentences.get(s).text().length() ? sc : Guard.cues(scope);
    boolean claimNeg = ct.negated();
    Polarity.Read sentPolarity = Polarity.read(scope);
    boolean sentNeg = Polarity.negated(sentPolarity,
        sentPolarity.frames() == 0 && sentPolarity.body().equals(scope) ? scoped.get("negation")
            : Guard.cues(sentPolarity.body()).get("negation"), r.portuguese);
    if (claimNeg != sentNeg) {
      return claimNeg ? "the claim negates what " + label + " states"
          : label + " negates it (\"" + Polarity.cues(scope, r.portuguese) + "\")";
    }
    // A word negated by a prefix: "UCP1-dependent" against "UCP1-independent", "effective"/"ineffective".
    Set<String> sentWordsP = new HashSet<>(wordsOf(scope.replace('-', ' ')));
    Set<String> claimWordsP = ct.unhyphenated();
    for (String w : claimWordsP) {
      if (w.length() < 5 || sentWordsP.contains(w)) continue;
      for (String prefix : NEGATING_PREFIXES) {
        if (sentWordsP.contains(prefix + w)) return "the claim says \"" + w + "\" where " + label + " says \"" + prefix + w + "\"";
        if (w.startsWith(prefix) && w.length() - prefix.length() >= 5 && sentWordsP.contains(w.substring(prefix.length()))
            && !claimWordsP.contains(w.substring(prefix.length()))) {
          return "the claim says \"" + w + "\" where " + label + " says \"" + w.substring(prefix.length()) + "\"";
        }
      }
    }
    // The same, read in place: a claim word whose neighbour agrees with the sentence's, where the
    // sentence has the word with a negating prefix added or taken away ("the first unknown as X" against
    // "the first known as X"), even when the other form occurs elsewhere in either.
    String[] inPlace = prefixedInPlace(wordsOf(ct.text()), wordsOf(r.sentences.get(s).text()));
    if (inPlace != null) return "the claim says \"" + inPlace[0] + "\" where " + label + " says \"" + inPlace[1] + "\"";
    // Opposite direction words.
    Set<String> sentWords = new HashSet<>(wordsOf(scope));
    for (String w : ct.words()) {
      Set<String> opp = OPPOSITES.get(w);
      if (opp == null || sentWords.contains(w)) continue;
      for (String o : opp) {
        if (sentWords.contains(o) && !ct.words().contains(o)) {
          return "the claim says \"" + w + "\" where " + label + " says \"" + o + "\"";
        }
      }
    }
    // Directions of change read by stem on two axes (more/less, better/worse): "slows" against
    // "exacerbation", "increases" against "amelioration", "worsens" against "rescued".
    Set<String> anchors = new HashSet<>();
    for (String t : ct.terms()) {
      int[] d = Direction.of(t);
      if (d[0] != 0 || d[1] != 0) continue; // a direction word anchors nothing
      anchors.add(t);
      anchors.add(stem(t));
    }
    String[] direction = Direction.opposed(wordsOf(ct.text()), wordsOf(scope), anchors);
    if (direction != null) return "the claim says \"" + direction[0] + "\" where " + label + " says \"" + direction[1] + "\"";
    // Numbers: a claim number in no cited source, where this sentence gives another one.
    List<String> claimNums = KeyItems.numbers(KeyItems.standalone(ct.cues().get("number"), ct.text()));
    List<String> sentNums = KeyItems.numbers(KeyItems.standalone(sc.get("number"), r.sentences.get(s).text()));
    if (!claimNums.isEmpty() && !sentNums.isEmpty()) {
      for (String n : claimNums) {
        if (sentNums.contains(n) || KeyItems.containsKey(foldedAll, union, n)) continue;
        for (String m : sentNums) {
          if (!claimNums.contains(m) && KeyItems.sameKind(n, m)) {
            return "the claim gives " + KeyItems.asWritten(n, ct.text()) + " where " + label + " gives "
                + KeyItems.asWritten(m, r.sentences.get(s).text());
          }
        }
      }
    }
    // Months: the claim's month in no cited source, this sentence gives another.
    for (String month : ct.cues().get("date")) {
      if (foldedAll.contains(" " + month + " ")) continue;
      for (String m : sc.get("date")) {
        if (!ct.cues().get("date").contains(m)) return "the claim gives " + month + " where " + label + " gives " + m;
      }
    }
    return null;
  }

  /**
   * A claim word and the sentence's word in its place that differ by a negating prefix ({@link
   * #NEGATING_PREFIXES}, a stem of five letters or more): an occurrence of the sentence's form fits
   * the claim word's place better than any occurrence of the claim's own form does: it shares more
   * neighbours (the word before, the word after; at least one), or as many at a closer relative
   * position; null when none. So "…, and nonviolent civil disobedience" is read against "…, and
   * violent civil disobedience" though the sentence also says "nonviolent" elsewhere.
   */
  static String[] prefixedInPlace(List<String> claim, List<String> sentence) {
    Map<String, List<Integer>> at = new HashMap<>();
    for (int j = 0; j < sentence.size(); j++) at.computeIfAbsent(sentence.get(j), k -> new java.util.ArrayList<>()).add(j);
    for (int i = 0; i < claim.size(); i++) {
      String c = claim.get(i);
      if (c.length() < 5) continue;
      double own = fit(claim, i, sentence, at.get(c));
      for (String prefix : NEGATING_PREFIXES) {
        String other = c.startsWith(prefix) && c.length() - prefix.length() >= 5 ? c.substring(prefix.length()) : prefix + c;
        double there = fit(claim, i, sentence, at.get(other));
        if (there >= 0.5 && there > own) return new String[] {c, other};
      }
    }
    return null;
  }

  /**
   * How well the sentence's word at the best of {@code positions} fits claim word {@code i}'s place:
   * the neighbours they share (0 to 2), less the distance of their relative positions (0 to 1, so
   * it only breaks ties); -1 when there is no such word.
   */
  private static double fit(List<String> claim, int i, List<String> sentence, List<Integer> positions) {
    if (positions == null) return -1;
    double best = -1;
    for (int j : positions) {
      int n = (i > 0 && j > 0 && claim.get(i - 1).equals(sentence.get(j - 1)) ? 1 : 0)
          + (i + 1 < claim.size() && j + 1 < sentence.size() && claim.get(i + 1).equals(sentence.get(j + 1)) ? 1 : 0);
      double distance = Math.abs((double) i / claim.size() - (double) j / sentence.size());
      best = Math.max(best, n - 0.5 * distance);
    }
    return best;
  }

  /** The part of {@code sentence} that states the claim (see {@link #conflict}); the whole sentence when no claim term is in it. */
  private static String scope(String sentence, ClaimTerms ct) {
    Set<String> stems = new HashSet<>();
    for (String t : ct.terms()) stems.add(stem(t));
    int[] span = {-1, -1};
    Terms.scan(sentence, (term, start) -> {
      if (Terms.STOP_TABLE.contains(term)) return;
      String t = term.toString();
      if (ct.terms().contains(t) || stems.contains(stem(t))) {
        if (span[0] < 0) span[0] = start;
        span[1] = start + term.length();
      }
    });
    if (span[0] < 0) return sentence;
    int from = span[0];
    while (from > 0 && !CLAUSE_START.matcher(String.valueOf(sentence.charAt(from - 1))).matches()) from--;
    // the term's length in the sentence may differ from the folded term's (accents): extend to the word's end
    int to = Math.min(sentence.length(), span[1]);
    while (to < sentence.length() && Character.isLetterOrDigit(sentence.charAt(to))) to++;
    return sentence.substring(from, to);
  }

  private static Map<String, Set<String>> opposites(String[][] groups) {
    Map<String, Set<String>> out = new HashMap<>();
    for (String[] g : groups) {
      String head = fold(g[0]);
      for (int i = 1; i < g.length; i++) {
        String o = fold(g[i]);
        out.computeIfAbsent(head, k -> new LinkedHashSet<>()).add(o);
        out.computeIfAbsent(o, k -> new LinkedHashSet<>()).add(head);
      }
    }
    Map<String, Set<String>> frozen = new HashMap<>();
    // Insertion order, kept: when a sentence holds several opposites, the reason names the first in
    // table order, the same in every JVM (an immutable Set.copyOf iterates in a per-JVM random order).
    out.forEach((k, v) -> frozen.put(k, java.util.Collections.unmodifiableSet(new LinkedHashSet<>(v))));
    return Map.copyOf(frozen);
  }
}
