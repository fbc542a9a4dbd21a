package dev.ctxpack.compress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NoiseTest {
  private final Noise noise = new Noise();

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "Home › Products › Laptops › ThinkPad                              ^ NAVIGATION",
      "Início » Notícias » Economia                                       ^ NAVIGATION",
      "Skip to content                                                    ^ NAVIGATION",
      "Leia mais                                                          ^ NAVIGATION",
      "Voltar ao topo                                                     ^ NAVIGATION",
      "Advertisement                                                      ^ ADS",
      "Publicidade                                                        ^ ADS",
      "Frete grátis para todo o Brasil!                                   ^ ADS",
      "Shop now and get 20% off                                           ^ ADS",
      "Posted on 3 May 2024 by John Smith                                 ^ METADATA",
      "Publicado em 12/03/2024 às 10h30                                   ^ METADATA",
      "5 min read                                                         ^ METADATA",
      "Tags: energy, solar, policy                                        ^ METADATA",
      "Compartilhe no WhatsApp                                            ^ METADATA",
      "We use cookies to improve your experience.                         ^ BOILERPLATE",
      "Este site utiliza cookies para melhorar a navegação.               ^ BOILERPLATE",
      "© 2024 Example Corp. All rights reserved.                          ^ BOILERPLATE",
      "Todos os direitos reservados.                                      ^ BOILERPLATE",
      "Assine nossa newsletter                                            ^ BOILERPLATE"})
  void flagsPageFurnitureInBothLanguages(String line) {
    String[] parts = line.split("\\^");
    assertThat(noise.classify(parts[0].strip())).isEqualTo(DropReason.valueOf(parts[1].strip()));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "The Rhine is about 1,230 km long.",
      "Home prices rose 4% in the third quarter, the fastest pace since 2021.",
      "Next, the solution was heated to 80 degrees for two hours.",
      "O contrato de cessão de direitos define que todos os direitos reservados ao autor permanecem com ele "
          + "durante a vigência, salvo acordo em contrário firmado pelas partes perante o cartório competente da comarca.",
      "Browsers store cookies, small files that a web server sends, and return them with each later request "
          + "so that the server can recognise a returning visitor across the pages of one session.",
      "By 1900, the city had grown to half a million people.",
      "Por isso, a pesquisa foi publicada em 2019.",
      "Search engines rank pages by many signals."})
  void leavesContentAlone(String sentence) {
    assertThat(noise.classify(sentence)).isNull();
  }

  /** {@link Noise#bare} is its two patterns' replacement, on random texts of marks, letters, spaces and line terminators. */
  @org.junit.jupiter.api.Test
  void bareIsTheMarksPatternsReplacement() {
    String alphabet = "ab .:!»›>…→←«‹<\t\n\r\u000B\f\u0085\u2028\u2029|x";
    java.util.Random random = new java.util.Random(3);
    for (int t = 0; t < 50_000; t++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(12); k > 0; k--) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      String s = sb.toString();
      String expected = Noise.LEADING_MARKS.matcher(Noise.TRAILING_MARKS.matcher(s).replaceAll("")).replaceAll("");
      org.assertj.core.api.Assertions.assertThat(Noise.bare(s)).as("[%s]", s.replace("\n", "\\n")).isEqualTo(expected);
    }
  }
}
