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
      for (int shingle : new int[] {1, 3}) {
        assertThat(Words.shingleHashesOfFolded(text, shingle)).as("%s, %d", text, shingle).isEqualTo(definition(text, shingle));
      }
    }
  }

  /** The shingle hashing as first written: code points, {@link Character#isLetterOrDigit(int)} for every one. */
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
      long sh = 0x9E3779B97F4A7C15L;
      for (int b = a; b < Math.min(count, a + k); b++) sh = mix(sh * 31 + words[b]);
      out[a] = sh;
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
