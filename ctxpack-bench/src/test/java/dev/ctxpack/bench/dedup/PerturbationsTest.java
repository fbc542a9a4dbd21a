package dev.ctxpack.bench.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.similarity.Words;
import dev.ctxpack.text.TextNormalizer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class PerturbationsTest {
  static final String TEXT = "The Normans (Norman: Nourmands; French: Normands) were the people who in the 10th "
      + "and 11th centuries gave their name to Normandy, a region in France. They were descended from Norse "
      + "(\"Norman\" comes from \"Norseman\") raiders and pirates from Denmark, Iceland and Norway. Their identity "
      + "emerged initially in the first half of the 10th century, and it continued to evolve over the succeeding "
      + "centuries.";
  static final String DONOR = "Computational complexity theory is a branch of the theory of computation. "
      + "A problem is regarded as inherently difficult if its solution requires significant resources.";

  @RepeatedTest(20)
  void whitespaceAndCaseKeepTheIdentityForm(RepetitionInfo rep) {
    String p = Perturbations.whitespaceCase(TEXT, new Random(rep.getCurrentRepetition()));
    assertThat(p).isNotEqualTo(TEXT);
    assertThat(TextNormalizer.contentHash(p)).isEqualTo(TextNormalizer.contentHash(TEXT));
  }

  @RepeatedTest(20)
  void punctuationKeepsTheWords(RepetitionInfo rep) {
    String p = Perturbations.punctuation(TEXT, new Random(rep.getCurrentRepetition()));
    assertThat(p).isNotEqualTo(TEXT);
    assertThat(Words.of(p)).isEqualTo(Words.of(TEXT));
  }

  @Test
  void punctuationNeverJoinsDigitsOrWords() {
    String t = "It cost 1,000 dollars, (roughly) and that's it";
    for (int seed = 0; seed < 20; seed++) {
      String p = Perturbations.punctuation(t, new Random(seed));
      assertThat(p).isNotEqualTo(t).contains("1,000");
      assertThat(Words.of(p)).isEqualTo(Words.of(t));
    }
    assertThat(Perturbations.punctuation("plain words here", new Random(1))).isEqualTo("plain, words here");
  }

  @RepeatedTest(20)
  void aDroppedSentenceCopyIsMadeOfOriginalSentences(RepetitionInfo rep) {
    String p = Perturbations.dropSentence(TEXT, new Random(rep.getCurrentRepetition()));
    List<String> original = Perturbations.sentences(TEXT);
    List<String> copy = Perturbations.sentences(p);
    assertThat(original).hasSize(3);
    assertThat(copy).hasSize(2);
    assertThat(original).containsAll(copy);
    for (String s : copy) assertThat(TEXT).contains(s);
    assertThat(p.length()).isLessThan(TEXT.length());
    assertThat(p).doesNotStartWith(" ").doesNotEndWith(" ");
  }

  @Test
  void oneSentenceHasNothingToDrop() {
    assertThat(Perturbations.dropSentence("Only one sentence here.", new Random(1))).isNull();
  }

  @RepeatedTest(10)
  void aPrependedSentenceComesFromTheDonorAndTheOriginalFollows(RepetitionInfo rep) {
    String p = Perturbations.prependSentence(TEXT, DONOR, new Random(rep.getCurrentRepetition()));
    assertThat(p).endsWith(" " + TEXT);
    String head = p.substring(0, p.length() - TEXT.length() - 1);
    assertThat(Perturbations.sentences(DONOR)).contains(head);
  }

  @RepeatedTest(20)
  void exactlyOneWordChanges(RepetitionInfo rep) {
    String p = Perturbations.changeWord(TEXT, new Random(rep.getCurrentRepetition()));
    List<String> a = Words.of(TEXT);
    List<String> b = Words.of(p);
    assertThat(b).hasSameSizeAs(a);
    int differ = 0;
    for (int i = 0; i < a.size(); i++) if (!a.get(i).equals(b.get(i))) differ++;
    assertThat(differ).isEqualTo(1);
  }

  @Test
  void noWordToChangeIntoGivesNull() {
    assertThat(Perturbations.changeWord("word word word", new Random(1))).isNull();
    assertThat(Perturbations.changeWord("a b c", new Random(1))).isNull();
  }
}
