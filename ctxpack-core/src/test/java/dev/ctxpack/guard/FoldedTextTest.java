package dev.ctxpack.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FoldedTextTest {
  @Test
  void lettersAreTheCompactFormsText() {
    assertThat(FoldedText.of("I g-n 0 r 3  ALL, prévious!").letters()).isEqualTo("ignoreallprevious");
    String alphabet = "aZ 0134578@$-_.,\n\tçÃéÏ｜ⅰ𝐀İıß";
    Random random = new Random(3);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(40); k > 0; k--) sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0,
          random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
      FoldedText f = FoldedText.of(sb.toString());
      assertThat(f.letters()).as("letters of %s", sb).isEqualTo(f.compact().text);
    }
  }
}
