package dev.ctxpack.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;

/** The public face: {@code CtxpackDocumentPostProcessor.builder().evidenceTokens(N).build()}, no index, no model. */
class CtxpackDocumentPostProcessorTest {
  static final String FACT = "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.";
  static final Tokenizer TOKENS = Tokenizers.defaultTokenizer();

  static List<Document> given() {
    List<Document> in = new ArrayList<>();
    // The same fact from two retrievers: other ids, other metadata, other scores.
    in.add(Document.builder().id("web-1").text(FACT).metadata(Map.of("retriever", "web", "source", "https://a.example/eiffel")).score(0.9).build());
    in.add(Document.builder().id("kb-7").text(FACT).metadata(Map.of("retriever", "kb", "title", "Knowledge base")).score(0.8).build());
    in.add(Document.builder().id("h1").text("The Eiffel Tower is 330 metres tall.").score(0.7).build());
    in.add(Document.builder().id("h2").text("The Eiffel Tower is 324 metres tall.").score(0.6).build());
    for (int i = 0; i < 60; i++) {
      in.add(Document.builder().id("f" + i).text("Filler paragraph " + i + " about the tower's visitors, tickets, lifts "
          + "and the restaurants on its second floor, repeated at length so that the evidence is far larger than the "
          + "budget can hold.").score(0.5 - i / 1000.0).build());
    }
    return in;
  }

  @Test
  void theFactOnceBothNumbersAndNoMoreThanTheBudget() {
    int budget = 1200;
    CtxpackDocumentPostProcessor pp = CtxpackDocumentPostProcessor.builder().evidenceTokens(budget).build();
    List<Document> out = pp.process(new Query("When was the Eiffel Tower completed and how tall is it?"), given());

    List<Document> fact = out.stream().filter(d -> d.getText().contains("1889")).toList();
    assertThat(fact).hasSize(1);
    assertThat(fact.get(0).getMetadata().get(CtxpackDocuments.MERGED_IDS)).asList().containsExactlyInAnyOrder("web-1", "kb-7");
    String all = out.stream().map(Document::getText).collect(Collectors.joining("\n"));
    assertThat(all).contains("330 metres").contains("324 metres");
    ContextPackage p = CtxpackDocuments.packageOf(out).orElseThrow();
    assertThat(TOKENS.count(p.prompt())).isLessThanOrEqualTo(budget);
    assertThat(out.stream().mapToInt(d -> TOKENS.count(d.getText())).sum()).isLessThanOrEqualTo(budget);
    assertThat(out.size()).as("the filler did not all fit").isLessThan(given().size() - 1);
    assertThat(out).extracting(d -> d.getMetadata().get(CtxpackDocuments.LABEL))
        .containsExactlyElementsOf(p.sources().stream().map(s -> (Object) s.label()).toList());
    assertThat(p.trace()).as("the trace says which copy went into which").anyMatch(d -> d.stage().name().equals("DEDUP")
        && (d.ids().contains("kb-7") && d.into().equals("web-1") || d.ids().contains("web-1") && d.into().equals("kb-7")));
  }

  @Test
  void overlappingWindowsOfOneDocumentAreStitchedByOffsets() {
    String doc = "Caffeine blocks adenosine receptors in the brain. It raises alertness within twenty minutes. "
        + "Its half-life in adults is about five hours. Pregnancy can double that half-life. "
        + "Regular users develop tolerance to some of its effects.";
    int cut1 = doc.indexOf("Pregnancy");
    int cut2 = doc.indexOf("Its half-life");
    Document a = Document.builder().id("c-0").text(doc.substring(0, cut1))
        .metadata(Map.of(CtxpackDocuments.DOC_ID, "caffeine", CtxpackDocuments.START, 0)).score(0.9).build();
    Document b = Document.builder().id("c-1").text(doc.substring(cut2))
        .metadata(Map.of(CtxpackDocuments.DOC_ID, "caffeine", CtxpackDocuments.START, String.valueOf(cut2))).score(0.8).build();
    List<Document> out = CtxpackDocumentPostProcessor.builder().evidenceTokens(800)
        .options(dev.ctxpack.pack.PackOptions.builder().compress(false).build()).build()
        .process(new Query("What is the half-life of caffeine?"), List.of(a, b));
    assertThat(out).hasSize(1);
    assertThat(out.get(0).getText()).contains("adenosine").contains("tolerance");
    assertThat(out.get(0).getText().split("Its half-life", -1)).as("the overlap once").hasSize(2);
    assertThat(out.get(0).getMetadata().get(CtxpackDocuments.DOC_IDS)).asList().containsExactly("caffeine");
  }

  @Test
  void sameInputSameOutput() {
    CtxpackDocumentPostProcessor pp = CtxpackDocumentPostProcessor.builder().evidenceTokens(500).build();
    Query q = new Query("How tall is the Eiffel Tower?");
    assertThat(pp.process(q, given())).extracting(Document::getText).containsExactlyElementsOf(
        pp.process(q, given()).stream().map(Document::getText).toList());
  }

  @Test
  void badInputIsNamed() {
    assertThatThrownBy(() -> CtxpackDocumentPostProcessor.builder().evidenceTokens(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("evidenceTokens");
    Document bad = Document.builder().id("x").text("Some text here.").metadata(Map.of(CtxpackDocuments.START, "-3")).build();
    assertThatThrownBy(() -> CtxpackDocumentPostProcessor.builder().build().process(new Query("q?"), List.of(bad)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(CtxpackDocuments.START).hasMessageContaining("x");
    assertThatThrownBy(() -> CtxpackDocumentPostProcessor.builder().evidenceTokens(5).build()
        .process(new Query("How tall is the Eiffel Tower?"), given()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("evidenceTokens");
  }

  @Test
  void theAugmentedQueryIsCtxpacksPromptInTheQuestionsLanguage() {
    CtxpackQueryAugmenter aug = CtxpackQueryAugmenter.builder().build();
    Query pt = aug.augment(new Query("Quando a torre Eiffel foi concluída?"),
        List.of(new Document("A torre Eiffel foi concluída em 1889 para a Exposição Universal de Paris.")));
    assertThat(pt.text()).contains("FONTES").contains("PERGUNTA").contains("[S1]").contains("<source-").contains("1889");
    Query en = aug.augment(new Query("When was the Eiffel Tower completed?"), List.of(new Document(FACT)));
    assertThat(en.text()).contains("SOURCES").contains("QUESTION").doesNotContain("FONTES");
    CtxpackDocumentPostProcessor pp = CtxpackDocumentPostProcessor.builder().evidenceTokens(600).build();
    Query q = new Query("How tall is the Eiffel Tower?");
    List<Document> packed = pp.process(q, given());
    assertThat(aug.augment(q, packed).text()).as("documents ctxpack packed are laid out as packed")
        .isEqualTo(CtxpackDocuments.packageOf(packed).orElseThrow().prompt());
    assertThat(aug.augment(q, List.of()).text()).contains("The sources do not contain the answer.");
  }
}
