package dev.ctxpack.text;

import dev.ctxpack.model.Language;
import java.util.Locale;
import java.util.Set;

/**
 * Sentence ends that carry no final punctuation, for {@link SentenceSegmenter}: a headline or byline
 * run into the lead that follows it ("Festival de Locarno começa hoje O festival…"), a separator
 * line ({@code ====}, {@code ----}), an emoticon, a letter's closing formula ("Regards, Ann"). Each
 * rule looks at the token before a run of whitespace and the words after it; none looks further than
 * the next two words, so the segmenter stays linear.
 *
 * <p>The headline rule: the next word is capitalised and one that is written with a capital only
 * at the start of a sentence (an article, pronoun, preposition, conjunction or sentence adverb of
 * the language: "O", "Os", "Pelo", "Este", "The", "He"…), the word after it is in lower case or a
 * number (so titles and names such as "O Globo", "The Economist", "Da Silva" stay whole), and the
 * token before ends in a letter or digit (closing quotes and brackets aside) and is not itself such
 * a word ("de", "of"). Trap: a lower-case sentence start after a title is not found ("Revised
 * Article 4.6 hello"), and a capitalised opener inside a title-cased name is split ("Gone With the
 * Wind" splits only where the word after is lower case: "With the").
 */
final class UnpunctuatedBoundaries {
  private UnpunctuatedBoundaries() {}

  /** Portuguese words capitalised mid-text only at a sentence start. */
  private static final Set<String> PORTUGUESE_OPENERS = Set.of(
      "o", "a", "os", "as", "um", "uma", "uns", "umas", "em", "no", "na", "nos", "nas", "num", "numa", "do", "da",
      "dos", "das", "ao", "aos", "à", "às", "pelo", "pela", "pelos", "pelas", "para", "por", "com", "sem", "sobre",
      "entre", "após", "este", "esta", "estes", "estas", "esse", "essa", "esses", "essas", "isso", "isto", "aquele",
      "aquela", "aquilo", "neste", "nesta", "nesse", "nessa", "ele", "ela", "eles", "elas", "eu", "nós", "já", "não",
      "mas", "se", "quando", "como", "onde", "também", "ainda", "depois", "antes", "além", "apesar", "segundo", "há",
      "foi", "é", "são", "era", "mais", "muito", "muitos", "cada", "todos", "todas", "outro", "outra", "outros",
      "outras", "dois", "duas", "três", "nem", "porém", "contudo", "assim", "então", "hoje", "ontem", "agora", "aqui",
      "só", "quem", "qual", "quais", "que", "seu", "sua", "seus", "suas", "nossa", "nosso");
  /** English words capitalised mid-text only at a sentence start ("I" and "A" are left out). */
  private static final Set<String> ENGLISH_OPENERS = Set.of(
      "the", "this", "that", "these", "those", "it", "its", "he", "she", "we", "they", "you", "there", "here", "in",
      "on", "at", "for", "but", "and", "or", "if", "when", "while", "after", "before", "as", "so", "my", "our", "your",
      "his", "her", "their", "what", "how", "why", "where", "who", "which", "some", "many", "most", "all", "no", "not",
      "please", "also", "then", "now", "today", "yesterday", "however", "although", "because", "since", "with",
      "from", "by", "to", "an", "is", "are", "was", "were", "do", "does", "did", "can", "will", "would", "should",
      "could", "have", "has", "had", "just", "any", "every", "each", "one", "two", "three");
  /** The longest opener, in characters ("apesar", "although", "yesterday"). */
  private static final int MAX_OPENER = 9;
  /** Openers that may also close a sentence (adverbs of time and place, negation). */
  private static final Set<String> MAY_END = Set.of(
      "hoje", "ontem", "agora", "aqui", "só", "também", "ainda", "depois", "antes", "mais", "assim", "então", "já",
      "não", "today", "yesterday", "now", "here", "there", "then", "also", "not", "no", "before", "after");
  /** Closing formulas of a letter: the name that follows the comma starts a new line in the original. */
  private static final Set<String> CLOSINGS = Set.of(
      "regards", "sincerely", "cheers", "atenciosamente", "cumprimentos", "abraços", "abraço", "saudações");

