package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The verifier's word cutting, compiled once, cuts exactly as its regular-expression definition does. */
class VerifyTextTest {
  /** The definition: split at anything but letters, digits, {@code . , %}; cut edge points; fold. */
  private static List<String> byDefinition(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.split("[^\\p{L}\\p{N}.,%]+")) {
      String t = w.replaceAll("^[.,]+|[.,]+$", "");
      if (!t.isEmpty()) out.add(java.text.Normalizer.normalize(t.toLowerCase(java.util.Locale.ROOT),
          java.text.Normalizer.Form.NFKD).replaceAll("\\p{M}", ""));
    }
    return out;
  }

  @Test
  void wordsAreCutAsTheirDefinitionSays() {
    assertThat(VerifyText.wordsOf("The Rhine is about 1,230 km long, ... and 30% of it, Não é. ,.,"))
        .containsExactly("the", "rhine", "is", "about", "1,230", "km", "long", "and", "30%", "of", "it", "nao", "e");
    String alphabet = "aZé ÇãÑ09.,%-–—\n\t '\"()[]…?!/\u00a0\u0301\u4e2d\ud83d\ude00";
    Random r = new Random(7);
    for (int n = 0; n < 5000; n++) {
      StringBuilder sb = new StringBuilder();
      int len = r.nextInt(40);
      for (int i = 0; i < len; i++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
      String text = sb.toString();
      assertThat(VerifyText.wordsOf(text)).as(text).isEqualTo(byDefinition(text));
    }
  }
}
