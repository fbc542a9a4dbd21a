package dev.ctxpack.text;

import dev.ctxpack.model.Language;
import java.util.Locale;
import java.util.Set;

/**
 * Tells Portuguese from English (and from neither) by the function words and letters each language
 * uses most. Function words carry the signal in short texts and are stable across domains, so a few
 * hundred characters are enough; texts with too little evidence are {@link Language#UNKNOWN}.
 *
 * <p>Each function word counts 1 for its language (words both languages use, such as {@code do},
 * {@code me} and {@code as}, count for both); spelling hints count less: Portuguese diacritics and
 * endings ({@code -ção}, {@code -mente}, past tenses in {@code -ou}/{@code -eu}/{@code -iu},
 * gerunds in {@code -ndo}), English {@code th}, {@code -ght}, {@code -ed}, {@code -ing}, {@code
 * -ly}. Unaccented Portuguese ({@code voce}, {@code nao}) is listed too, as chats and queries are
 * often typed without accents. Short questions ("Qual é a capital do Brasil?") carry enough
 * evidence; in a text of 3 to 12 words, one function word of one language with no sign of the other
 * is enough ("Quanto tempo dura a torra?"); a single word is not.
 *
 * <p>ctxpack interprets two languages; a general detector covering dozens of languages would cost
 * megabytes of profiles to answer a two-way question, which is why this one is small.
 */
public final class LanguageDetector {
  /** Function words settle the language within a few hundred words; more text adds cost, not accuracy. */
  public static final int SAMPLE_CHARS = 5_000;
  private static final Set<String> EN = Set.of(
      "the", "of", "and", "to", "in", "is", "that", "for", "it", "with", "as", "was", "on", "are",
      "be", "by", "this", "from", "at", "or", "an", "which", "were", "have", "has", "not", "but",
      "they", "their", "we", "these", "been", "than", "its", "can", "there", "what", "when", "who",
      "how", "does", "did", "would", "should", "could", "between", "into", "after", "also", "more",
      "other", "such", "only", "about", "many", "most", "some", "while", "where", "our", "both",
      "i", "you", "your", "my", "me", "he", "she", "his", "her", "him", "them", "us", "do", "don",
      "doesn", "didn", "isn", "aren", "wasn", "won", "cannot", "will", "why", "if", "so",
      "any", "all", "here", "then", "just", "had", "being", "because", "very", "out", "up", "those",
      "during", "still", "even", "again", "each", "every", "without", "before", "over", "through",
      "am", "haven", "anyone", "anything", "something", "please", "thanks", "last", "next", "let");
  private static final Set<String> PT = Set.of(
      "de", "que", "e", "o", "da", "do", "em", "um", "uma", "para", "é", "com", "não", "os", "no",
      "na", "se", "por", "mais", "as", "dos", "das", "como", "mas", "foi", "ao", "ele", "ela",
      "à", "seu", "sua", "ou", "ser", "quando", "muito", "nos", "já", "está", "também", "só",
      "pelo", "pela", "até", "isso", "entre", "depois", "sem", "mesmo", "aos", "seus", "quem",
      "nas", "esse", "eles", "essa", "num", "nem", "suas", "são", "qual", "onde", "foram", "pelos",
      "tem", "têm", "estão", "sobre", "porque", "há", "cada", "ainda", "anos", "desde", "este",
      "me", "eu", "você", "vocês", "nós", "meu", "minha", "meus", "minhas", "lhe", "dele", "dela",
      "esta", "isto", "aqui", "quais", "quanto", "quanta", "quantos", "quantas", "pode", "posso",
      "preciso", "quero", "quer", "fazer", "faço", "tenho", "estou", "vou", "vai", "era", "agora", "hoje", "ontem",
      "amanhã", "sempre", "nunca", "bem", "tudo", "nada", "todos", "todas", "outro", "outra",
      "às", "numa", "pelas", "deste", "desta", "neste", "nesta", "disso", "obrigado", "obrigada",
      "então", "pois", "assim", "qualquer", "alguém", "algum", "alguma", "deve", "vez", "coisa",
      // typed without accents
      "voce", "voces", "nao", "tambem", "estao", "sao", "ate", "ja", "entao", "faco", "amanha",
      "alguem", "ha");
  /** The function words, looked up in place in the text (no word is copied out of it). */
  private static final Terms.Table EN_TABLE = new Terms.Table(EN);
  private static final Terms.Table PT_TABLE = new Terms.Table(PT);
  private static final double MIN_EVIDENCE = 1.5;
  /** Up to this many words, one unambiguous function word decides (see {@link #detect}). */
  private static final int SHORT_WORDS = 12;

