package dev.ctxpack.pack;

import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Action;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.SourceConflict;
import dev.ctxpack.model.Span;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sources that disagree: found among the selected passages, marked in the prompt and trace, the newer first. */
class PackConflictsTest {
  private static final String TAIL = " Every plan can be cancelled at any time from the account page, and the remaining days"
      + " of the month are credited to the next invoice. Support is given by e-mail on business days, with answers"
      + " within one working day, and the status page lists every planned maintenance window in advance.";
  private static final String TAIL_PT = " Todos os planos podem ser cancelados a qualquer momento pela página da conta,"
      + " e os dias restantes do mês são creditados na próxima fatura. O suporte é feito por e-mail em dias úteis, com"
      + " resposta em até um dia útil, e a página de status lista com antecedência cada janela de manutenção planejada.";
  private static final String OLD_EN = "The Basic plan costs $49 per month and includes storage for documents and photos." + TAIL;
  private static final String NEW_EN = "The Basic plan costs $59 per month and includes storage for documents and photos." + TAIL;
  private static final String OTHER_EN = "Coffee beans are roasted at about 200 degrees for twelve minutes before grinding.";

  static Candidate candidate(String docId, String title, String date, Language lang, String text, double score) {
    Chunk c = new Chunk(docId + "#0", docId, new Span(0, text.length()), text, "", 0, Tokenizers.defaultTokenizer().count(text));
    Map<String, String> meta = date.isEmpty() ? Map.of() : Map.of("date", date);
    return new Candidate(c, new DocInfo(docId, "file:///" + docId, title, lang, meta), Scores.of(Signal.FUSED, score));
  }

  static ContextPackage pack(String query, PackOptions o, Candidate... cands) throws Exception {
    Retriever fixed = (q, opts, t) -> List.of(cands);
    return DefaultContextPacker.builder().retriever(fixed).build().pack(query, o);
  }

  private static String label(ContextPackage p, String contains) {
    return p.sources().stream().filter(s -> s.text().contains(contains)).map(Source::label).findFirst().orElseThrow();
  }

  private static List<Decision> stage(ContextPackage p, Stage stage) {
    return p.trace().stream().filter(d -> d.stage() == stage).toList();
  }

