package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.testing.RandomText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** What holds for any sources and any answer: invented IDs caught, evidence verbatim, same output twice. */
class VerifierPropertiesTest {
  private final EvidenceVerifier verifier = EvidenceVerifier.lexical();

  @Property(tries = 150)
  void inventedIdsAreAlwaysCaughtAndEvidenceIsTheSourceAtItsOffsets(
      @ForAll("sources") List<String> texts, @ForAll("answers") List<String> sentences, @ForAll("cites") List<Integer> cites)
      throws Exception {
    List<VerifySource> sources = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) sources.add(new VerifySource("S" + (i + 1), texts.get(i)));
    // Sentences citing given IDs (1..n) and invented ones (n+1..): a sentence taken from a source or random text.
    StringBuilder answer = new StringBuilder();
    Set<String> invented = new HashSet<>();
    for (int i = 0; i < sentences.size(); i++) {
      int c = cites.get(i % cites.size());
      String id = "S" + c;
      if (c > texts.size()) invented.add(id);
      String s = sentences.get(i).replace('[', '(').replace(']', ')').strip();
      answer.append(s.isEmpty() ? "x" : s).append(" [").append(id).append("]. ");
    }
    Verification v = verifier.verify(null, sources, Answer.parse(answer.toString()));

    for (ClaimVerdict c : v.claims()) {
      for (CitationCheck check : c.checks()) {
        assertThat(check.valid()).isEqualTo(!invented.contains(check.source()) && Integer.parseInt(check.source().substring(1)) <= texts.size());
        if (!check.valid()) assertThat(check.supports()).isFalse();
      }
      if (!c.claim().citations().isEmpty() && c.claim().citations().stream().allMatch(invented::contains)) {
        assertThat(c.verdict()).isEqualTo(Verdict.UNSUPPORTED);
      }
      if (c.evidence() != null) {
        String text = sources.get(Integer.parseInt(c.evidence().source().substring(1)) - 1).text();
        assertThat(text.substring(c.evidence().start(), c.evidence().end())).isEqualTo(c.evidence().text());
        assertThat(c.evidence().score()).isBetween(0.0, 1.0);
      }
    }
    Set<String> cited = new HashSet<>();
    for (ClaimVerdict c : v.claims()) cited.addAll(c.claim().citations());
    for (String id : invented) if (cited.contains(id)) assertThat(v.invalidCitations()).contains(id);
    assertThat(v.invalidCitations()).allMatch(invented::contains);
    assertThat(v.citationPrecision()).isBetween(0.0, 1.0);
    assertThat(v.citationRecall()).isBetween(0.0, 1.0);
    assertThat(verifier.verify(null, sources, Answer.parse(answer.toString()))).isEqualTo(v);
  }

  @Provide
  Arbitrary<List<String>> sources() {
    return RandomText.text(80).list().ofMinSize(1).ofMaxSize(4);
  }

  @Provide
  Arbitrary<List<String>> answers() {
    return RandomText.text(40).list().ofMinSize(1).ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<Integer>> cites() {
    return Arbitraries.integers().between(1, 9).list().ofMinSize(1).ofMaxSize(5);
  }
}
