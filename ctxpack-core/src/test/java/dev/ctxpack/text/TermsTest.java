package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TermsTest {
  @Test
  void termsAreFoldedAndLoseTheirPluralS() {
    List<String> terms = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    Terms.scan("As Células e os cells, a class; Ação!", (t, at) -> {
      terms.add(t.toString());
      starts.add(at);
    });
    assertThat(terms).containsExactly("as", "celula", "os", "cell", "class", "acao");
    assertThat(starts).containsExactly(0, 3, 13, 16, 25, 32);
  }

  /**
   * A table finds a term {@link Terms#scan} hands over exactly as it finds the same term written as
   * a String: same index, or -1 for both, on random English and Portuguese words with accents,
   * plurals, digits and upper case.
   */
  @Test
  void aTableFindsAScannedTermAsItFindsItsString() {
    Random random = new Random(7);
    String[] parts = {"cel", "ula", "s", "ção", "AÇÃO", "class", "ss", "us", "is", "x", "9", "ré", "Ü", "ñ", "o", "a", "en"};
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 60; i++) keys.add(Terms.fold(word(random, parts)));
    keys.removeIf(String::isEmpty);
    Terms.Table table = new Terms.Table(keys);
    int found = 0;
    int missed = 0;
    for (int i = 0; i < 3_000; i++) {
      StringBuilder text = new StringBuilder();
      for (int w = 0; w < 1 + random.nextInt(6); w++) text.append(word(random, parts)).append(random.nextBoolean() ? " " : ", ");
      List<int[]> pairs = new ArrayList<>();
      Terms.scan(text.toString(), (t, at) -> {
        int direct = table.get(t);
        int viaString = table.get(t.toString());
        int viaBuilder = table.get(new StringBuilder(t));
        pairs.add(new int[] {direct, viaString, viaBuilder});
        assertThat(table.contains(t)).isEqualTo(viaString >= 0);
        assertThat(t.length()).isEqualTo(t.toString().length());
        if (t.length() > 1) assertThat(t.subSequence(1, t.length()).toString()).isEqualTo(t.toString().substring(1));
      });
      for (int[] p : pairs) {
        assertThat(p[0]).isEqualTo(p[1]).isEqualTo(p[2]);
        if (p[0] >= 0) found++;
        else missed++;
      }
    }
    assertThat(found).as("terms found").isGreaterThan(500);
    assertThat(missed).as("terms not in the table").isGreaterThan(500);
  }

  /** A region of a string (or of any character sequence) is found as its substring is, and never by a prefix or an extension of it. */
  @Test
  void aTableFindsARegionAsItFindsTheSubstring() {
    Terms.Table table = new Terms.Table(List.of("ignore", "ignor", "previous", "a", "instructions"));
    Random random = new Random(5);
    String[] parts = {"ignore", "ignor", "e", "previous", "a", " ", "instructions", "x", "ign"};
    int found = 0;
    for (int i = 0; i < 5_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = 1 + random.nextInt(6); k > 0; k--) sb.append(parts[random.nextInt(parts.length)]);
      String s = sb.toString();
      int from = random.nextInt(s.length() + 1);
      int to = from + random.nextInt(s.length() - from + 1);
      int expected = table.get(s.substring(from, to));
      assertThat(table.get(s, from, to)).as(s + " [" + from + ", " + to + ")").isEqualTo(expected);
      assertThat(table.get(new StringBuilder(s), from, to)).as("as a CharSequence").isEqualTo(expected);
      if (expected >= 0) found++;
    }
    assertThat(found).isGreaterThan(100);
  }

  @Test
  void aScannedTermIsReadOnlyWithinItsLength() {
    Terms.scan("abc", (t, at) -> assertThatThrownBy(() -> t.charAt(3)).isInstanceOf(IndexOutOfBoundsException.class));
  }

  private static String word(Random random, String[] parts) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 1 + random.nextInt(3); i++) sb.append(parts[random.nextInt(parts.length)]);
    return sb.toString();
  }
}