  @Test
  void aFigureTwoDatedSourcesDisagreeOnIsMarkedAndTheNewerComesFirst() throws Exception {
    // The older version ranks higher; the dedup guard keeps both because the price differs.
    ContextPackage p = pack("How much does the Basic plan cost?", PackOptions.builder().budget(600).build(),
        candidate("prices-2024", "Prices 2024", "2024-06-15", Language.EN, OLD_EN, 0.9),
        candidate("coffee", "Coffee", "2023-01-01", Language.EN, OTHER_EN, 0.8),
        candidate("prices-2025", "Prices 2025", "2025-10-01", Language.EN, NEW_EN, 0.7));
    assertThat(p.trace()).anySatisfy(d -> assertThat(d.stage() + " " + d.rule()).isEqualTo("dedup near:guard:number"));
    // Both prices clear the relevance line; the coffee source does not.
    assertThat(p.sources()).hasSize(2);
    String newer = label(p, "$59");
    String older = label(p, "$49");
    assertThat(newer).isEqualTo("S1"); // lost-in-the-middle's strongest position, though it scored lowest of the two
    assertThat(p.prompt()).contains("Sources disagree: " + newer + " (2025-10-01) vs " + older + " (2024-06-15) on a number.");
    // The line follows the SOURCES block, before the question.
    assertThat(p.prompt().indexOf("Sources disagree:")).isGreaterThan(p.prompt().lastIndexOf("</source"))
        .isLessThan(p.prompt().indexOf("QUESTION"));
    assertThat(p.conflicts()).containsExactly(new SourceConflict("number", List.of(newer, older),
        List.of("2025-10-01", "2024-06-15"), List.of("$59", "$49"), p.conflicts().get(0).reason()));
    List<Decision> flags = stage(p, Stage.CONFLICT);
    assertThat(flags).hasSize(1);
    assertThat(flags.get(0).action()).isEqualTo(Action.FLAG);
    assertThat(flags.get(0).rule()).isEqualTo("conflict:number");
    assertThat(flags.get(0).ids()).containsExactly(newer, older);
    assertThat(p.trace()).anySatisfy(d -> assertThat(d.action()).isEqualTo(Action.PREFER_NEWER));
    // The line is paid from the budget: the exact count still holds.
    int counted = Tokenizers.defaultTokenizer().count(p.prompt());
    assertThat(counted).isEqualTo(p.budget().used()).isLessThanOrEqualTo(600);
    assertThat(p.budget().byComponent().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(counted);
  }

  @Test
  void twoDatedVersionsOfOneDocumentAreAVersionConflictTheNewerFirstInScoreOrder() throws Exception {
    // The budget filled (no relevance line): the lexical scorer reads "returned" for "return policy" too weakly.
    ContextPackage p = pack("What is the return policy?", PackOptions.builder().order(OrderMode.SCORE).minRelevance(0).build(),
        candidate("policy-v1", "Return policy", "2023-03-01", Language.EN,
            "Items may be returned within 14 days of delivery in their original packaging.", 0.9),
        candidate("policy-v2", "Return Policy", "2025-02-01", Language.EN,
            "Customers can send back unused products and receive a refund to the original card.", 0.8));
    assertThat(p.sources()).hasSize(2);
    String newer = label(p, "refund");
    assertThat(newer).isEqualTo("S1");
    assertThat(p.conflicts()).hasSize(1);
    SourceConflict c = p.conflicts().get(0);
    assertThat(c.kind()).isEqualTo("version");
    assertThat(c.sources()).containsExactly("S1", "S2");
    assertThat(c.dates()).containsExactly("2025-02-01", "2023-03-01");
    assertThat(p.prompt()).contains("Sources disagree: S1 (2025-02-01) vs S2 (2023-03-01) as versions of the same document.");
    assertThat(stage(p, Stage.CONFLICT)).singleElement().satisfies(d -> assertThat(d.rule()).isEqualTo("conflict:version"));
  }

  @Test
  void portugueseQueriesGetThePortugueseLine() throws Exception {
    ContextPackage p = pack("Quanto custa o plano Básico por mês?", PackOptions.defaults(),
        candidate("precos-2024", "Preços 2024", "2024-06-15", Language.PT, "O plano Básico custa R$ 49 por mês." + TAIL_PT, 0.9),
        candidate("precos-2025", "Preços 2025", "2025-10-01", Language.PT, "O plano Básico custa R$ 59 por mês." + TAIL_PT, 0.8));
    assertThat(p.trace()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("near:guard:number"));
    assertThat(p.sources()).hasSize(2);
    String newer = label(p, "R$ 59");
    String older = label(p, "R$ 49");
    assertThat(p.prompt()).contains("As fontes divergem: " + newer + " (2025-10-01) vs " + older + " (2024-06-15) em um número.")
        .doesNotContain("Sources disagree");
    assertThat(p.conflicts()).singleElement().satisfies(c -> assertThat(c.values()).containsExactly("r$59", "r$49"));
  }

  @Test
  void unrelatedOrAgreeingSourcesProduceNoConflict() throws Exception {
    // The budget filled (no relevance line), so that the unrelated sources are there to be compared.
    ContextPackage p = pack("How are coffee beans roasted and what does the plan cost?", PackOptions.builder().minRelevance(0).build(),
        candidate("prices-2024", "Prices", "2024-06-15", Language.EN, OLD_EN, 0.9),
        candidate("coffee", "Coffee", "2025-01-01", Language.EN, OTHER_EN, 0.8),
        candidate("tea", "Tea", "", Language.EN, "Green tea is brewed at 80 degrees for 3 minutes.", 0.7));
    assertThat(p.sources()).hasSize(3);
    assertThat(p.conflicts()).isEmpty();
    assertThat(p.prompt()).doesNotContain("Sources disagree");
    assertThat(stage(p, Stage.CONFLICT)).isEmpty();
    assertThat(p.trace()).noneSatisfy(d -> assertThat(d.action()).isEqualTo(Action.PREFER_NEWER));
  }

  @Test
  void withPiiRedactionTheConflictKeepsItsLabelsButQuotesNoFigures() throws Exception {
    ContextPackage p = pack("How much does the Basic plan cost?",
        PackOptions.builder().redactPii(dev.ctxpack.pii.RedactionOptions.all()).build(),
        candidate("prices-2024", "Prices 2024", "2024-06-15", Language.EN, OLD_EN, 0.9),
        candidate("prices-2025", "Prices 2025", "2025-10-01", Language.EN, NEW_EN, 0.7));
    assertThat(p.conflicts()).singleElement().satisfies(c -> {
      assertThat(c.kind()).isEqualTo("number");
      assertThat(c.values()).isEmpty();
      assertThat(c.reason()).doesNotContain("$49").doesNotContain("$59");
    });
    assertThat(stage(p, Stage.CONFLICT)).singleElement().satisfies(d -> assertThat(d.reason()).doesNotContain("$49"));
    assertThat(p.prompt()).contains("Sources disagree: S1 (2025-10-01) vs S2 (2024-06-15) on a number.");
  }

  @Test
  void withoutDedupOnlyVersionsAreFound() throws Exception {
    ContextPackage p = pack("How much does the Basic plan cost?", PackOptions.builder().dedup(false).build(),
        candidate("prices-2024", "Prices 2024", "2024-06-15", Language.EN, OLD_EN, 0.9),
        candidate("prices-2025", "Prices 2025", "2025-10-01", Language.EN, NEW_EN, 0.7));
    assertThat(p.sources()).hasSize(2);
    assertThat(p.conflicts()).isEmpty();
  }

}
