package dev.ctxpack.compress;

import java.util.Locale;
import java.util.Set;

/**
 * Whether a sentence leans on the one before it: it opens with a pronoun, demonstrative or
 * connective ("He", "This", "However", "Além disso", "Essa") or in lower case (a continuation).
 * Kept alone, such a sentence loses its subject; the compressor keeps its predecessor with it.
 */
final class Dependence {
  private static final Set<String> FIRST_WORDS = Set.of(
      // English
      "he", "she", "it", "they", "this", "these", "those", "that", "his", "her", "its", "their", "him", "them",
      "such", "however", "but", "therefore", "thus", "also", "moreover", "furthermore", "additionally", "instead",
      "meanwhile", "hence", "consequently", "nevertheless", "nonetheless", "likewise", "similarly", "otherwise",
      "yet", "still", "besides", "accordingly", "then", "both", "neither", "either", "another",
      "later", "afterwards", "afterward",
      // Portuguese
      "ele", "ela", "eles", "elas", "isso", "isto", "este", "esta", "esse", "essa", "estes", "estas", "esses",
      "essas", "aquele", "aquela", "aqueles", "aquelas", "aquilo", "seu", "sua", "seus", "suas", "dele", "dela",
      "deles", "delas", "porém", "contudo", "entretanto", "todavia", "mas", "portanto", "assim", "logo", "também",
      "então", "ainda", "consequentemente", "nesse", "nessa", "neste", "nesta", "nisso", "nisto", "naquele",
      "naquela", "desse", "dessa", "deste", "desta", "disso", "disto", "lá", "ali", "aí", "ambos", "ambas",
      "posteriormente", "depois");
  private static final String[] PHRASES = {
      "in addition", "as a result", "for example", "for instance", "in contrast", "on the other hand",
      "because of this", "in this case", "at the same time", "além disso", "no entanto", "por isso", "dessa forma",
      "desse modo", "deste modo", "por exemplo", "por outro lado", "em contrapartida", "com isso", "nesse caso",
      "ao mesmo tempo", "por essa razão"};

  private Dependence() {}

  static boolean leansOnPrevious(String sentence) {
    String s = sentence.stripLeading();
    if (s.isEmpty()) return false;
    int i = 0;
    while (i < s.length() && !Character.isLetterOrDigit(s.charAt(i))) i++;
    if (i == s.length()) return false;
    if (Character.isLowerCase(s.charAt(i))) return true;
    int j = i;
    while (j < s.length() && Character.isLetter(s.charAt(j))) j++;
    String first = s.substring(i, j).toLowerCase(Locale.ROOT);
    if (FIRST_WORDS.contains(first)) return true;
    String head = s.substring(i, Math.min(s.length(), i + 24)).toLowerCase(Locale.ROOT);
    for (String p : PHRASES) {
      if (head.startsWith(p) && (head.length() == p.length() || !Character.isLetter(head.charAt(p.length())))) return true;
    }
    return false;
  }
}
