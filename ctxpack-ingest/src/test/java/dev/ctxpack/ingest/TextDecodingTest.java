package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TextDecodingTest {
  private static final Charset CP1252 = Charset.forName("windows-1252");
  private static final String PT = "A informação sobre a ação judicial foi publicada às 10h; o coração da questão é a "
      + "indenização — R$ 5 mil.";

  @Test
  void byteOrderMarksDecideAndAreDropped() {
    byte[] utf8 = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "olá".getBytes(StandardCharsets.UTF_8));
    assertThat(TextDecoding.decode(utf8).text()).isEqualTo("olá");
    byte[] be = concat(new byte[] {(byte) 0xFE, (byte) 0xFF}, "olá".getBytes(StandardCharsets.UTF_16BE));
    assertThat(TextDecoding.decode(be).text()).isEqualTo("olá");
    byte[] le = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "olá".getBytes(StandardCharsets.UTF_16LE));
    assertThat(TextDecoding.decode(le).text()).isEqualTo("olá");
  }

  @Test
  void validUtf8IsUtf8WithNothingReplaced() {
    TextDecoding.Decoded d = TextDecoding.decode((PT + " 🌍").getBytes(StandardCharsets.UTF_8));
    assertThat(d.text()).isEqualTo(PT + " 🌍");
    assertThat(d.charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(d.replacedChars()).isZero();
  }

  @Test
  void latin1PortugueseIsReadAsWindows1252() {
    TextDecoding.Decoded d = TextDecoding.decode(PT.getBytes(CP1252));
    assertThat(d.text()).isEqualTo(PT);
    assertThat(d.charset()).isEqualTo(CP1252);
    assertThat(d.replacedChars()).isZero();
    // One stray high byte in ASCII text is a Latin-1 letter, not damage.
    assertThat(TextDecoding.decode("caf\u00e9 au lait".getBytes(CP1252)).text()).isEqualTo("café au lait");
  }

  @Test
  void utf8WithAFewBadBytesKeepsUtf8AndCountsTheReplacements() {
    byte[] good = PT.getBytes(StandardCharsets.UTF_8);
    byte[] bytes = concat(concat(good, new byte[] {(byte) 0xC3}), concat(new byte[] {' ', (byte) 0xFF, ' '}, good));
    TextDecoding.Decoded d = TextDecoding.decode(bytes);
    assertThat(d.charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(d.text()).isEqualTo(PT + "\uFFFD \uFFFD " + PT);
    assertThat(d.replacedChars()).isEqualTo(2);
  }

  @Test
  void aLiteralReplacementCharacterInValidInputIsNotCounted() {
    TextDecoding.Decoded d = TextDecoding.decode("a\uFFFDb".getBytes(StandardCharsets.UTF_8));
    assertThat(d.text()).isEqualTo("a\uFFFDb");
    assertThat(d.replacedChars()).isZero();
  }

  @Test
  void utf8CountsRejectOverlongSurrogateAndTruncatedSequences() {
    assertThat(TextDecoding.utf8Counts(new byte[] {(byte) 0xC0, (byte) 0x80})).containsExactly(0, 2);
    assertThat(TextDecoding.utf8Counts(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})).containsExactly(0, 3);
    assertThat(TextDecoding.utf8Counts(new byte[] {(byte) 0xE2, (byte) 0x82})).containsExactly(0, 2);
    assertThat(TextDecoding.utf8Counts("€🌍".getBytes(StandardCharsets.UTF_8))).containsExactly(2, 0);
  }

  @Test
  void aDeclaredCharsetIsUsedUnlessTheBytesPlainlySayOtherwise() {
    // Declared Latin-1, bytes Latin-1.
    assertThat(TextDecoding.decode(PT.getBytes(CP1252), StandardCharsets.ISO_8859_1).text()).isEqualTo(PT);
    // Declared Latin-1, bytes valid UTF-8 with accents: UTF-8.
    assertThat(TextDecoding.decode(PT.getBytes(StandardCharsets.UTF_8), CP1252).text()).isEqualTo(PT);
    // Declared UTF-8, bytes Latin-1 without a single UTF-8 sequence: Latin-1, nothing replaced.
    TextDecoding.Decoded mislabelled = TextDecoding.decode(PT.getBytes(CP1252), StandardCharsets.UTF_8);
    assertThat(mislabelled.text()).isEqualTo(PT);
    assertThat(mislabelled.replacedChars()).isZero();
  }

  /** Found by LoaderFuzzTest: an empty file with a byte order mark and nothing after it threw. */
  @Test
  void emptyInputAfterAByteOrderMarkIsEmptyText() {
    assertThat(TextDecoding.decode(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}).text()).isEmpty();
    assertThat(TextDecoding.decode(new byte[] {(byte) 0xFF, (byte) 0xFE}).text()).isEmpty();
    assertThat(TextDecoding.decodeWith(new byte[0], 0, StandardCharsets.UTF_8).text()).isEmpty();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
