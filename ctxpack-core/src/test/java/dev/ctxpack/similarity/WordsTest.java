package dev.ctxpack.similarity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class WordsTest {
  /** The shingle hashes equal those of the definition (every character through the character tables), on mixed-script text. */
  @Test
  void shingleHashesAreTheDefinitionsOnAnyText() {
    String[] parts = {"cell", "Células", "ação", "A1", " ", "  ", "-", ".", "e\u0301", "日本", "𝐀𝐁", "ß", "x_y", "\t", "Ω", "٣", "n\u0303o"};
    Random random = new Random(5);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(30); k > 0; k--) sb.append(parts[random.nextInt(parts.length)]);
      String text = sb.toString();
      for (int shingle : new int[] {1, 3, 5}) {
        assertThat(Words.shingleHashesOfFolded(text, shingle)).as("%s, %d", text, shingle).isEqualTo(definition(text, shingle));
      }
    }
  }

  /**
   * The Jaccard of two texts' shingle hashes is the Jaccard of their word sequences themselves (no two
   * different sequences share a hash), on random texts over a small vocabulary, so that shingles
   * repeat within and across texts.
   */
  @Test
  void shingleJaccardIsTheJaccardOfTheWordSequences() {
    String[] vocabulary = {"cell", "células", "ação", "gene", "protein", "a", "de", "the", "of", "tumor", "risco", "dose"};
    Random random = new Random(11);
    for (int i = 0; i < 3_000; i++) {
      String a = randomText(random, vocabulary);
      String b = random.nextInt(4) == 0 ? a + " " + randomText(random, vocabulary) : randomText(random, vocabulary);
      for (int k : new int[] {2, 5}) {
        java.util.Set<java.util.List<String>> x = sequences(a, k);
        java.util.Set<java.util.List<String>> y = sequences(b, k);
        java.util.Set<java.util.List<String>> both = new java.util.HashSet<>(x);
        both.retainAll(y);
        double expected = x.isEmpty() && y.isEmpty() ? 1 : both.size() / (double) (x.size() + y.size() - both.size());
        assertThat(Words.shingleJaccard(a, b, k)).as("%s | %s, %d", a, b, k).isEqualTo(expected);
        assertThat(Words.shingleHashes(a, k)).hasSize(x.size());
      }
    }
  }

  private static String randomText(Random random, String[] vocabulary) {
    StringBuilder sb = new StringBuilder();
    for (int w = 1 + random.nextInt(40); w > 0; w--) sb.append(vocabulary[random.nextInt(vocabulary.length)]).append(' ');
    return sb.toString().trim();
  }

  /** The distinct runs of {@code k} words (the whole text when shorter), as the near level defines shingles. */
  private static java.util.Set<java.util.List<String>> sequences(String text, int k) {
    java.util.List<String> words = Words.of(dev.ctxpack.text.TextNormalizer.fold(text));
    java.util.Set<java.util.List<String>> out = new java.util.HashSet<>();
    if (words.isEmpty()) return out;
    for (int a = 0; a < Math.max(1, words.size() - k + 1); a++) out.add(words.subList(a, Math.min(words.size(), a + k)));
    return out;
  }

  /**
   * The shingle hashing by its definition: code points, {@link Character#isLetterOrDigit(int)} for
   * every one, and each shingle's polynomial summed from its words.
   */
  private static long[] definition(String n, int k) {
    long[] words = new long[Math.max(4, n.length() / 4)];
    int count = 0;
    int i = 0;
    int len = n.length();
    while (i < len) {
      int cp = n.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        long h = 0x2545F4914F6CDD1DL;
        while (i < len) {
          int c = n.codePointAt(i);
          if (!Character.isLetterOrDigit(c) && Character.getType(c) != Character.NON_SPACING_MARK) break;
          h = (h ^ c) * 0x100000001B3L;
          i += Character.charCount(c);
        }
        if (count == words.length) words = java.util.Arrays.copyOf(words, count * 2);
        words[count++] = mix(h);
      } else {
        i += Character.charCount(cp);
      }
    }
    if (count == 0) return new long[0];
    int n2 = Math.max(1, count - k + 1);
    long[] out = new long[n2];
    for (int a = 0; a < n2; a++) {
      // The words' hashes as a polynomial in the base, highest power first, computed afresh for each shingle.
      int last = Math.min(count, a + k) - 1;
      long poly = 0;
      for (int b = a; b <= last; b++) {
        long power = 1;
        for (int e = 0; e < last - b; e++) power *= 0x9E3779B97F4A7C15L;
        poly += words[b] * power;
      }
      out[a] = mix(poly);
    }
    java.util.Arrays.sort(out);
    int u = 0;
    for (int a = 0; a < out.length; a++) if (a == 0 || out[a] != out[a - 1]) out[u++] = out[a];
    return java.util.Arrays.copyOf(out, u);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
