package dev.ctxpack.bench.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Span;
import java.util.List;
import org.junit.jupiter.api.Test;

class SciFactSentencesTest {
  static List<String> texts(String t, List<Span> spans) {
    return spans.stream().map(s -> s.of(t)).toList();
  }

  @Test
  void sentencesOpeningWithALowerCaseTechnicalNameAreSplit() {
    String t = "We made induced hepatic stem cells (iHepSCs). iHepSCs can be expanded. Tumour miRNAs are in exosomes. "
        + "miR-193a interacts with MVP.";
    // the segmenter splits before "miR-193a" (a word ends the sentence before it), not after "(iHepSCs)."
    assertThat(SciFactSentences.segmenter(t)).hasSize(3);
    assertThat(texts(t, SciFactSentences.gold(t))).containsExactly("We made induced hepatic stem cells (iHepSCs).",
        "iHepSCs can be expanded.", "Tumour miRNAs are in exosomes.", "miR-193a interacts with MVP.");
  }

  @Test
  void speciesInitialsAbbreviationsAndPlainLowerCaseWordsAreNotSplit() {
    String t = "Work in C. elegans and H. pylori (e.g. osmoregulation) and Deinococcus spp. that recover. "
        + "Ae. aegypti were caught, as Certo et al. in this issue showed.";
    assertThat(SciFactSentences.gold(t)).isEqualTo(SciFactSentences.segmenter(t));
    assertThat(SciFactSentences.gold(t)).hasSize(2);
  }

  @Test
  void sectionHeadingsStayWithTheirFirstSentenceAsInSciFact() {
    String t = "Care was poor.   \n METHODS We conducted a review. It was large.";
    assertThat(texts(t, SciFactSentences.segmenter(t))).containsExactly("Care was poor.", "METHODS", "We conducted a review.",
        "It was large.");
    assertThat(texts(t, SciFactSentences.gold(t))).containsExactly("Care was poor.", "METHODS We conducted a review.",
        "It was large.");
  }

  @Test
  void sentencesEndingInAOneLetterWordAreSplitButProteinNotationIsNot() {
    String t = "Birth weight of 2,500 to 2,599 g. These studies were small. Intake of vitamin D.   \n RESULTS A total of 944 "
        + "were seen. Mutations encoding p. Lys27Met substitutions were found. Dr. J. Smith agreed.";
    assertThat(texts(t, SciFactSentences.gold(t))).containsExactly("Birth weight of 2,500 to 2,599 g.", "These studies were small.",
        "Intake of vitamin D.", "RESULTS A total of 944 were seen.", "Mutations encoding p. Lys27Met substitutions were found.",
        "Dr. J. Smith agreed.");
  }
}
