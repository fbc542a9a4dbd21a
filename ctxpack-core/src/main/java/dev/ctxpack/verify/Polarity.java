package dev.ctxpack.verify;

import dev.ctxpack.similarity.Guard;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a text states or denies what it says. Two layers, English and Portuguese:
 *
 * <ul>
 *   <li><b>Falsity frames</b>: a clause opened by a predicate of falsity over a complement clause
 *       ("it is not true that", "it is false that", "it is not the case that", "não é verdade que",
 *       "é falso que", "é mentira que"): a lexicon of falsity predicates (true/false, the case,
 *       correct/incorrect, verdade/falso/mentira/correto...) under a copula and a complementizer,
 *       each frame negating its complement;
 *   <li><b>Clause negation</b>: the dedup guard's negation cues in the complement ({@code not, no,
 *       never, none, nobody, nothing, neither, nor, cannot, without, não, nunca, nenhum, nem,
 *       jamais, ninguém, nada, sem, tampouco}; Portuguese "no" is <i>em + o</i>, not a cue).
 * </ul>
 *
 * <p>Negative predicates deny the verb they govern the same way ("fails to", "was unable to",
 * "ceased to", "deixou de", "cessou de", "parou de", "falhou em"): "it did not fail to" affirms.
 * So do predicates of lacking, which deny the having of their object ("lacks", "is devoid of",
 * "is missing", "carece de", "é carente de", "é desprovido de", "está privado de").
 *
 * <p>A frame over a negated complement cancels it ("it is not true that X did not happen" states that
 * X happened): polarity is the frames' count and the clause negation taken together, odd for a
 * denial. Negation cues inside one complement do not cancel each other ("neither … nor", "not …
 * without"): they are one negation. Stateless.
 */
final class Polarity {
  private Polarity() {}

  /** Predicates of falsity; the others of a frame (true, correct, verdade…) are of truth. */
  private static final Pattern FALSE = Pattern.compile(
      "untrue|false|incorrect|inaccurate|wrong|falso|mentira|incorreto|errado|inver[ií]dico",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final Pattern NOT = Pattern.compile("\\bnot\\b|n['\u2019]t\\b|\\bn[ãa]o\\b",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final String EN_FRAME = "(?:it|that|this)(?:\\s+(?:is|was)(?:n['\u2019]t)?|['\u2019]s)\\s+(?:not\\s+)?"
      + "(?:true|correct|right|accurate|the\\s+case|untrue|false|incorrect|inaccurate|wrong)\\s+that";
  private static final String PT_FRAME = "(?:n[ãa]o\\s+)?(?:é|e|era|foi)\\s+"
      + "(?:verdade|verdadeiro|correto|certo|exato|o\\s+caso|falso|mentira|incorreto|errado|inver[ií]dico)\\s+que";
  /** A frame opens the text or a clause (after , ; : or a dash, and a conjunction). */
  private static final Pattern FRAME = Pattern.compile("(?:^|(?<=[,;:\u2013\u2014]))\\s*(?:(?:but|and|yet|so|mas|e|por[ée]m|ent[ãa]o)\\s+)?(?:"
      + EN_FRAME + "|" + PT_FRAME + ")\\s+", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /**
   * Predicates that deny their complement verb: "fails to", "ceased to", "was unable to", "is
   * incapable of", "deixou de", "cessou de", "parou de", "falhou em", "é incapaz de". Each counts
   * once, like a frame; the verb after it stays in the body ("failed to approve" states "approve",
   * denied).
   */
  private static final Pattern NEGATIVE_PREDICATE = Pattern.compile(
      "\\b(?:fail(?:s|ed|ing)?|cease(?:s|d)?|unable)\\s+to\\s+"
          // "is incapable of producing X" = "does not produce X"; "é incapaz de"
          + "|\\bincapable\\s+of\\s+|(?<!\\p{L})incapaz(?:es)?\\s+de\\s+"
          + "|\\b(?:deix(?:a|am|ou|aram|ava|avam|ar)|cess(?:a|am|ou|aram|ar)|par(?:ou|aram|ar)|falh(?:a|am|ou|aram|ar))"
          + "\\s+(?:de|em)\\s+"
          // lacking: the verb denies the having of its object ("lacks X" = "does not have X")
          + "|\\b(?:lack(?:s|ed|ing)?)\\s+(?!of\\b)|\\b(?:(?:is|are|was|were|be|been)\\s+)?devoid\\s+of\\s+"
          + "|\\b(?:is|are|was|were)\\s+missing\\s+(?=\\p{L})"
          + "|(?<!\\p{L})carec(?:e|em|ia|iam|eu|eram|er)\\s+de\\s+"
          + "|(?<!\\p{L})(?:(?:é|são|era|eram|foi|foram|ser|está|estão|estava|estavam)\\s+)?"
          + "(?:carentes?|desprovid[oa]s?|privad[oa]s?)\\s+de\\s+",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /**
   * A text read for polarity: the text without its frames and negative predicates, how many of them
   * deny (a frame of falsity, or of truth under "not": "it is not false that" affirms; every
   * negative predicate), and the denying ones as written.
   */
  record Read(String body, int frames, List<String> written) {}

  /**
   * "Not only … but (also)", "não só / não apenas … mas / como também": the "not" adds, it denies
   * nothing (a "but" must follow: "is not only 5 %" alone is read as a denial). Removed from the body
   * before its cues are read.
   */
  private static final Pattern NOT_ONLY = Pattern.compile(
      "\\bnot\\s+(?=(?:only|just|merely|solely)\\b[^.;]*\\bbut\\b)"
          + "|(?<!\\p{L})n[ãa]o\\s+(?=(?:s[óo]|apenas|somente)(?!\\p{L})[^.;]*(?<!\\p{L})(?:mas|como|bem)(?!\\p{L}))",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  static Read read(String text) {
    Read r = readFrames(text);
    String body = NOT_ONLY.matcher(r.body()).replaceAll(""); // the same String when nothing matched
    return body.equals(r.body()) ? r : new Read(body, r.frames(), r.written());
  }

  private static Read readFrames(String text) {
    Matcher m = FRAME.matcher(text);
    StringBuilder body = new StringBuilder();
    List<String> written = new java.util.ArrayList<>();
    int last = 0;
    int frames = 0;
    boolean any = false;
    while (m.find()) {
      any = true;
      body.append(text, last, m.start());
      if (body.length() > 0 && !Character.isWhitespace(body.charAt(body.length() - 1))) body.append(' ');
      String f = m.group().strip();
      if (FALSE.matcher(f).find() != NOT.matcher(f).find()) {
        frames++;
        written.add(f);
      }
      last = m.end();
    }
    String framed = text;
    if (any) {
      body.append(text, last, text.length());
      framed = body.toString().strip();
    }
    Matcher p = NEGATIVE_PREDICATE.matcher(framed);
    if (!p.find()) return any ? new Read(framed, frames, List.copyOf(written)) : new Read(text, 0, List.of());
    StringBuilder rest = new StringBuilder();
    int at = 0;
    do {
      rest.append(framed, at, p.start());
      written.add(p.group().strip());
      frames++;
      at = p.end();
    } while (p.find());
    rest.append(framed, at, framed.length());
    return new Read(rest.toString(), frames, List.copyOf(written));
  }

  /** Whether {@code text} denies what its words state. */
  static boolean negated(String text, boolean portuguese) {
    Read r = read(text);
    return negated(r, Guard.cues(r.body()).get("negation"), portuguese);
  }

  /** {@link #negated(String, boolean)} with the body's negation cues already found. */
  static boolean negated(Read r, List<String> bodyCues, boolean portuguese) {
    return (r.frames() % 2 == 1) != clauseNegated(bodyCues, portuguese);
  }

  /** What makes {@code text} a denial, for a reason line: its frames, then its cues. */
  static String cues(String text, boolean portuguese) {
    Read r = read(text);
    List<String> out = new java.util.ArrayList<>(r.written());
    for (String c : Guard.cues(r.body()).get("negation")) if (!(portuguese && c.equals("no"))) out.add(c);
    return String.join(" ", out);
  }

  /** Whether negation cues negate: in Portuguese "no" is "em o" (no contrato), not a negation. */
  static boolean clauseNegated(List<String> cues, boolean portuguese) {
    for (String c : cues) if (!(portuguese && c.equals("no"))) return true;
    return false;
  }
}
