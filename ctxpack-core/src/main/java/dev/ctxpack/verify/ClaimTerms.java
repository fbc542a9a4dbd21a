package dev.ctxpack.verify;

import static dev.ctxpack.verify.VerifyText.wordsOf;

import dev.ctxpack.similarity.Guard;
import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One claim analysed against a request's sources: its content terms weighted by their rarity among
 * the source sentences, its key items (numbers, names capitalised inside the sentence, months),
 * its clauses, the guard's cues, and its folded words. Built once per claim by {@link #of} and read
 * by the evidence search and the contradiction checks.
 */
record ClaimTerms(String text, List<String> terms, double[] weights, List<String> keys,
    List<List<String>> clauses, TreeMap<String, List<String>> cues, Set<String> words, Set<String> unhyphenated,
    boolean negated) {

  private static final Pattern CLAUSE = Pattern.compile(
      "\\s*;\\s*|,\\s+(?=(?:and|but|while|whereas|which|who|although|e|mas|enquanto|embora|porém|que)\\s)",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /**
   * {@code claim} analysed; a falsity frame ("it is false that …", "não é verdade que …") is read
   * for polarity ({@link Polarity}) and its words are not terms of the claim: the rest is what the
   * sources must state.
   */
  static ClaimTerms of(String claim, SourceSentences r) {
    Polarity.Read polarity = Polarity.read(claim);
    String text = polarity.body();
    LinkedHashSet<String> ts = new LinkedHashSet<>(VerifyText.terms(text));
    List<String> terms = new ArrayList<>(ts);
    double[] w = new double[terms.size()];
    for (int i = 0; i < w.length; i++) w[i] = r.idf(terms.get(i));
    List<List<String>> clauses = new ArrayList<>();
    for (String part : CLAUSE.split(text)) {
      List<String> ct = new ArrayList<>(VerifyText.terms(part));
      if (ct.size() >= 2) clauses.add(ct);
    }
    TreeMap<String, List<String>> cues = Guard.cues(text);
    return new ClaimTerms(text, terms, w, keys(text, cues), clauses, cues, new HashSet<>(wordsOf(text)),
        new HashSet<>(wordsOf(text.replace('-', ' '))), Polarity.negated(polarity, cues.get("negation"), r.portuguese));
  }

  /** Numbers, names (capitalised inside the sentence) and months: items a supporting source must contain. */
  private static List<String> keys(String text, TreeMap<String, List<String>> cues) {
    LinkedHashSet<String> keys = new LinkedHashSet<>();
    for (String n : KeyItems.standalone(cues.get("number"), text)) if (n.chars().anyMatch(Character::isDigit)) keys.add(n);
    keys.addAll(cues.get("date"));
    // names: a term written with a capital that does not open the claim (a claim is one sentence);
    // terms as Terms cuts them, so "Saint-Clair-sur-Epte" gives saint, clair, epte, as in the source
    // A name in parentheses is an alias of what precedes it ("Apolipoprotein E4 (APOE4)"): the
    // source may give either, so it is not required.
    boolean[] first = {true};
    Terms.scan(text, (term, start) -> {
      if (!first[0] && Character.isUpperCase(text.charAt(start)) && !Terms.STOP_TABLE.contains(term)
          && !insideParentheses(text, start)) {
        keys.add(term.toString());
      }
      first[0] = false;
    });
    return List.copyOf(keys);
  }

  private static boolean insideParentheses(String text, int at) {
    int open = text.lastIndexOf('(', at);
    return open >= 0 && text.lastIndexOf(')', at) < open && text.indexOf(')', at) >= 0;
  }
}
