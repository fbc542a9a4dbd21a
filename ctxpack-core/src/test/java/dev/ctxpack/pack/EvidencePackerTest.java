package dev.ctxpack.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Source;
import dev.ctxpack.retrieve.GivenCandidates;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EvidencePackerTest {
  private static final String FACT = "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.";

  private static List<Candidate> given() {
    List<Candidate> in = new ArrayList<>();
    // The same fact from two retrievers, with different ids and metadata.
    in.add(GivenCandidates.candidate("web-1", "web", FACT, 0, "Web page", "https://a.example/eiffel",
        Map.of("retriever", "web"), 0.9));
    in.add(GivenCandidates.candidate("kb-7", "kb", FACT, 120, "Knowledge base", "kb://eiffel",
        Map.of("retriever", "kb", "score", "0.7"), 0.8));
    // Two passages that differ only in a number: a conflict, kept apart.
    in.add(GivenCandidates.candidate("h1", "height-2020", "The Eiffel Tower is 330 metres tall.", 0, "", "", null, 0.7));
    in.add(GivenCandidates.candidate("h2", "height-1990", "The Eiffel Tower is 324 metres tall.", 0, "", "", null, 0.6));
    for (int i = 0; i < 60; i++) {
      in.add(GivenCandidates.candidate("f" + i, "filler-" + i, "Filler paragraph " + i
          + " about the tower's visitors, tickets, lifts and the restaurants on its second floor, repeated at length "
          + "so that the evidence is far larger than the budget can hold.", 0, "", "", null, 0.5 - i / 1000.0));
    }
    return in;
  }

  @Test
  void mergesTheSameFactAcrossRetrieversKeepsNumberedVariantsAndStaysWithinTheBudget() throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    int budget = 1200;
    ContextPackage p = packer.pack("When was the Eiffel Tower completed and how tall is it?", given(),
        PackOptions.builder().budget(budget).build());

    List<Source> withFact = p.sources().stream().filter(s -> s.text().contains("1889")).toList();
    assertEquals(1, withFact.size(), "the fact appears once: " + p.prompt() + p.trace().stream().map(Object::toString).collect(Collectors.joining("\n")));
    Set<String> docs = withFact.get(0).spans().stream().map(Source.DocSpan::docId).collect(Collectors.toSet());
    assertEquals(Set.of("web", "kb"), docs, "both retrievers' copies are cited");

    String all = p.sources().stream().map(Source::text).collect(Collectors.joining("\n"));
    assertTrue(all.contains("330 metres") && all.contains("324 metres"), "both numbers kept: " + all);
    assertTrue(p.budget().used() <= budget, "used " + p.budget().used());
    assertTrue(Tokenizers.defaultTokenizer().count(p.prompt()) <= budget);
    assertTrue(p.trace().stream().anyMatch(d -> d.rule().equals("given")), "the trace says the candidates were given");
  }

  @Test
  void samePackForTheSameInput() throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    PackOptions o = PackOptions.builder().budget(500).build();
    String q = "How tall is the Eiffel Tower?";
    assertEquals(packer.pack(q, given(), o).prompt(), packer.pack(q, given(), o).prompt());
  }

  @Test
  void noEvidenceGivesAPromptWithoutSources() throws Exception {
    ContextPackage p = EvidencePacker.builder().build().pack("Quem construiu a torre?", List.of(),
        PackOptions.builder().budget(400).build());
    assertTrue(p.sources().isEmpty());
    assertTrue(p.prompt().contains("Quem construiu a torre?"));
  }
}
