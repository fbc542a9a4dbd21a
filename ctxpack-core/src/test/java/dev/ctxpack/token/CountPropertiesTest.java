package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.ctxpack.testing.RandomText;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link JTokkitTokenizer#count} sums remembered segment counts: it must give exactly the number
 * JTokkit gives for the whole text, on awkward text (English and Portuguese words, CJK, emoji,
 * surrogate pairs, CRLF, long words with no space) and twice in a row (the second time from the
 * remembered segments).
 */
class CountPropertiesTest {
  private static final Encoding O200K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
  private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(RandomText.text(80), RandomText.textWithLongWords(20));
  }

  @Property(tries = 600)
  void countIsJTokkitsCountOfTheWholeText(@ForAll("texts") String text, @ForAll boolean o200k) {
    Tokenizer t = Tokenizers.byName(o200k ? "o200k_base" : "cl100k_base");
    int expected = (o200k ? O200K : CL100K).countTokensOrdinary(text);
    assertThat(t.count(text)).as("first count").isEqualTo(expected);
    assertThat(t.count(text)).as("second count, from remembered segments").isEqualTo(expected);
    // another String with the same content, and a text one character longer: each JTokkit's count
    assertThat(t.count(new String(text.toCharArray()))).as("an equal text").isEqualTo(expected);
    // a text that differs in one character at its end is counted on its own, not taken for the first
    String longer = text + "x";
    assertThat(t.count(longer)).as("a longer text").isEqualTo((o200k ? O200K : CL100K).countTokensOrdinary(longer));
  }

  @Test
  void wordsSplitAtEveryLetterSpaceBoundaryStillCountAsAWhole() {
    String pt = "A renovação da matrícula é feita no início de cada semestre, não é? Contrações: it's, they'll.";
    Tokenizer t = Tokenizers.byName("o200k_base");
    assertThat(t.count(pt)).isEqualTo(O200K.countTokensOrdinary(pt));
    assertThat(t.count(pt + pt)).isEqualTo(O200K.countTokensOrdinary(pt + pt));
    assertThat(t.count("word  \n\n  next")).isEqualTo(O200K.countTokensOrdinary("word  \n\n  next"));
  }

  /**
   * A segment counted once is found again by its hash, computed as the text is read (the remembered
   * map is probed without a substring): counting the same texts again encodes nothing.
   */
  @Property(tries = 200)
  void aTextCountedAgainIsReadFromRememberedSegmentsOnly(@ForAll("texts") String text) {
    JTokkitTokenizer t = JTokkitTokenizer.of(EncodingType.O200K_BASE);
    int first = t.count(text);
    long encoded = t.encodedSegments();
    assertThat(t.count(new String(text.toCharArray()))).isEqualTo(first);
    long longSegments = java.util.Arrays.stream(text.split(" ")).filter(w -> w.length() > 40).count();
    if (longSegments == 0) assertThat(t.encodedSegments()).as("segments encoded again").isEqualTo(encoded);
  }

  @Test
  void aRepeatedProseTextEncodesNoSegmentTwice() {
    JTokkitTokenizer t = JTokkitTokenizer.of(EncodingType.O200K_BASE);
    String text = "The cells of the liver respond to insulin. As células do fígado respondem à insulina, 42 vezes.";
    t.count(text);
    long encoded = t.encodedSegments();
    assertThat(encoded).isPositive();
    t.count(text);
    t.count(" respond to insulin. As células"); // segments of the text above, each with its leading space
    assertThat(t.encodedSegments()).isEqualTo(encoded);
  }
}
