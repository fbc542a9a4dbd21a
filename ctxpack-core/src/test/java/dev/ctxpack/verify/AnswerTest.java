package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerTest {
  @Test
  void citationsInsideOrAfterASentenceBelongToIt() {
    String text = "Paris is the capital of France [S1]. It has 2.1 million inhabitants. [S2][S3] Lyon is smaller [S1, S4].";
    Answer a = Answer.parse(text);
    assertThat(a.claims()).extracting(Claim::text)
        .containsExactly("Paris is the capital of France.", "It has 2.1 million inhabitants.", "Lyon is smaller.");
    assertThat(a.claims()).extracting(Claim::citations)
        .containsExactly(List.of("S1"), List.of("S2", "S3"), List.of("S1", "S4"));
    Claim first = a.claims().get(0);
    assertThat(text.substring(first.start(), first.end())).startsWith("Paris").contains("[S1]");
    assertThat(a.abstained()).isFalse();
  }

  @Test
  void bulletsAreClaimsAndHeadingsOrLeadInsAreNot() {
    Answer a = Answer.parse("## Resumo\nSegundo as fontes:\n- O prazo é de 30 dias [S2]\n- A multa é de 10% [S1; S3]\n");
    assertThat(a.claims()).extracting(Claim::text).containsExactly("O prazo é de 30 dias", "A multa é de 10%");
    assertThat(a.claims().get(1).citations()).containsExactly("S1", "S3");
  }

  @Test
  void bracketedWordsAreNotCitations() {
    Answer a = Answer.parse("The report [sic] was filed in 2020 [citation needed].");
    assertThat(a.claims()).hasSize(1);
    assertThat(a.claims().get(0).citations()).isEmpty();
    assertThat(a.claims().get(0).text()).contains("[sic]");
  }

  @Test
  void uncitedSentencesCountOnlyWhenFactual() {
    Answer a = Answer.parse("Based on the sources, here is the answer: Is it true? "
        + "The treaty was signed in 1648 in Westphalia. I hope this helps.");
    assertThat(a.claims()).extracting(Claim::text).containsExactly("The treaty was signed in 1648 in Westphalia.");
  }

  @Test
  void abstentionsInBothLanguages() {
    assertThat(Answer.parse("The sources do not contain the answer.").abstained()).isTrue();
    assertThat(Answer.parse("As fontes não contêm a resposta.").abstained()).isTrue();
    assertThat(Answer.parse("Não há informações suficientes nas fontes para responder.").abstained()).isTrue();
    assertThat(Answer.parse("I don't know.").abstained()).isTrue();
    assertThat(Answer.parse("The treaty was signed in 1648 [S1].").abstained()).isFalse();
    // an abstention next to a cited claim is a partial answer, not an abstention
    assertThat(Answer.parse("The sources do not say when. It was signed in Münster [S1].").abstained()).isFalse();
  }

  @Test
  void hostileBracketsParseWithoutDeepRecursion() {
    // Long unclosed or endless ID lists once overflowed the stack of a backtracking pattern.
    Answer a = Answer.parse("Claim [" + "S1 ".repeat(20_000) + " and more text about 2020.");
    assertThat(a.claims()).hasSize(1);
    assertThat(a.claims().get(0).citations()).isEmpty();
    Answer b = Answer.parse("The treaty was signed in 1648 " + "[S1]".repeat(20_000) + ".");
    assertThat(b.claims()).hasSize(1);
    assertThat(b.claims().get(0).citations()).containsExactly("S1");
    Answer c = Answer.parse("Claim " + "[S1".repeat(20_000));
    assertThat(c.claims()).isNotEmpty();
    String longId = "x".repeat(100) + "1";
    assertThat(Answer.parse("It rained in 2020 [" + longId + "].").claims().get(0).citations()).isEmpty();
  }

  @Test
  void jsonClaimsAreTakenAsGiven() {
    Answer a = Answer.of("Paris.", List.of(Claim.of("Paris is the capital", List.of("S1"))));
    assertThat(a.claims()).hasSize(1);
    assertThat(a.claims().get(0).start()).isEqualTo(-1);
    assertThat(a.abstained()).isFalse();
  }
}
