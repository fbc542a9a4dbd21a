package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextNormalizerTest {

  @Test
  void identityFormFoldsCaseAndWhitespace() {
    assertThat(TextNormalizer.identityForm("  Hello\u00A0\u00A0 WORLD\t\r\n again \u3000"))
        .isEqualTo("hello world again");
    assertThat(TextNormalizer.identityForm("AÇÃO Não")).isEqualTo("ação não");
    assertThat(TextNormalizer.identityForm("")).isEmpty();
    assertThat(TextNormalizer.identityForm(" \n\t ")).isEmpty();
  }

  @Test
  void identityFormAppliesNfkc() {
    assertThat(TextNormalizer.identityForm("ﬁle")).isEqualTo("file"); // ligature
    assertThat(TextNormalizer.identityForm("ＡＢＣ１２３")).isEqualTo("abc123"); // full width
    assertThat(TextNormalizer.identityForm("x²")).isEqualTo("x2");
    // decomposed é (e + combining acute) equals the precomposed one
    assertThat(TextNormalizer.identityForm("cafe\u0301")).isEqualTo(TextNormalizer.identityForm("café")).isEqualTo("café");
  }

  @Test
  void identityFormKeepsWhatMatters() {
    assertThat(TextNormalizer.identityForm("não")).isNotEqualTo(TextNormalizer.identityForm("nao"));
    assertThat(TextNormalizer.identityForm("3.14")).isNotEqualTo(TextNormalizer.identityForm("3,14"));
    assertThat(TextNormalizer.identityForm("a b")).isNotEqualTo(TextNormalizer.identityForm("ab"));
  }

  @Test
  void sha256IsTheStandardDigest() {
    assertThat(TextNormalizer.sha256Hex(""))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assertThat(TextNormalizer.sha256Hex("hello world"))
        .isEqualTo("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9");
  }

  @Test
  void contentIdIsStablePrefixedAndShort() {
    // identityForm("Hello   World\n") is "hello world", whose SHA-256 starts b94d27b9934d3e08.
    assertThat(TextNormalizer.contentId("Hello   World\n")).isEqualTo("db94d27b9934d3e08");
    assertThat(TextNormalizer.contentId("hello world")).isEqualTo(TextNormalizer.contentId("HELLO\tWORLD"));
    assertThat(TextNormalizer.contentId("hello world")).isNotEqualTo(TextNormalizer.contentId("hello world!"));
    assertThat(TextNormalizer.contentId("qualquer texto")).matches("d[0-9a-f]{16}");
    assertThat(TextNormalizer.contentHash("A  b")).isEqualTo(TextNormalizer.contentHash("a b")).hasSize(64);
  }

  @Test
  void storageFormUnifiesLineEndings() {
    assertThat(TextNormalizer.storageForm("a\r\nb\rc\nd")).isEqualTo("a\nb\nc\nd");
    assertThat(TextNormalizer.storageForm("a\r\r\nb")).isEqualTo("a\n\nb");
    assertThat(TextNormalizer.storageForm("\r\n")).isEqualTo("\n");
  }

  @Test
  void storageFormStripsALeadingBom() {
    assertThat(TextNormalizer.storageForm("\uFEFFTítulo\r\n")).isEqualTo("Título\n");
    assertThat(TextNormalizer.storageForm("\uFEFF")).isEmpty();
  }

  @Test
  void storageFormIsNfcButNotNfkc() {
    assertThat(TextNormalizer.storageForm("cafe\u0301")).isEqualTo("café").hasSize(4);
    assertThat(TextNormalizer.storageForm("ﬁle ＡＢＣ")).isEqualTo("ﬁle ＡＢＣ");
    assertThat(TextNormalizer.storageForm("Keep  CASE and  spaces ")).isEqualTo("Keep  CASE and  spaces ");
    String clean = "já normalizado\n";
    assertThat(TextNormalizer.storageForm(clean)).isEqualTo(clean);
  }

  @Test
  void storageFormIsIdempotent() {
    String once = TextNormalizer.storageForm("\uFEFFa\r\nb\u0301\rc");
    assertThat(TextNormalizer.storageForm(once)).isEqualTo(once);
  }

  /** The exact level's key: equal exactly when the collapsed forms are, hashed as the collapsed String. */
  @Test
  void aCollapsedKeyEqualsAnotherExactlyWhenTheCollapsedFormsAreEqual() {
    assertThat(TextNormalizer.collapsedKey("  a \t b\u00a0\u2003c  ")).isEqualTo(TextNormalizer.collapsedKey("a b\nc"));
    assertThat(TextNormalizer.collapsedKey("a b")).isNotEqualTo(TextNormalizer.collapsedKey("ab"));
    String alphabet = "ab \t\n\u00a0\u2003\u3000x";
    java.util.Random random = new java.util.Random(11);
    int equal = 0;
    for (int i = 0; i < 20_000; i++) {
      String a = random(random, alphabet);
      String b = random.nextInt(4) == 0 ? a.replace(' ', '\t') : random(random, alphabet);
      Object ka = TextNormalizer.collapsedKey(a);
      Object kb = TextNormalizer.collapsedKey(b);
      boolean same = TextNormalizer.collapseWhitespace(a).equals(TextNormalizer.collapseWhitespace(b));
      assertThat(ka.equals(kb)).as("%s / %s", a, b).isEqualTo(same);
      assertThat(ka.hashCode()).isEqualTo(TextNormalizer.collapseWhitespace(a).hashCode());
      assertThat(ka.toString()).isEqualTo(TextNormalizer.collapseWhitespace(a));
      if (same) equal++;
    }
    assertThat(equal).as("pairs with equal collapsed forms").isGreaterThan(2_000);
  }

  private static String random(java.util.Random random, String alphabet) {
    StringBuilder sb = new StringBuilder();
    for (int k = random.nextInt(7); k > 0; k--) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    return sb.toString();
  }
}
