package dev.ctxpack.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** MinHash signatures and LSH banding over real paragraphs (SciFact, FaQuAD) and edited copies. */
class MinHashLshTest {
  static final String EN = "Nanotechnologies are emerging platforms that could be useful in measuring, understanding, and"
      + " manipulating stem cells. Examples include magnetic nanoparticles and quantum dots for stem cell labeling and"
      + " in vivo tracking; nanoparticles, carbon nanotubes, and polyplexes for the intracellular delivery of"
      + " genes/oligonucleotides and protein/peptides; and engineered nanometer-scale scaffolds for stem cell"
      + " differentiation and transplantation. This review examines the use of nanotechnologies for stem cell tracking,"
      + " differentiation, and transplantation. We further discuss their utility and the potential concerns regarding"
      + " their cytotoxicity.";
  static final String PT = "Universidade Federal de Mato Grosso do Sul (UFMS) é uma instituição de ensino superior pública"
      + " federal brasileira, sediada em Campo Grande, no estado do Mato Grosso do Sul. Tomando-se o campus de Campo"
      + " Grande como centro de um círculo hipotético, a UFMS abrange uma extensa área geográfico-educacional que"
      + " resulta num raio de mais de 500 km, atingindo cerca de cem municípios e incluindo estados e países vizinhos,"
      + " tais como Paraguai e Bolívia, de onde se origina parte de seus alunos-convênio.";

  final MinHasher hasher = MinHasher.defaults();

  @Test
  void caseAccentsPunctuationAndSpacingDoNotChangeTheSignature() {
    String folded = PT.toUpperCase(java.util.Locale.ROOT).replace("É", "E").replace("Ú", "U").replace(",", " ")
        .replace("  ", "\n");
    assertThat(hasher.signature(folded)).isEqualTo(hasher.signature(PT));
    assertThat(MinHasher.similarity(hasher.signature(EN), hasher.signature(EN + "\n"))).isEqualTo(1.0);
  }

  @Test
  void theEstimateFollowsTheExactJaccardOfAnEditedCopy() {
    String edited = EN.replace("This review examines", "Here we review").replace("cytotoxicity", "toxicity in vivo");
    double exact = MinHasher.jaccard(EN, edited, 5);
    double estimate = MinHasher.similarity(hasher.signature(EN), hasher.signature(edited));
    assertThat(exact).isBetween(0.6, 0.95);
    assertThat(estimate).isCloseTo(exact, within(0.12));
    assertThat(MinHasher.similarity(hasher.signature(EN), hasher.signature(PT))).isLessThan(0.05);
  }

  @Test
  void lshFindsNearCopiesAndNotUnrelatedText() {
    LshIndex lsh = LshIndex.forHasher(hasher);
    int en = lsh.add(hasher.signature(EN));
    int pt = lsh.add(hasher.signature(PT));
    String nearEn = EN.replace("We further discuss", "We also discuss");
    assertThat(lsh.query(hasher.signature(nearEn), 0.7)).containsExactly(en);
    assertThat(lsh.query(hasher.signature(PT.replace("cem", "cento e dez")), 0.7)).containsExactly(pt);
    assertThat(lsh.query(hasher.signature("Caffeine is a central nervous system stimulant of the methylxanthine class."), 0.1))
        .isEmpty();
    assertThat(lsh.similarity(en, hasher.signature(nearEn))).isGreaterThan(0.7);
    assertThat(lsh.similarity(en, pt)).isLessThan(0.1);
  }

  @Test
  void growsPastItsInitialCapacityAndKeepsEveryItem() {
    LshIndex lsh = LshIndex.forHasher(hasher);
    String[] words = EN.split(" ");
    for (int i = 0; i < 500; i++) {
      // Distinct texts: the paragraph rotated by i words, between the item number and its round.
      StringBuilder sb = new StringBuilder("item" + i);
      for (int w = 0; w < words.length; w++) sb.append(' ').append(words[(w + i) % words.length]);
      sb.append(" round").append(i / words.length);
      assertThat(lsh.add(hasher.signature(sb.toString()))).isEqualTo(i);
    }
    assertThat(lsh.size()).isEqualTo(500);
    int[] same = lsh.query(hasher.signature("item42 " + String.join(" ", rotate(words, 42)) + " round0"), 0.99);
    assertThat(same).containsExactly(42);
  }

  @Test
  void emptyTextsAndBadParametersAreHandled() {
    assertThat(hasher.signature("  ... ")).containsOnly(MinHasher.EMPTY);
    assertThat(MinHasher.similarity(hasher.signature(""), hasher.signature(EN))).isZero();
    assertThatThrownBy(() -> new MinHasher(0, 5, 1)).hasMessageContaining("k (hash functions)");
    assertThatThrownBy(() -> new LshIndex(20, 8, 128)).hasMessageContaining("20 x 8");
    assertThatThrownBy(() -> LshIndex.forHasher(hasher).add(new int[3])).hasMessageContaining("3 positions");
  }

  private static String[] rotate(String[] words, int by) {
    String[] out = new String[words.length];
    for (int w = 0; w < words.length; w++) out[w] = words[(w + by) % words.length];
    return out;
  }
}
