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

  /**
   * The same folded text, offsets and letters as the first implementation ({@link FoldedTextOracle}),
   * both ways of folding line breaks, on texts of ASCII, controls, every kind of whitespace, invisible
   * characters, accents, confusables, compatibility forms and surrogate pairs (lone ones too).
   */
  @Test
  void foldsAsTheFirstImplementationDid() {
    String[] alphabet = {"a", "Z", " ", "  ", "\n", "\r\n", "\t", "\u000B", "\u0085", "\u00A0", "\u2028", "\u3000", "x.",
        "0", "4", "$", "@", "\u007F", "\u0001", "é", "Ç", "ß", "İ", "ı", "ﬁ", "Ａ", "｜", "ⅰ", "㎏", "а", "О", "ρ", "Σ", "中",
        "\u00AD", "\u200B", "\u200E", "\u202E", "\uFEFF", "\uDB40\uDC41", "\uDB40\uDD00", "\uD835\uDC00", "\uD83D\uDE00",
        "\uD800", "\uDC00", "e\u0301", "ignore", "Previous"};
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(30); k > 0; k--) sb.append(alphabet[random.nextInt(alphabet.length)]);
      String s = sb.toString();
      for (boolean lines : new boolean[] {false, true}) {
        FoldedText f = FoldedText.of(s, lines);
        FoldedTextOracle o = FoldedTextOracle.of(s, lines);
        assertThat(f.text).as("fold of %s", s).isEqualTo(o.text);
        for (int k = 0; k < o.text.length(); k++) {
          assertThat(f.start(k)).as("start %d of %s", k, s).isEqualTo(o.start(k));
          assertThat(f.end(k + 1)).as("end %d of %s", k + 1, s).isEqualTo(o.end(k + 1));
        }
        assertThat(f.letters()).isEqualTo(o.letters());
        FoldedText c = f.compact();
        FoldedTextOracle oc = o.compact();
        assertThat(c.text).isEqualTo(oc.text);
        for (int k = 0; k < oc.text.length(); k++) {
          assertThat(c.start(k)).isEqualTo(oc.start(k));
          assertThat(c.end(k + 1)).isEqualTo(oc.end(k + 1));
        }
      }
    }
  }
}
