package dev.ctxpack.pack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Source;
import dev.ctxpack.pii.RedactionOptions;
import dev.ctxpack.retrieve.GivenCandidates;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code --redact-pii} redacted a source's text but left its title and URI verbatim in the fence's
 * attributes, {@code sources[].title}/{@code uri} and plan prompts. Everything that reaches a
 * prompt or the JSON is redacted.
 */
class RedactPiiInTitlesAndUrisTest {
  private static final String EMAIL = "ana.souza@example.com";
  private static final String CPF = "529.982.247-25";

  @ParameterizedTest
  @EnumSource(value = Strategy.class, names = {"STUFF", "MAP_REDUCE"})
  void titlesAndUrisAreRedactedLikeTheText(Strategy strategy) throws Exception {
    List<dev.ctxpack.model.Candidate> given = new ArrayList<>();
    given.add(GivenCandidates.candidate("d1", "d1", "O contrato de locação foi assinado em março por " + EMAIL + ".", 0,
        "Dossier " + EMAIL + " CPF " + CPF, "https://files.example.com/" + EMAIL + "/dossier.pdf", null, 2));
    for (int i = 0; i < 12; i++) {
      given.add(GivenCandidates.candidate("f" + i, "f" + i, "O aluguel do imóvel " + i + " é pago no quinto dia útil de cada mês,"
          + " por transferência, conforme a cláusula " + i + " do contrato de locação.", 0, "Contrato " + i, "", null, 1 - i / 100.0));
    }
    ContextPackage p = EvidencePacker.builder().build().pack("Quem assinou o contrato de locação?", given,
        PackOptions.builder().budget(strategy == Strategy.STUFF ? 1500 : 700).strategy(strategy).maxCalls(4)
            .redactPii(RedactionOptions.all()).build());
    assertThat(p.sources()).isNotEmpty();
    StringBuilder everything = new StringBuilder(p.prompt());
    for (PlanStep s : p.plan()) everything.append(s.prompt());
    for (Source s : p.sources()) everything.append(s.title()).append(s.uri()).append(s.section()).append(s.text());
    assertThat(everything.toString()).doesNotContain(EMAIL).doesNotContain(CPF).doesNotContain("529.982");
    Source d1 = p.sources().stream().filter(s -> s.docId().equals("d1")).findFirst().orElseThrow();
    assertThat(d1.title()).startsWith("Dossier [EMAIL_").contains("CPF [CPF_");
    assertThat(d1.uri()).isEqualTo("https://files.example.com/" + d1.text().replaceAll(".*por (\\[EMAIL_\\d+]).*", "$1") + "/dossier.pdf");
    // The same address keeps one placeholder in the text, the title and the URI.
    assertThat(d1.title()).contains(d1.text().replaceAll(".*por (\\[EMAIL_\\d+]).*", "$1"));
  }
}
