package dev.ctxpack.verify;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The feedback text of a {@link Verification}: one line per problem, in the answer's language (pt or en). */
final class Feedback {
  private Feedback() {}

  static String of(boolean pt, List<ClaimVerdict> claims, Collection<String> invalid, Collection<String> given,
      boolean abstained, Boolean abstentionCorrect, String answeringSentence) {
    return of(pt, claims, invalid, given, abstained, abstentionCorrect, answeringSentence, List.of());
  }

  static String of(boolean pt, List<ClaimVerdict> claims, Collection<String> invalid, Collection<String> given,
      boolean abstained, Boolean abstentionCorrect, String answeringSentence, List<QuoteCheck> quotes) {
    List<String> lines = new ArrayList<>();
    String givenList = labels(given);
    for (ClaimVerdict v : claims) {
      int n = v.index();
      String cites = labels(v.claim().citations());
      String better = v.betterSources().isEmpty() ? "" : labels(v.betterSources().subList(0, 1));
      List<String> bad = new ArrayList<>();
      for (CitationCheck c : v.checks()) if (!c.valid()) bad.add(c.source());
      if (!bad.isEmpty()) {
        lines.add(pt
            ? "Afirmação " + n + " cita " + labels(bad) + ", que não está entre as fontes (" + givenList
                + "): remova a citação ou cite uma fonte fornecida."
            : "Claim " + n + " cites " + labels(bad) + ", which is not among the sources (" + givenList
                + "): remove the citation or cite a given source.");
      }
      switch (v.verdict()) {
        case SUPPORTED -> { }
        case UNCITED -> lines.add(pt
            ? "Afirmação " + n + " não tem citação: " + (better.isEmpty() ? "cite a fonte que a sustenta ou remova-a."
                : "cite " + better + ", que a sustenta, ou remova-a.")
            : "Claim " + n + " has no citation: " + (better.isEmpty() ? "cite the source that states it, or remove it."
                : "cite " + better + ", which states it, or remove it."));
        case CONTRADICTED -> lines.add(pt
            ? "Afirmação " + n + " contradiz " + evidenceLabel(v) + " (" + v.reason() + quote(v) + "): corrija-a"
                + " segundo a fonte ou remova-a."
            : "Claim " + n + " contradicts " + evidenceLabel(v) + " (" + v.reason() + quote(v) + "): correct it"
                + " to match the source or remove it.");
        case PARTIAL -> lines.add(pt
            ? "Afirmação " + n + " é sustentada só em parte por " + cites + ": " + missing(v, true)
                + (v.missing().size() > 1 ? " não estão" : " não está")
                + " em nenhuma fonte citada; remova essa parte ou cite uma fonte que a afirme."
            : "Claim " + n + " is only partly supported by " + cites + ": " + missing(v, false)
                + (v.missing().size() > 1 ? " are" : " is") + " in no cited source; remove that part or cite a source"
                + " that states it.");
        case UNSUPPORTED -> {
          if (bad.size() == v.claim().citations().size()) {
            if (!better.isEmpty()) {
              lines.add(pt ? "Afirmação " + n + ": " + better + " a sustenta; cite-a."
                  : "Claim " + n + ": " + better + " states it; cite it.");
            }
          } else {
            lines.add(pt
                ? "Afirmação " + n + " não é sustentada por " + cites + ": remova-a ou cite uma fonte que a afirme"
                    + (better.isEmpty() ? "." : " (" + better + " a afirma).")
                : "Claim " + n + " is not supported by " + cites + ": remove it or cite a source that states it"
                    + (better.isEmpty() ? "." : " (" + better + " does)."));
          }
        }
        default -> throw new AssertionError(v.verdict());
      }
    }
    int qn = 0;
    for (QuoteCheck q : quotes) {
      qn++;
      if (!q.misquote()) continue;
      String extract = "\"" + clip(q.quote().text()) + "\"";
      String cites = labels(q.quote().citations());
      String closest = q.closest() == null ? "" : "\"" + clip(q.closest().text()) + "\"";
      lines.add(switch (q.status()) {
        case OTHER_SOURCE -> pt
            ? "Citação " + qn + " (" + extract + ") não está em " + cites + ", mas sim em [" + q.source()
                + "]: cite [" + q.source() + "]."
            : "Quote " + qn + " (" + extract + ") is not in " + cites + " but in [" + q.source() + "]: cite ["
                + q.source() + "].";
        case ALTERED -> pt
            ? "Citação " + qn + " (" + extract + ") não é literal" + (cites.isEmpty() ? "" : " em " + cites)
                + "; o texto real mais próximo, em [" + q.source() + "], é " + closest + ": copie-o exatamente."
            : "Quote " + qn + " (" + extract + ") is not verbatim" + (cites.isEmpty() ? "" : " in " + cites)
                + "; the closest real text, in [" + q.source() + "], is " + closest + ": copy it exactly.";
        default -> pt
            ? "Citação " + qn + " (" + extract + ") não está em nenhuma fonte: remova-a ou cite um trecho real."
            : "Quote " + qn + " (" + extract + ") is in no source: remove it or quote a real extract.";
      });
    }
    if (claims.isEmpty() && !abstained) {
      lines.add(pt
          ? "A resposta não afirma nada que se possa verificar nem se abstém: responda a partir das fontes, citando-as,"
              + " ou responda com a frase de abstenção."
          : "The answer states nothing that can be checked and does not abstain: answer from the sources, citing them,"
              + " or reply with the abstention phrase.");
    }
    if (Boolean.FALSE.equals(abstentionCorrect)) {
      if (abstained) {
        lines.add(pt
            ? "A resposta se abstém, mas as fontes parecem responder à pergunta"
                + (answeringSentence == null ? "" : ": " + answeringSentence) + "; responda a partir delas."
            : "The answer abstains, but the sources appear to answer the question"
                + (answeringSentence == null ? "" : ": " + answeringSentence) + "; answer from them.");
      } else {
        lines.add(pt
            ? "As fontes não parecem responder à pergunta: responda com a frase de abstenção, a menos que cada"
                + " afirmação esteja sustentada."
            : "The sources do not appear to answer the question: abstain with the fixed phrase unless every claim"
                + " is supported.");
      }
    }
    return String.join("\n", lines);
  }

  private static String evidenceLabel(ClaimVerdict v) {
    return v.evidence() == null ? labels(v.claim().citations()) : "[" + v.evidence().source() + "]";
  }

  private static String quote(ClaimVerdict v) {
    return v.evidence() == null ? "" : ": \"" + clip(v.evidence().text()) + "\"";
  }

  private static String missing(ClaimVerdict v, boolean pt) {
    List<String> m = v.missing().size() > 5 ? v.missing().subList(0, 5) : v.missing();
    if (m.isEmpty()) return pt ? "parte dela" : "part of it";
    return quoteList(m);
  }

  /** Items quoted and joined: {@code "1,500 km", "Paris"}. */
  static String quoteList(List<String> items) {
    List<String> q = new ArrayList<>();
    for (String s : items) q.add("\"" + s + "\"");
    return String.join(", ", q);
  }

  /** A sentence on one line, cut to 160 characters, for quoting. */
  static String clip(String s) {
    String t = s.strip().replaceAll("\\s+", " ");
    return t.length() <= 160 ? t : t.substring(0, 157) + "...";
  }

  static String labels(Collection<String> ids) {
    StringBuilder sb = new StringBuilder();
    for (String id : ids) sb.append('[').append(id).append(']');
    return sb.toString();
  }
}
