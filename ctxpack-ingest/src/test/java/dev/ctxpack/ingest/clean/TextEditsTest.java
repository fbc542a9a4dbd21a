package dev.ctxpack.ingest.clean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.ingest.clean.TextEdits.Edit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class TextEditsTest {
  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.strings().withChars("ab \n\u00e9\u0301xyz.").ofMinLength(0).ofMaxLength(80);
  }

  /** Random non-overlapping edits of {@code text}, removals only or with replacements. */
  static TextEdits randomEdits(String text, long seed, boolean removalsOnly) {
    Random r = new Random(seed);
    List<Edit> edits = new ArrayList<>();
    int pos = 0;
    while (pos < text.length()) {
      pos += r.nextInt(6);
      if (pos >= text.length()) break;
      int end = Math.min(text.length(), pos + 1 + r.nextInt(5));
      String rep = removalsOnly || r.nextBoolean() ? "" : "R".repeat(r.nextInt(3));
      edits.add(new Edit(pos, end, rep, Reason.REGEX));
      pos = end;
    }
    return TextEdits.of(edits);
  }

  @Property(tries = 400)
  void aMappedOffsetPointsAtTheSameCharacterOrTheNextKeptOne(@ForAll("texts") String text, @ForAll long seed) {
    TextEdits edits = randomEdits(text, seed, true);
    String out = edits.apply(text);
    boolean[] removed = new boolean[text.length()];
    for (Edit e : edits.edits()) for (int i = e.start(); i < e.end(); i++) removed[i] = true;
    for (int o = 0; o <= text.length(); o++) {
      int next = o;
      while (next < text.length() && removed[next]) next++;
      int kept = 0;
      for (int i = 0; i < next; i++) if (!removed[i]) kept++;
      int mapped = edits.map(o);
      assertThat(mapped).as("offset %d of %s", o, edits.edits()).isEqualTo(kept);
      if (next < text.length()) assertThat(out.charAt(mapped)).isEqualTo(text.charAt(next));
      else assertThat(mapped).isEqualTo(out.length());
    }
  }

  @Property(tries = 400)
  void editsOfTheEditedTextComposeIntoEditsOfTheSource(@ForAll("texts") String text, @ForAll long seed,
      @ForAll boolean removalsOnly) {
    TextEdits first = randomEdits(text, seed, removalsOnly);
    String middle = first.apply(text);
    TextEdits second = randomEdits(middle, seed * 31 + 7, removalsOnly);
    TextEdits both = first.then(second, middle);
    assertThat(both.apply(text)).isEqualTo(second.apply(middle));
    // Mapping through the composition never goes backwards and stays inside the result.
    int previous = 0;
    for (int o = 0; o <= text.length(); o++) {
      int m = both.map(o);
      assertThat(m).isBetween(previous, second.apply(middle).length());
      previous = m;
    }
    if (removalsOnly) {
      // Removals of removals: an offset lands where mapping twice puts it.
      for (int o = 0; o <= text.length(); o++) assertThat(both.map(o)).isEqualTo(second.map(first.map(o)));
    }
  }

  @Test
  void anEditCuttingIntoAReplacementTakesTheWholeReplacement() {
    String source = "abcXdef";
    TextEdits first = TextEdits.of(List.of(new Edit(3, 4, "YYY", Reason.UNICODE)));
    String middle = first.apply(source);
    assertThat(middle).isEqualTo("abcYYYdef");
    TextEdits second = TextEdits.of(List.of(new Edit(4, 7, "", Reason.REGEX)));
    TextEdits both = first.then(second, middle);
    assertThat(both.apply(source)).isEqualTo("abcYef");
    assertThat(both.edits()).containsExactly(new Edit(3, 5, "Y", Reason.REGEX));
  }

  @Test
  void overlappingEditsAreRefused() {
    assertThatThrownBy(() -> TextEdits.of(List.of(new Edit(0, 3, "", Reason.REGEX), new Edit(2, 4, "", Reason.REGEX))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
  }
}
