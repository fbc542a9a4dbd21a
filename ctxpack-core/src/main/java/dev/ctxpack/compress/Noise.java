package dev.ctxpack.compress;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Flags sentences that are page furniture rather than content, in Portuguese and English:
 * navigation and interface text, ads, metadata lines, cookie and legal boilerplate. Conservative by
 * design: a flagged sentence is dropped whatever the query, so every rule asks for a telling phrase
 * and a short sentence (real prose that mentions cookies or copyright is long and stays). Stateless
 * and thread-safe.
 */
public final class Noise {
  /** Longer sentences are content, whatever they mention. */
  private static final int MAX_WORDS = 30;
  private static final int MAX_NAV_WORDS = 12;

  private static final Pattern BOILERPLATE = Pattern.compile(
      "(?iu)\\b(we use cookies|this (web)?site uses cookies|usamos cookies|utilizamos cookies|este site (usa|utiliza) cookies"
          + "|accept (all )?cookies|aceitar (todos os )?cookies|cookie (policy|settings|preferences)|pol[ií]tica de cookies"
          + "|privacy policy|pol[ií]tica de privacidade|terms (of (use|service)|and conditions)|termos (de uso|e condi[cç][õo]es)"
          + "|all rights reserved|todos os direitos reservados|subscribe to (our|the) newsletter|assine (a|nossa) newsletter"
          + "|inscreva-se (na|em nossa) newsletter|sign up for (our|the) newsletter)\\b|©|\\(c\\) ?(19|20)\\d\\d");
  private static final Pattern ADS = Pattern.compile(
      "(?iu)^(advertisement|sponsored|promoted|publicidade|an[úu]ncio|patrocinado)\\b"
          + "|\\b(buy now|shop now|order now|compre (j[áa]|agora)|free shipping|frete gr[áa]tis|limited[- ]time offer"
          + "|oferta (imperd[íi]vel|por tempo limitado)|use (the )?(promo|coupon) code|use o cupom|\\d+% (off|de desconto))\\b");
  /** Metadata lines, by how they open (matched with {@code lookingAt}). */
  private static final Pattern METADATA = Pattern.compile(
      "(?iu)(posted|published|updated|last updated|publicado|atualizado|postado)( (on|em|by|por|at|[àa]s))?:?\\s+(\\d|(?-i:\\p{Lu}))"
          + "|(by|por) (?-i:\\p{Lu})[\\p{L}.'-]+( (?-i:\\p{Lu})[\\p{L}.'-]+){0,3}\\s*([|•·,-]|$)"
          + "|(leitura|reading time)\\b"
          + "|(tags|categories|category|categorias|categoria|filed under|arquivado em|marcadores)\\s*:"
          + "|(share|compartilhe|compartilhar)( (this|on|no|isto|esta))?\\b|\\d+ (comments?|coment[áa]rios?|likes?|curtidas?|shares?)\\b");
  /** A reading time anywhere in the line ("5 min read", "3 minutos de leitura"). */
  private static final Pattern READING_TIME = Pattern.compile(
      "(?iu)\\b\\d+ ?(min(ute)?s? read|min de leitura|minutos de leitura)\\b");
  private static final Pattern NAV_WORDS = Pattern.compile(
      "(?iu)^(home|in[íi]cio|p[áa]gina inicial|menu|main menu|menu principal|log ?in|log ?out|sign ?in|sign ?up|sair|entrar"
          + "|register|cadastr(e-se|ar)|search|buscar|pesquisar|skip to (main )?content|ir para o conte[úu]do|pular para o conte[úu]do"
          + "|next|previous|anterior|pr[óo]ximo|back to top|voltar ao topo|voltar|back|contact( us)?|contato|fale conosco|about( us)?"
          + "|sobre( n[óo]s)?|faq|help|ajuda|my account|minha conta|cart|carrinho|read more|leia mais|saiba mais|learn more"
          + "|click here|clique aqui|see more|ver mais|show more|mostrar mais|close|fechar|open menu|abrir menu|print|imprimir"
          + "|download|baixar|reply|responder|cancel|cancelar)$");
  /** A word each {@link #BOILERPLATE} alternative holds (lower case). */
  private static final String[] BOILERPLATE_WORDS = {
      "cookie", "privacy", "privacidade", "terms", "termos", "rights", "direitos", "newsletter", "©", "(c"};
  /** A word each {@link #ADS} alternative holds (lower case). */
  private static final String[] AD_WORDS = {
      "advert", "sponsor", "promot", "publicidade", "anúncio", "anuncio", "patrocin", " now", "compre", "shipping",
      "frete", "offer", "oferta", "code", "cupom", "% "};
  private static final Pattern SEPARATORS = Pattern.compile("\\s[|›»>/•·]\\s");