  /**
   * Whether a sentence ends at the whitespace between {@code tokenEnd} (just after the previous
   * token) and {@code next} (the first character after the whitespace), the token starting at or
   * after {@code sentenceStart}.
   */
  static boolean endsAt(String text, int sentenceStart, int tokenEnd, int next, Language language) {
    // cheap tests on the last character first: this runs after every word
    char last = text.charAt(tokenEnd - 1);
    char nc = text.charAt(next);
    if (nc >= 'a' && nc <= 'z' && ((last >= 'a' && last <= 'z') || (last >= '0' && last <= '9'))) return false; // most words
    boolean upper = Character.isUpperCase(nc);
    if (!upper && ((last >= 'a' && last <= 'z') || (last >= '0' && last <= '9'))) return false;
    if (Character.isLetterOrDigit(last)) {
      if (upper && opensSentence(text, sentenceStart, tokenEnd, next, language)) return true;
      return (last == 'P' || last == 'D') && emoticonEndingAt(text, sentenceStart, tokenEnd);
    }
    if ("-=*_~".indexOf(last) >= 0) {
      int ts = tokenStart(text, sentenceStart, tokenEnd);
      return separator(text, ts, tokenEnd) && (Character.isLetterOrDigit(nc) || nc == '"' || nc == '«' || nc == '“');
    }
    if (last == ',') return upper && CLOSINGS.contains(lettersBefore(text, tokenStart(text, sentenceStart, tokenEnd), tokenEnd - 1));
    if (emoticonEndingAt(text, sentenceStart, tokenEnd)) return true;
    return upper && SentenceSegmenter.isCloser(last) && opensSentence(text, sentenceStart, tokenEnd, next, language);
  }

  private static int tokenStart(String text, int sentenceStart, int tokenEnd) {
    int ts = tokenEnd;
    while (ts > sentenceStart && !SentenceSegmenter.isSpace(text.charAt(ts - 1))) ts--;
    return ts;
  }

  private static boolean opensSentence(String text, int sentenceStart, int tokenEnd, int next, Language language) {
    // the next word: capitalised letters only, at most 9 of them
    int n = text.length();
    int we = next + 1;
    while (we < n && we - next <= MAX_OPENER && Character.isLowerCase(text.charAt(we))) we++;
    if (we >= n || we - next > MAX_OPENER || !SentenceSegmenter.isSpace(text.charAt(we))) return false;
    // the word after it: lower case or a number
    int after = we;
    while (after < n && SentenceSegmenter.isSpace(text.charAt(after))) after++;
    if (after >= n) return false;
    char ac = text.charAt(after);
    if (!Character.isLowerCase(ac) && !Character.isDigit(ac)) return false;
    String word = text.substring(next, we).toLowerCase(Locale.ROOT);
    if (!isOpener(word, language)) return false;
    // the token before: a letter or digit last, closing quotes and brackets aside
    int ts = tokenStart(text, sentenceStart, tokenEnd);
    int e = tokenEnd;
    while (e > ts && SentenceSegmenter.isCloser(text.charAt(e - 1))) e--;
    if (e == ts || !Character.isLetterOrDigit(text.charAt(e - 1))) return false;
    // the word before is not a function word itself ("de O Globo", "of The"); adverbs may end a sentence
    int ws = e;
    while (ws > ts && Character.isLetter(text.charAt(ws - 1))) ws--;
    String before = text.substring(ws, e).toLowerCase(Locale.ROOT);
    return !isOpener(before, language) || MAY_END.contains(before);
  }

  private static boolean isOpener(String word, Language language) {
    return switch (language) {
      case PT -> PORTUGUESE_OPENERS.contains(word);
      case EN -> ENGLISH_OPENERS.contains(word);
      default -> !word.equals("a") && (PORTUGUESE_OPENERS.contains(word) || ENGLISH_OPENERS.contains(word));
    };
  }

  /**
   * A rule drawn in text: a token of two or more of one of {@code = * _ ~}, or four or more
   * {@code -}, and nothing else ("=====", "****", "----"). Shorter dash runs ("--", "---") are
   * dashes inside sentences ("Biotecnologia -- busca", "Folha -- Qual o segredo?").
   */
  private static boolean separator(String text, int ts, int te) {
    char c = text.charAt(ts);
    if (te - ts < (c == '-' ? 4 : 2)) return false;
    if ("-=*_~".indexOf(c) < 0) return false;
    for (int k = ts + 1; k < te; k++) if (text.charAt(k) != c) return false;
    return true;
  }

  /** {@code :) :-) ;) :( :-( :P :D} and their kin, as a token of their own ending at {@code te}. */
  private static boolean emoticonEndingAt(String text, int sentenceStart, int te) {
    char mouth = text.charAt(te - 1);
    if (te - sentenceStart < 2 || (mouth != ')' && mouth != '(' && mouth != 'P' && mouth != 'D' && mouth != ']')) return false;
    int k = te - 2;
    if (text.charAt(k) == '-') k--;
    if (k < sentenceStart || (text.charAt(k) != ':' && text.charAt(k) != ';')) return false;
    return k == sentenceStart || SentenceSegmenter.isSpace(text.charAt(k - 1));
  }

  /** The lower-cased letters just before {@code end} within the token. */
  private static String lettersBefore(String text, int ts, int end) {
    int s = end;
    while (s > ts && Character.isLetter(text.charAt(s - 1))) s--;
    return s == ts ? text.substring(s, end).toLowerCase(Locale.ROOT) : "";
  }
}