  /** Detects the language of {@code text}, reading at most its first {@value #SAMPLE_CHARS} characters. */
  public Language detect(String text) {
    double[] e = evidence(text);
    double en = e[0];
    double pt = e[1];
    int words = (int) e[2];
    if (Math.max(en, pt) < MIN_EVIDENCE) {
      // A short question with one function word of one language and no sign of the other ("Quanto
      // tempo dura a torra?") is that language; one word alone, or signs of both, are not enough.
      if (words >= 3 && words <= SHORT_WORDS && Math.min(en, pt) == 0 && Math.max(en, pt) >= 1) {
        return pt > 0 ? Language.PT : Language.EN;
      }
      return Language.UNKNOWN;
    }
    if (pt > en * 1.2) return Language.PT;
    if (en > pt * 1.2) return Language.EN;
    return Language.UNKNOWN;
  }

  /** {English evidence, Portuguese evidence, words} of the first {@value #SAMPLE_CHARS} characters of {@code text}. */
  static double[] evidence(String text) {
    String sample = text.length() > SAMPLE_CHARS ? text.substring(0, SAMPLE_CHARS) : text;
    double en = 0;
    double pt = 0;
    int words = 0;
    int start = -1;
    String lower = sample.toLowerCase(Locale.ROOT);
    for (int i = 0; i <= lower.length(); i++) {
      boolean letter = i < lower.length() && Character.isLetter(lower.charAt(i));
      if (letter && start < 0) start = i;
      if (!letter && start >= 0) {
        words++;
        boolean enWord = EN_TABLE.get(lower, start, i) >= 0;
        boolean ptWord = PT_TABLE.get(lower, start, i) >= 0;
        if (enWord) en += 1;
        if (ptWord) pt += 1;
        if (!enWord && !ptWord) {
          pt += portugueseHints(lower, start, i);
          en += englishHints(lower, start, i);
        }
        start = -1;
      }
    }
    return new double[] {en, pt, words};
  }

  /** The hints of the word {@code s[from, to)}. */
  private static double portugueseHints(String s, int from, int to) {
    double h = 0;
    for (int j = from; j < to; j++) {
      char c = s.charAt(j);
      if (c == 'ã' || c == 'õ' || c == 'ç' || c == 'ê' || c == 'â' || c == 'ô') h += 0.5;
      else if (c == 'á' || c == 'é' || c == 'í' || c == 'ó' || c == 'ú' || c == 'à') h += 0.25;
    }
    int n = to - from;
    if (ends(s, from, to, "ção") || ends(s, from, to, "ções") || ends(s, from, to, "mente") || ends(s, from, to, "ões")) h += 0.5;
    else if (n >= 5 && (ends(s, from, to, "ndo") || ends(s, from, to, "ico") || ends(s, from, to, "ica"))) h += 0.5;
    else if (n >= 5 && (ends(s, from, to, "ou") || ends(s, from, to, "eu") || ends(s, from, to, "iu"))) h += 0.5;
    return h;
  }

  private static double englishHints(String s, int from, int to) {
    double h = 0;
    int n = to - from;
    if (ends(s, from, to, "ght")) h += 0.5;
    else if (n >= 5 && ends(s, from, to, "ed")) h += 0.5;
    else if (ends(s, from, to, "ing") || ends(s, from, to, "tion") || ends(s, from, to, "ly")) h += 0.3;
    if (n >= 2 && (s.startsWith("th", from) || s.startsWith("wh", from))) h += 0.3;
    return h;
  }

  /** Whether the word {@code s[from, to)} ends with {@code suffix}. */
  private static boolean ends(String s, int from, int to, String suffix) {
    int n = suffix.length();
    return to - from >= n && s.startsWith(suffix, to - n);
  }
}