  /** The kind of noise {@code sentence} is, or {@code null} for content. */
  public DropReason classify(String sentence) {
    String s = sentence.strip();
    if (s.isEmpty()) return null;
    int words = words(s);
    if (words > MAX_WORDS) return null;
    // The searching patterns run only where one of their words occurs: most sentences have none.
    String lower = s.toLowerCase(Locale.ROOT);
    if (mentions(lower, BOILERPLATE_WORDS) && BOILERPLATE.matcher(s).find()) return DropReason.BOILERPLATE;
    if (mentions(lower, AD_WORDS) && ADS.matcher(s).find()) return DropReason.ADS;
    if (METADATA.matcher(s).lookingAt()) return DropReason.METADATA;
    if ((lower.contains("read") || lower.contains("leitura")) && READING_TIME.matcher(s).find()) return DropReason.METADATA;
    if (words <= MAX_NAV_WORDS && navigation(s)) return DropReason.NAVIGATION;
    return null;
  }

  // Compiled once: navigation() runs on every short sentence of every request. The two marks
  // patterns are the definition of bare(), which reads them character by character (NoiseTest).
  static final Pattern TRAILING_MARKS = Pattern.compile("[\\s.:!»›>…→←]+$");
  static final Pattern LEADING_MARKS = Pattern.compile("^[«‹<←\\s]+");
  private static final Pattern SENTENCE_INSIDE = Pattern.compile(".*[a-z][.;] .*");

  /** A line of menu items ("Home | News | Contact") or a single interface label ("Read more"). */
  private static boolean navigation(String s) {
    if (NAV_WORDS.matcher(bare(s)).matches()) return true;
    if (!hasSeparatorMark(s)) return false; // no separator can be found: most sentences
    var m = SEPARATORS.matcher(" " + s + " ");
    int separators = 0;
    while (m.find()) separators++;
    if (separators < 2) return false;
    // Breadcrumbs and menus: several short items and no sentence punctuation inside.
    String[] items = SEPARATORS.split(s);
    int shortItems = 0;
    for (String item : items) if (words(item) <= 3) shortItems++;
    return shortItems * 4 >= items.length * 3 && !SENTENCE_INSIDE.matcher(s.toLowerCase(Locale.ROOT)).matches();
  }

  /**
   * {@code s} without its trailing and leading marks: {@link #LEADING_MARKS} replaced in {@link
   * #TRAILING_MARKS} replaced in {@code s}, both with nothing, read character by character. A pattern's
   * {@code $} also matches before a final line terminator, so trailing marks before one that is not
   * itself a mark go too.
   */
  static String bare(String s) {
    int end = s.length();
    int stop = end > 0 && isLineTerminator(s.charAt(end - 1)) && !trailingMark(s.charAt(end - 1)) ? end - 1 : end;
    int cut = stop;
    while (cut > 0 && trailingMark(s.charAt(cut - 1))) cut--;
    String t = cut == stop ? s : s.substring(0, cut) + s.substring(stop);
    int start = 0;
    while (start < t.length() && leadingMark(t.charAt(start))) start++;
    return start == 0 ? t : t.substring(start);
  }

  /** {@code [\s.:!»›>…→←]}, as {@link #TRAILING_MARKS} reads it. */
  private static boolean trailingMark(char c) {
    return regexSpace(c) || ".:!»›>…→←".indexOf(c) >= 0;
  }

  /** {@code [«‹<←\s]}, as {@link #LEADING_MARKS} reads it. */
  private static boolean leadingMark(char c) {
    return regexSpace(c) || "«‹<←".indexOf(c) >= 0;
  }

  /** {@code \s} of a pattern without {@code UNICODE_CHARACTER_CLASS}: {@code [ \t\n\x0B\f\r]}. */
  private static boolean regexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  /** A line terminator as a pattern's {@code $} knows them. */
  private static boolean isLineTerminator(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }

  /** Whether {@code s} holds a character {@link #SEPARATORS} needs between its spaces. */
  private static boolean hasSeparatorMark(String s) {
    for (int i = 0; i < s.length(); i++) if ("|›»>/•·".indexOf(s.charAt(i)) >= 0) return true;
    return false;
  }

  private static boolean mentions(String lower, String[] words) {
    for (String w : words) if (lower.contains(w)) return true;
    return false;
  }

  private static int words(String s) {
    int n = 0;
    boolean in = false;
    for (int i = 0; i < s.length(); i++) {
      boolean w = !Character.isWhitespace(s.charAt(i));
      if (w && !in) n++;
      in = w;
    }
    return n;
  }
}
