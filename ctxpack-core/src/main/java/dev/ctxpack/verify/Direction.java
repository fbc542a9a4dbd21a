package dev.ctxpack.verify;

import java.util.List;

/**
 * The direction a word of change gives its object, on two axes: amount (more: "increases",
 * "enhancement", "exacerbates", "aumenta"; less: "reduces", "attenuated", "amelioration",
 * "inibe") and value (better: "improves", "rescued", "melhora"; worse: "worsens", "impairs",
 * "agrava"). A word is read by its stem, so every form of a verb and its noun count alike
 * ("inhibits", "inhibited", "inhibition"); agent nouns are not changes ("inhibitor", "promoter",
 * "tumour suppressor", "enhancer"). A claim and a sentence that state the same thing with opposite
 * directions on one axis, and the sentence with none of the claim's on that axis, disagree
 * ("slows plaque formation" against "a marked exacerbation of plaque formation"); the claim's first
 * word is an attribute of its subject ("Increased acetylation exacerbates…"), not a change it
 * claims. English and Portuguese (folded, without accents). Stateless.
 */
final class Direction {
  private Direction() {}

  private static final List<String> MORE = List.of(
      "increas", "elevat", "enhanc", "augment", "amplif", "promot", "activat", "stimulat", "upregulat", "accelerat",
      "exacerbat", "aggravat", "potentiat", "boost", "heighten", "intensif",
      "aument", "promov", "estimul", "intensific", "potencializ", "agrav", "aceler");
  private static final List<String> LESS = List.of(
      "decreas", "reduc", "reduct", "diminish", "inhibit", "suppress", "attenuat", "impair", "abrogat", "abolish",
      "downregulat", "decelerat", "ameliorat", "alleviat", "mitigat", "repress", "dampen", "imped", "hinder", "curtail",
      "slow",
      "diminu", "reduz", "inib", "atenu", "prejudic", "abol", "desaceler", "ameniz", "alivi", "mitig", "retard");
  private static final List<String> BETTER = List.of(
      "improv", "ameliorat", "alleviat", "rescu", "restor", "benefici",
      "melhor", "restaur", "benefic", "alivi", "ameniz");
  private static final List<String> WORSE = List.of(
      "worsen", "exacerbat", "aggravat", "impair", "deteriorat",
      "pior", "agrav", "deterior", "prejudic");
  /** Agent nouns and other words that share a stem but name no change. */
  private static final List<String> NOT_CHANGES = List.of(
      "inhibitor", "inhibitors", "promoter", "promoters", "activator", "activators", "suppressor", "suppressors",
      "enhancer", "enhancers", "repressor", "repressors", "stimulus", "stimuli", "slowly", "improvised", "piores",
      "inibidor", "inibidores", "promotor", "promotores", "ativador", "melhores");

  /** The sign of {@code word} on the amount axis (+1 more, -1 less, 0 none) and on the value axis. */
  static int[] of(String word) {
    if (word.length() < 4 || NOT_CHANGES.contains(word)) return new int[] {0, 0};
    return new int[] {sign(word, MORE, LESS), sign(word, BETTER, WORSE)};
  }

  private static int sign(String word, List<String> up, List<String> down) {
    boolean u = matches(word, up);
    boolean d = matches(word, down);
    return u == d ? 0 : u ? 1 : -1;
  }

  private static boolean matches(String word, List<String> stems) {
    for (String s : stems) if (word.startsWith(s)) return true;
    return false;
  }

  /**
   * A claim word and a sentence word with opposite directions on one axis, where the claim has no
   * word of the sentence's direction on it and the sentence none of the claim's; null when none.
   */
  static String[] opposed(List<String> claim, List<String> sentence) {
    return opposed(claim, sentence, null);
  }

  /** Words on either side of a sentence's direction word among which one of the claim's terms must be. */
  static final int REACH = 3;

  /**
   * As {@link #opposed(List, List)}, a sentence's opposite word counting only when one of {@code
   * anchors} (the claim's terms, or their stems: {@link VerifyText#stem}) is within {@link #REACH}
   * words of it: it changes something the claim speaks of ("a reduction in thyroid volume"), not
   * something else ("with the increased interest in …"). Null anchors: every word counts.
   */
  static String[] opposed(List<String> claim, List<String> sentence, java.util.Set<String> anchors) {
    for (int axis = 0; axis < 2; axis++) {
      String claimUp = null;
      String claimDown = null;
      // The claim's first word is an attribute of its subject, not a change it claims: "Activated
      // Cdk5 regulates…", "Increased acetylation exacerbates…" claim "regulates" and "exacerbates".
      for (String w : claim.subList(Math.min(1, claim.size()), claim.size())) {
        int s = of(w)[axis];
        if (s > 0 && claimUp == null) claimUp = w;
        if (s < 0 && claimDown == null) claimDown = w;
      }
      if ((claimUp == null) == (claimDown == null)) continue; // none, or both: no single direction
      String sentUp = null;
      String sentDown = null;
      String anchoredUp = null;
      String anchoredDown = null;
      for (int i = 0; i < sentence.size(); i++) {
        String w = sentence.get(i);
        int s = of(w)[axis];
        if (s == 0) continue;
        // the sentence's form of the claim's opening attribute is that attribute ("Inhibition of
        // HDAC6 improved survival" for "Inhibiting HDAC6 increases survival")
        if (!claim.isEmpty() && VerifyText.stem(w).equals(VerifyText.stem(claim.get(0)))) continue;
        if (s > 0 && sentUp == null) sentUp = w;
        if (s < 0 && sentDown == null) sentDown = w;
        if (!anchored(sentence, i, anchors)) continue;
        if (s > 0 && anchoredUp == null) anchoredUp = w;
        if (s < 0 && anchoredDown == null) anchoredDown = w;
      }
      if (claimUp != null && anchoredDown != null && sentUp == null) return new String[] {claimUp, anchoredDown};
      if (claimDown != null && anchoredUp != null && sentDown == null) return new String[] {claimDown, anchoredUp};
    }
    return null;
  }

  private static boolean anchored(List<String> sentence, int i, java.util.Set<String> anchors) {
    if (anchors == null) return true;
    for (int j = Math.max(0, i - REACH); j <= Math.min(sentence.size() - 1, i + REACH); j++) {
      if (j == i) continue;
      String w = sentence.get(j);
      if (anchors.contains(w) || anchors.contains(VerifyText.stem(w))) return true;
    }
    return false;
  }
}
