package dev.ctxpack.bench.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.bench.data.TextPair;
import org.junit.jupiter.api.Test;

class NegationCuesTest {
  private static TextPair pair(String a, String b) {
    return new TextPair("x", "t", a, b, "None", false, 1);
  }

  @Test
  void cuesAreWholeWordsAfterCaseFoldingWithPunctuationIgnored() {
    assertThat(NegationCues.cues("Não, ele nunca foi — nem quis.")).containsExactly("não", "nunca", "nem");
    assertThat(NegationCues.cues("Nada mudou sem ela; ninguém viu, jamais.")).containsExactly("nada", "sem", "ninguém", "jamais");
    // inside other words they are not cues: "nadador", "semana", "nenhuma" is one
    assertThat(NegationCues.cues("O nadador treinou a semana toda em nenhuma piscina.")).containsExactly("nenhuma");
  }

  @Test
  void aNegationPairHasACueOnExactlyOneSide() {
    assertThat(NegationCues.isNegationPair(pair("O projeto foi aprovado.", "O projeto não foi aprovado."))).isTrue();
    assertThat(NegationCues.isNegationPair(pair("Não choveu.", "Nunca chove."))).isFalse();
    assertThat(NegationCues.cueSetsDiffer(pair("Não choveu.", "Nunca chove."))).isTrue();
    assertThat(NegationCues.isNegationPair(pair("Choveu.", "Chove muito."))).isFalse();
    // whitespace tokens keep punctuation attached, so "não," is not a cue there
    assertThat(NegationCues.isNegationPairByWhitespaceTokens(pair("Ele disse não, e saiu.", "Ele saiu."))).isFalse();
    assertThat(NegationCues.isNegationPair(pair("Ele disse não, e saiu.", "Ele saiu."))).isTrue();
  }
}
