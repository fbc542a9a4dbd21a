package dev.ctxpack.pack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Source;
import dev.ctxpack.retrieve.GivenCandidates;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The instructions' citation example used to read "for example [S1] or [S1][S3]" whatever the
 * package held, so a package of two sources told the model to cite [S3], which verify then reports
 * as invented. Every built-in template, in both languages and with every injection policy, names
 * only labels the prompt has.
 */
// Budgets are filled as before the relevance line (minRelevance 0): these tests are about other stages;
// RelevanceLineTest covers the line.
class CitationExampleNamesOnlyPresentLabelsTest {
  private static final Pattern LABEL = Pattern.compile("\\[(S\\d+)\\]|\"(S\\d+)\"");

  private static Set<String> cited(String text) {
    Set<String> out = new TreeSet<>();
    Matcher m = LABEL.matcher(text);
    while (m.find()) out.add(m.group(1) != null ? m.group(1) : m.group(2));
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"en", "pt", "json-en", "json-pt", "quotes-en", "quotes-pt", "quote-first-en", "quote-first-pt",
      "digest-en", "digest-pt"})
  void theRenderedInstructionsNameOnlyLabelsOfThePrompt(String name) {
    PromptTemplate t = PromptTemplate.byName(name);
    for (int n = 0; n <= 4; n++) {
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= n; i++) labels.add("S" + i);
      String instructions = t.renderedInstructions(labels);
      assertThat(labels).as(name + " with " + n + " sources: " + instructions).containsAll(cited(instructions));
      assertThat(instructions).doesNotContain(PromptTemplate.CITE_EXAMPLE).doesNotContain(PromptTemplate.CITE_LABEL)
          .doesNotContain("{{");
      if (n >= 1 && !name.startsWith("json")) assertThat(cited(instructions)).contains("S1");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"flag", "off"})
  void aPackageOfTwoSourcesNeverAsksForAThird(String policy) throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    var given = List.of(
        GivenCandidates.candidate("a", "a", "Caffeine blocks adenosine receptors in the brain.", 0, "", "", null, 2),
        GivenCandidates.candidate("b", "b", "A cafeína bloqueia os receptores de adenosina no cérebro.", 0, "", "", null, 1));
    for (String q : List.of("What does caffeine block?", "O que a cafeína bloqueia?")) {
      ContextPackage p = packer.pack(q, given,
          PackOptions.builder().minRelevance(0).budget(1000).injection(InjectionPolicy.parse(policy)).build());
      assertThat(p.sources()).hasSize(2);
      Set<String> labels = new TreeSet<>(p.sources().stream().map(Source::label).toList());
      assertThat(labels).containsAll(cited(p.prompt()));
      assertThat(p.prompt()).contains("[S1][S2]");
      assertThat(p.budget().used()).isEqualTo(Tokenizers.defaultTokenizer().count(p.prompt()));
    }
  }
}
