package dev.ctxpack.verify;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model's answer as claims. {@link #parse} reads text with inline citations: {@code [S1]}, {@code
 * [S1, S2]}, {@code [S1][S3]} or {@code [S1; S2]}, placed anywhere in a sentence or after its full
 * stop. Each sentence (and each bullet or list item) is one claim and carries the citations inside
 * it or right after it. A sentence without citations is a claim only when it states something:
 * headings, lead-ins ending in a colon, questions, courtesies ("I hope this helps", "Com base nas
 * fontes:") and abstentions are not claims. {@link #of} takes claims given as data (the JSON
 * claims format), each of which is a claim whatever it says.
 *
 * @param text the answer text, as given (for JSON claims: the {@code answer} field)
 * @param claims the claims, in answer order
 * @param abstained true when the answer declines to answer ("The sources do not contain the
 *     answer.", "Não sei."), in Portuguese or English
 * @param quotes the extracts the answer quotes, in answer order ({@link Quote}); each is checked
 *     verbatim against the source it cites
 * @param gap with an abstention, what the answer says is missing and what to retrieve next (lines
 *     {@code Missing: …} / {@code Next: …}, {@code Falta: …} / {@code Próximo passo: …}); null when
 *     it names neither
 */
public record Answer(String text, List<Claim> claims, boolean abstained, List<Quote> quotes, Gap gap) {
  /** What an abstaining answer says is missing from the sources and what to retrieve next (either may be empty). */
  public record Gap(String missing, String next) {}

  /** An answer with no quotes and no gap note. */
  public Answer(String text, List<Claim> claims, boolean abstained) {
    this(text, claims, abstained, List.of(), null);
  }

  /**
   * A citation marker: brackets holding one or more IDs separated by commas, semicolons or spaces.
   * An ID is up to {@value #MAX_ID} letters, digits and {@code _ . : # / -} and holds a digit
   * ({@code S1}, {@code doc-3}), so "[sic]" or "[citation needed]" are not citations. Found by a
   * linear scan (a marker is at most {@value #MAX_MARKER} characters), so no answer text can make
   * parsing slow or deep.
   */
  record Marker(int start, int end, List<String> ids) {}

  static final int MAX_ID = 64;
  static final int MAX_MARKER = 512;

  /** The next marker in {@code text[from, to)}, or {@code null}. */
  static Marker nextMarker(String text, int from, int to) {
    for (int open = text.indexOf('[', from); open >= 0 && open < to; open = text.indexOf('[', open + 1)) {
      int limit = Math.min(to, open + 1 + MAX_MARKER);
      int close = -1;
      for (int i = open + 1; i < limit; i++) {
        char c = text.charAt(i);
        if (c == ']') {
          close = i;
          break;
        }
        if (c == '[') break;
      }
      if (close < 0) continue;
      List<String> found = ids(text.substring(open + 1, close));
      if (!found.isEmpty()) return new Marker(open, close + 1, found);
    }
    return null;
  }

  private static final Pattern ID_SPLIT = Pattern.compile("[\\s,;]+");
  private static final Pattern BULLET = Pattern.compile("^\\s*(?:[-*•+]|\\d{1,3}[.)])\\s+");
  private static final Pattern HEADING = Pattern.compile("^\\s*#{1,6}\\s");
  /**
   * A line naming what an abstaining answer lacks (group 1) or what to retrieve next (otherwise), in
   * English or Portuguese, optionally as a bullet or in bold.
   */
  private static final Pattern GAP = Pattern.compile("^\\s*(?:[-*•+]\\s+)?\\**\\s*(?:"
      + "(missing|what is missing|not in the sources|falta|faltam|o que falta|ausente|não consta)"
      + "|next|retrieve next|to retrieve|next step|próximo passo|próximos passos|a seguir|buscar|a buscar|recuperar)"
      + "\\s*\\**\\s*:\\s*\\**", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /** Words that do not make a sentence factual: talk about the answer, the sources, the question. */
  private static final Set<String> META = Set.copyOf(termsOf(List.of(
      "source", "sources", "fonte", "fontes", "answer", "resposta", "question", "pergunta", "based", "baseado",
      "baseada", "base", "here", "aqui", "following", "seguinte", "seguintes", "summary", "resumo", "provided",
      "given", "fornecida", "fornecidas", "fornecido", "fornecidos", "information", "informação", "informações",
      "context", "contexto", "according", "acordo", "hope", "helps", "help", "espero", "ajude", "ajudar",
      "summarize", "summarise", "resumir", "resumindo", "resumo", "conclusion", "conclusão", "overall",
      "note", "nota", "let", "know", "sure", "certainly", "claro", "course", "happy", "feliz", "glad",
      "anything", "else", "mais", "algo", "other", "outra", "outras", "please", "favor", "details", "detalhes",
      "below", "abaixo", "above", "acima", "points", "pontos", "key", "main", "principais", "principal",
      "ter", "ajudado", "ajudou", "útil", "useful", "dúvida", "dúvidas", "question", "questions", "qualquer",
      "disposição", "olá", "hello", "hi", "thanks", "obrigado", "obrigada")));

  /** Declining to answer, in Portuguese and English (folded: lower case, no accents). */
  private static final List<String> ABSTENTIONS = fold(List.of(
      "the sources do not contain the answer", "sources do not contain", "sources don't contain",
      "sources do not provide", "sources don't provide", "sources do not mention", "sources don't mention",
      "sources do not say", "sources do not specify", "sources do not include", "sources do not state",
      "not contain the answer", "not contain enough information", "does not contain information",
      "do not contain information", "not enough information", "insufficient information",
      "no information about", "no information on", "there is no information", "no mention of",
      "is not mentioned in the", "are not mentioned in the", "not specified in the", "not provided in the",
      "i don't know", "i do not know", "i cannot answer", "i can't answer", "unable to answer",
      "cannot be answered", "can't be answered", "cannot be determined from", "can't be determined from",
      "unable to determine", "cannot determine", "could not find", "couldn't find", "cannot find",
      "as fontes não contêm a resposta", "fontes não contêm", "fontes não contem", "fontes não mencionam",
      "fontes não informam", "fontes não trazem", "fontes não fornecem", "fontes não dizem",
      "fontes não especificam", "não contêm informações", "não contém informações", "não há informação",
      "não há informações", "não há menção", "informação insuficiente", "informações insuficientes",
      "não sei", "não é possível responder", "não posso responder", "não consigo responder",
      "não é possível determinar", "não foi possível determinar", "não foi possível encontrar",
      "não encontrei", "não é mencionad", "não são mencionad", "não é informad", "não está disponível"));

  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();
  private static final LanguageDetector DETECTOR = new LanguageDetector();

  public Answer {
    Objects.requireNonNull(text, "text");
    claims = List.copyOf(claims);
    quotes = List.copyOf(quotes);
  }

  /** Claims given as data: {@code answer} is the answer text (may be empty), each claim is checked as given. */
  public static Answer of(String answer, List<Claim> claims) {
    return of(answer, claims, List.of());
  }

  /**
   * Claims given as data, with the extracts each claim quotes ({@code quotes.get(k)} for claim
   * {@code k}; the list may be shorter than the claims): those and the extracts in quote marks inside
   * a claim's text are checked against the claim's citations.
   */
  public static Answer of(String answer, List<Claim> claims, List<List<String>> quotes) {
    String a = answer == null ? "" : answer;
    boolean abstained = isAbstention(a) || (claims.isEmpty() && a.isBlank());
    List<Quote> found = new ArrayList<>();
    for (int k = 0; k < claims.size(); k++) {
      Claim c = claims.get(k);
      for (int[] q : Quotes.spans(c.text(), 0, c.text().length())) {
        found.add(Quote.of(c.text().substring(q[0], q[1]), c.citations(), k + 1));
      }
      if (k < quotes.size()) for (String q : quotes.get(k)) found.add(Quote.of(q, c.citations(), k + 1));
    }
    return new Answer(a, claims, abstained && claims.stream().allMatch(c -> isAbstention(c.text())), found, null);
  }

  /** Reads an answer with inline citations. */
  public static Answer parse(String text) {
    Objects.requireNonNull(text, "text");
    Language language = DETECTOR.detect(text);
    List<Claim> claims = new ArrayList<>();
    boolean abstained = false;
    String missing = null;
    String nextStep = null;
    int lineStart = 0;
    int n = text.length();
    while (lineStart <= n) {
      int lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = n;
      // A unit: a bullet or list item, a heading, or a run of non-blank lines (a paragraph).
      int unitEnd = lineEnd;
      String first = text.substring(lineStart, lineEnd);
      Matcher gap = GAP.matcher(first);
      if (gap.find() && nextMarker(first, 0, first.length()) == null) { // "Missing: …" / "Next: …": the abstention's note, not a claim
        String note = first.substring(gap.end()).strip();
        if (gap.group(1) != null) missing = missing == null ? note : missing + " " + note;
        else nextStep = nextStep == null ? note : nextStep + " " + note;
      } else if (!HEADING.matcher(first).find()) {
        while (unitEnd < n) {
          int next = text.indexOf('\n', unitEnd + 1);
          if (next < 0) next = n;
          String line = text.substring(unitEnd + 1, next);
          if (line.isBlank() || BULLET.matcher(line).find() || HEADING.matcher(line).find()
              || GAP.matcher(line).find()) {
            break;
          }
          unitEnd = next;
        }
        int from = lineStart;
        Matcher b = BULLET.matcher(first);
        if (b.find()) from = lineStart + b.end();
        abstained |= unit(text, from, unitEnd, language, claims);
      }
      lineStart = unitEnd + 1;
    }
    List<Quote> quotes = Quotes.find(text, claims);
    boolean abstains = abstained && claims.stream().allMatch(c -> c.citations().isEmpty());
    return new Answer(text, claims, abstains, quotes,
        abstains && (missing != null || nextStep != null) ? new Gap(nz(missing), nz(nextStep)) : null);
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }

  /** Adds the claims of {@code text[from, to)}; true when it holds an abstention. */
  private static boolean unit(String text, int from, int to, Language language, List<Claim> out) {
    String unit = text.substring(from, to);
    List<Span> spans = SEGMENTER.split(unit, language);
    boolean abstained = false;
    int firstOfUnit = out.size();
    for (Span s : spans) {
      int start = from + s.start();
      int end = from + s.end();
      // Citations that open a segment belong to the sentence before it ("… in 2019. [S2] The …").
      List<String> leading = new ArrayList<>();
      int p = start;
      for (Marker m = nextMarker(text, p, end); m != null && onlySpace(text, p, m.start()); m = nextMarker(text, p, end)) {
        leading.addAll(m.ids());
        p = m.end();
      }
      if (!leading.isEmpty() && out.size() > firstOfUnit) {
        Claim prev = out.get(out.size() - 1);
        LinkedHashSet<String> merged = new LinkedHashSet<>(prev.citations());
        merged.addAll(leading);
        out.set(out.size() - 1, new Claim(prev.text(), List.copyOf(merged), prev.start(), p));
        start = skipSpace(text, p, end);
        if (start >= end) continue;
      }
      LinkedHashSet<String> cites = new LinkedHashSet<>();
      StringBuilder clean = new StringBuilder();
      int last = start;
      for (Marker m = nextMarker(text, start, end); m != null; m = nextMarker(text, last, end)) {
        clean.append(text, last, m.start()); // "[sic]" and other bracketed words stay in the text
        cites.addAll(m.ids());
        last = m.end();
      }
      clean.append(text, last, end);
      String claimText = tidy(clean.toString());
      if (claimText.isEmpty()) {
        if (!cites.isEmpty() && out.size() > firstOfUnit) {
          Claim prev = out.get(out.size() - 1);
          LinkedHashSet<String> merged = new LinkedHashSet<>(prev.citations());
          merged.addAll(cites);
          out.set(out.size() - 1, new Claim(prev.text(), List.copyOf(merged), prev.start(), end));
        }
        continue;
      }
      if (cites.isEmpty()) {
        if (isAbstention(claimText)) {
          abstained = true;
          continue;
        }
        if (!factual(claimText)) continue;
      }
      out.add(new Claim(claimText, List.copyOf(cites), start, end));
    }
    return abstained;
  }

  /** The IDs of a marker's content, or empty when it is not a list of IDs. */
  private static List<String> ids(String content) {
    List<String> out = new ArrayList<>();
    for (String id : ID_SPLIT.split(content.strip())) {
      if (id.isEmpty()) continue;
      if (id.length() > MAX_ID) return List.of();
      boolean digit = false;
      for (int i = 0; i < id.length(); i++) {
        char c = id.charAt(i);
        if (!(Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == ':' || c == '#' || c == '/' || c == '-')) {
          return List.of();
        }
        digit |= Character.isDigit(c);
      }
      // Every ID must hold a digit: otherwise it is a bracketed word, kept in the text.
      if (!digit) return List.of();
      out.add(id);
    }
    return out;
  }

  /** Text without marker leftovers: runs of white space as one space, no space before punctuation. */
  static String tidy(String s) {
    String t = s.replaceAll("\\s+", " ").replaceAll(" ([.,;:!?])", "$1").strip();
    return t;
  }

  private static boolean onlySpace(String text, int from, int to) {
    for (int i = from; i < to; i++) if (!Character.isWhitespace(text.charAt(i))) return false;
    return true;
  }

  private static int skipSpace(String text, int from, int to) {
    while (from < to && Character.isWhitespace(text.charAt(from))) from++;
    return from;
  }

  /** True when {@code sentence} states something: not a question, lead-in, courtesy or a few words about the answer. */
  static boolean factual(String sentence) {
    String t = sentence.strip();
    if (t.endsWith("?") || t.endsWith(":")) return false;
    int[] content = {0};
    boolean[] digit = {false};
    Terms.scan(t, (term, start) -> {
      String w = term.toString();
      if (Character.isDigit(w.charAt(0))) digit[0] = true;
      if (!Terms.STOP_WORDS.contains(w) && !META.contains(w)) content[0]++;
    });
    return content[0] >= 2 || (digit[0] && content[0] >= 1);
  }

  /** True when {@code sentence} declines to answer, in Portuguese or English. */
  public static boolean isAbstention(String sentence) {
    String f = " " + foldPhrase(sentence) + " ";
    for (String a : ABSTENTIONS) if (f.contains(a)) return true;
    return false;
  }

  private static String foldPhrase(String s) {
    StringBuilder sb = new StringBuilder();
    // apostrophes kept so "don't" matches; accents and case folded
    for (String w : s.replace('’', '\'').split("\\s+")) {
      String core = w.replaceAll("[^\\p{L}\\p{N}']", "");
      if (core.isEmpty()) continue;
      if (sb.length() > 0) sb.append(' ');
      sb.append(VerifyText.fold(core));
    }
    return sb.toString();
  }


  private static List<String> termsOf(List<String> words) {
    List<String> out = new ArrayList<>();
    for (String w : words) out.add(Terms.fold(w));
    return out;
  }

  private static List<String> fold(List<String> phrases) {
    List<String> out = new ArrayList<>();
    for (String p : phrases) out.add(foldPhrase(p));
    return out;
  }
}
