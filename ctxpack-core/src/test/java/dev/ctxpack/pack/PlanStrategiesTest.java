package dev.ctxpack.pack;

import static dev.ctxpack.pack.DefaultContextPackerTest.packer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Span;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Map-reduce, refine and tree plans: sizes, labels, wording, the fallback rule and the offline run. */
// Budgets are filled as before the relevance line (minRelevance 0): these tests are about other stages;
// RelevanceLineTest covers the line.
class PlanStrategiesTest {
  private static final Tokenizer TOK = Tokenizers.defaultTokenizer();
  private static final String[] PLACES = {"Lisbon", "Porto", "Braga", "Coimbra", "Faro", "Évora", "Aveiro", "Viseu",
      "Leiria", "Setúbal", "Funchal", "Guarda", "Tomar", "Sintra", "Cascais", "Amadora", "Almada", "Barreiro"};
  private static final String[] FILLER = {"The town hall opened a new library.", "Tourists visit the castle in summer.",
      "A football match drew a large crowd.", "The bakery sells custard tarts every morning.",
      "Local artists painted murals near the station."};

  /** The labels a step reads, itself or through the steps whose outputs it sees. */
  private static java.util.Set<String> covered(PlanStep s, Map<Integer, PlanStep> byNumber) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (String seen : s.sees()) {
      if (seen.startsWith("step:")) out.addAll(covered(byNumber.get(Integer.parseInt(seen.substring(5))), byNumber));
      else out.add(seen);
    }
    return out;
  }

  /** One document per place, each stating a distinct harvest figure for coffee roasting: all relevant to the query. */
  static List<Candidate> corpus(int docs, boolean sections) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < docs; i++) {
      String place = PLACES[i % PLACES.length];
      StringBuilder sb = new StringBuilder();
      sb.append("In ").append(place).append(", coffee roasting plants processed ").append(1200 + 37 * i)
          .append(" tonnes of roasted coffee beans in ").append(1990 + i).append(". ");
      sb.append("The coffee roasting season in ").append(place).append(" lasts ").append(3 + i % 5)
          .append(" months and roasted coffee exports grew by ").append(4 + i).append(" percent. ");
      sb.append(FILLER[i % FILLER.length]).append(' ');
      sb.append("Roasting coffee in ").append(place).append(" employs ").append(300 + 11 * i).append(" people. ");
      String text = sb.toString().strip();
      String section = sections ? (i % 3 == 0 ? "Harvest" : "Exports") : "";
      String docId = sections ? "doc" + (i / 3) : "doc" + i;
      Chunk c = new Chunk(docId + "#" + i, docId, new Span(i * 1000, i * 1000 + text.length()), text, section, 0, TOK.count(text));
      out.add(new Candidate(c, new DocInfo(docId, "file:///" + docId, "Coffee in " + place, Language.EN, Map.of()),
          Scores.of(Signal.FUSED, 1.0 / (i + 1))));
    }
    return out;
  }

  private static final String QUERY = "How much roasted coffee did the coffee roasting plants process?";

  /** {@code s} at {@code budget}, a stuff request staying one prompt (no fallback), to compare strategies as they are. */
  private static ContextPackage plan(Strategy s, int budget, List<Candidate> c) throws Exception {
    return packer(c).pack(QUERY, PackOptions.builder().minRelevance(0).budget(budget).strategy(s).fallback(Strategy.STUFF).build());
  }

  /** The prompt with each placeholder replaced by text of exactly its step's bound. */
  private static String filledAtBounds(PlanStep step, Map<Integer, PlanStep> byNumber) {
    Matcher m = Pattern.compile("\\{\\{step:(\\d+)\\}\\}").matcher(step.prompt());
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      int bound = byNumber.get(Integer.parseInt(m.group(1))).maxOutput();
      m.appendReplacement(sb, Matcher.quoteReplacement(" word".repeat(bound).strip() + " [S1]".repeat(0)));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static void assertWellFormed(ContextPackage p, int budget) {
    Map<Integer, PlanStep> byNumber = new HashMap<>();
    for (PlanStep s : p.plan()) byNumber.put(s.step(), s);
    Set<String> seenLabels = new HashSet<>();
    for (int i = 0; i < p.plan().size(); i++) {
      PlanStep s = p.plan().get(i);
      assertThat(s.step()).isEqualTo(i + 1);
      assertThat(s.tokens()).isLessThanOrEqualTo(budget);
      // Every call fits with its inputs at their bounds, counted exactly.
      assertThat(TOK.count(filledAtBounds(s, byNumber))).isLessThanOrEqualTo(budget);
      for (String seen : s.sees()) {
        if (seen.startsWith("step:")) {
          int n = Integer.parseInt(seen.substring(5));
          assertThat(n).isLessThan(s.step());
          assertThat(s.prompt()).contains(PlanStep.placeholder(n));
          assertThat(byNumber.get(n).maxOutput()).isGreaterThanOrEqualTo(PlanBuilder.MIN_NOTE);
        } else {
          assertThat(seenLabels.add(seen)).as("each source is read by one step").isTrue();
          assertThat(s.prompt()).contains("id=\"" + seen + "\"");
        }
      }
      if (i < p.plan().size() - 1) {
        assertThat(s.maxOutput()).isPositive();
        // Intermediate steps keep the labels, and their citation example names only a label the step sees.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[(S\\d+)\\]").matcher(s.prompt());
        boolean readsSources = s.sees().stream().anyMatch(x -> !x.startsWith("step:"));
        assertThat(s.prompt().contains("for example [") || s.prompt().contains("por exemplo [")).isEqualTo(readsSources);
        java.util.Set<String> covered = covered(s, byNumber);
        while (m.find()) assertThat(covered).as("step " + s.step() + " cites " + m.group(1)).contains(m.group(1));
      }
    }
    assertThat(seenLabels).containsExactlyInAnyOrderElementsOf(p.sources().stream().map(Source::label).toList());
    assertThat(p.prompt()).isEqualTo(p.plan().get(p.plan().size() - 1).prompt());
    assertThat(p.budget().used()).isLessThanOrEqualTo(budget);
    assertThat(p.budget().byComponent().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(p.budget().used());
  }

  @Test
  void mapReduceGroupsSourcesByTheBudgetAndReducesOverBoundedNotes() throws Exception {
    List<Candidate> c = corpus(16, false);
    int budget = 700;
    ContextPackage stuff = plan(Strategy.STUFF, budget, c);
    ContextPackage p = plan(Strategy.MAP_REDUCE, budget, c);

    assertThat(p.strategy()).isEqualTo("map-reduce");
    assertThat(p.sources().size()).isGreaterThan(stuff.sources().size());
    assertThat(p.plan().size()).isBetween(3, PackOptions.DEFAULT_CALLS);
    assertWellFormed(p, budget);
    PlanStep last = p.plan().get(p.plan().size() - 1);
    assertThat(last.kind()).isEqualTo("reduce");
    assertThat(p.plan().subList(0, p.plan().size() - 1)).allSatisfy(s -> assertThat(s.kind()).isIn("map", "collapse"));
    // The final prompt is the template's, with every label range named and the notes fenced by step.
    assertThat(last.prompt()).contains(PromptTemplate.EN.abstention()).contains("SOURCES").contains("step=\"1\" sources=\"S1");
    // A map prompt asks for a word count derived from its bound.
    PlanStep first = p.plan().get(0);
    assertThat(first.prompt()).contains("Write at most " + Math.max(16, first.maxOutput() * 3 / 4) + " words");
  }

  @Test
  void moreCallsAllowedGatherMoreEvidenceAndTheCapIsKept() throws Exception {
    List<Candidate> c = corpus(18, false);
    ContextPackage few = packer(c).pack(QUERY, PackOptions.builder().minRelevance(0).budget(700).strategy(Strategy.MAP_REDUCE).maxCalls(3).build());
    ContextPackage many = packer(c).pack(QUERY, PackOptions.builder().minRelevance(0).budget(700).strategy(Strategy.MAP_REDUCE).maxCalls(12).build());
    assertThat(few.plan().size()).isLessThanOrEqualTo(3);
    assertThat(many.plan().size()).isLessThanOrEqualTo(12);
    assertThat(many.sources().size()).isGreaterThan(few.sources().size());
    assertWellFormed(few, 700);
    assertWellFormed(many, 700);
  }

  @Test
  void aSmallBudgetCollapsesNotesInMoreLevelsRatherThanOverflowing() throws Exception {
    List<Candidate> c = corpus(18, false);
    ContextPackage p = packer(c).pack(QUERY, PackOptions.builder().minRelevance(0).budget(450).strategy(Strategy.MAP_REDUCE)
        .maxCalls(30).build());
    assertWellFormed(p, 450);
    assertThat(p.plan()).extracting(PlanStep::kind).contains("collapse");
  }

  @Test
  void everyStrategyFitsEveryCallAcrossBudgetsAndCallCaps() throws Exception {
    List<Candidate> c = corpus(18, false);
    for (Strategy s : List.of(Strategy.MAP_REDUCE, Strategy.REFINE, Strategy.TREE)) {
      for (int budget : new int[] {420, 500, 650, 900, 1500}) {
        for (int calls : new int[] {2, 8, 20}) {
          ContextPackage p = packer(s == Strategy.TREE ? corpus(18, true) : c).pack(QUERY,
              PackOptions.builder().minRelevance(0).budget(budget).strategy(s).maxCalls(calls).build());
          assertThat(p.plan().size()).as(s + "@" + budget + "/" + calls).isLessThanOrEqualTo(calls);
          assertWellFormed(p, budget);
        }
      }
    }
  }

  @Test
  void refineCarriesTheDraftForwardThroughEveryCall() throws Exception {
    ContextPackage p = plan(Strategy.REFINE, 700, corpus(16, false));
    assertWellFormed(p, 700);
    assertThat(p.plan()).allSatisfy(s -> assertThat(s.kind()).isEqualTo("refine"));
    assertThat(p.plan().size()).isGreaterThan(1);
    for (int i = 1; i < p.plan().size(); i++) {
      assertThat(p.plan().get(i).sees().get(0)).isEqualTo("step:" + i);
      assertThat(p.plan().get(i).prompt()).contains("DRAFT");
    }
  }

  @Test
  void treeSummarisesSectionsThenDocumentsThenTheCollection() throws Exception {
    ContextPackage p = plan(Strategy.TREE, 900, corpus(9, true));
    assertWellFormed(p, 900);
    List<String> kinds = p.plan().stream().map(PlanStep::kind).toList();
    assertThat(kinds).contains("summarize-section", "summarize-document");
    assertThat(kinds.get(kinds.size() - 1)).isEqualTo("generate");
    // A section step reads sources of one document and one section only.
    Map<String, Source> byLabel = new HashMap<>();
    for (Source s : p.sources()) byLabel.put(s.label(), s);
    for (PlanStep s : p.plan()) {
      if (!s.kind().equals("summarize-section")) continue;
      assertThat(s.sees().stream().map(l -> byLabel.get(l).docId() + "/" + byLabel.get(l).section()).distinct()).hasSize(1);
    }
  }

  @Test
  void portugueseQueriesGetPortugueseSteps() throws Exception {
    ContextPackage p = packer(corpus(16, false)).pack("Quanto café torrado processaram as fábricas de coffee roasting?",
        PackOptions.builder().minRelevance(0).budget(700).strategy(Strategy.MAP_REDUCE).build());
    assertThat(p.plan().get(0).prompt()).contains("Leia as fontes").contains("FONTES").contains("PERGUNTA");
    assertThat(p.prompt()).contains(PromptTemplate.PT.abstention()).contains("As fontes foram lidas antes");
  }

  @Test
  void placeholderTextInsideASourceIsNeverFilled() throws Exception {
    List<Candidate> c = new ArrayList<>(corpus(6, false));
    Candidate first = c.get(0);
    String text = first.chunk().text() + " Coffee roasting note {{step:1}} here.";
    Chunk chunk = new Chunk(first.chunk().id(), first.chunk().docId(), new Span(0, text.length()), text, "", 0, TOK.count(text));
    c.set(0, new Candidate(chunk, first.doc(), first.scores()));
    ContextPackage p = packer(c).pack(QUERY, PackOptions.builder().minRelevance(0).budget(700).strategy(Strategy.MAP_REDUCE)
        .compress(false).build());
    PlanStep map = p.plan().get(0);
    assertThat(map.prompt()).doesNotContain("{{step:").contains("\uFF5B\uFF5Bstep:1}}");
    assertThat(p.sources().get(0).text()).contains("{{step:1}}"); // the source itself stays verbatim
  }

  @Test
  void aStuffRequestThatFitsIsUnchangedByTheFallback() throws Exception {
    List<Candidate> c = corpus(2, false);
    PackOptions o = PackOptions.builder().minRelevance(0).budget(2000).build();
    ContextPackage off = packer(c).pack(QUERY, o);
    ContextPackage on = packer(c).pack(QUERY, o.toBuilder().fallback(Strategy.MAP_REDUCE).build());
    assertThat(on.fallback()).isNull();
    assertThat(on.strategy()).isEqualTo("stuff");
    assertThat(on.prompt()).isEqualTo(off.prompt());
    assertThat(on.plan()).hasSize(1);
  }

  @Test
  void aStuffRequestWhoseRelevantEvidenceCannotFitFallsBackAndSaysWhy() throws Exception {
    List<Candidate> c = corpus(16, false);
    PackOptions o = PackOptions.builder().minRelevance(0).budget(600).fallback(Strategy.STUFF).build(); // no fallback
    ContextPackage off = packer(c).pack(QUERY, o);
    assertThat(off.fallback()).isNull();
    // The same request without fallback cut on-topic sentences for room: the evidence cannot fit.
    assertThat(off.trace()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("compress:budget"));

    ContextPackage on = packer(c).pack(QUERY, o.toBuilder().fallback(Strategy.MAP_REDUCE).build());
    assertThat(on.strategy()).isEqualTo("map-reduce");
    assertThat(on.fallback()).isNotNull();
    assertThat(on.fallback().relevantTokens()).isGreaterThan(600);
    assertThat(on.fallback().limit()).isEqualTo(600);
    assertThat(on.trace().get(0).action()).isEqualTo(Action.FALLBACK);
    assertThat(on.trace().get(0).reason()).contains(on.fallback().relevantTokens() + " tokens");
    assertWellFormed(on, 600);
  }

  /**
   * A stuff request whose evidence cannot fit falls back only to a plan that fits the limit: at a
   * limit too small for the fallback's collapse step, it stays one prompt within the limit and says
   * why, instead of failing (a stuff request the limit holds must never become an error).
   */
  @Test
  void aFallbackNoPlanFitsStaysOnePromptAndSaysWhy() throws Exception {
    List<Candidate> c = corpus(16, false);
    int found = 0;
    for (int budget = 300; budget <= 420; budget += 2) {
      PackOptions o = PackOptions.builder().minRelevance(0).budget(budget).fallback(Strategy.MAP_REDUCE).build();
      boolean plannable;
      try {
        packer(c).pack(QUERY, o.toBuilder().strategy(Strategy.MAP_REDUCE).build());
        plannable = true;
      } catch (PlanTooSmallException e) {
        plannable = false;
      }
      ContextPackage p = packer(c).pack(QUERY, o); // never an error: the stuff prompt fits
      assertThat(p.budget().used()).isLessThanOrEqualTo(budget);
      if (p.fallback() != null) {
        assertThat(plannable).as("budget %d fell back to a plan", budget).isTrue();
        continue;
      }
      boolean skipped = p.trace().stream().anyMatch(d -> d.stage() == Stage.PACK && d.action() == Action.SKIP
          && d.rule().equals("fallback:plan-too-small"));
      if (!skipped) continue;
      found++;
      assertThat(plannable).as("budget %d skipped a fallback that fits", budget).isFalse();
      assertThat(p.strategy()).isEqualTo("stuff");
    }
    assertThat(found).as("budgets where no map-reduce plan fits but the evidence does not fit one prompt").isPositive();
  }

  @Test
  void theFallbackRuleIsTheRelevantEvidenceAgainstTheLimit() throws Exception {
    List<Candidate> c = corpus(16, false);
    // Over: compression had to cut on-topic sentences for room, and what they need is over the limit.
    ContextPackage over = packer(c).pack(QUERY, PackOptions.builder().minRelevance(0).budget(600).fallback(Strategy.REFINE).build());
    assertThat(over.strategy()).isEqualTo("refine");
    assertThat(over.fallback().relevantTokens()).isGreaterThan(over.fallback().limit());
    // Under: a limit that holds every relevant sentence cuts none for room, and the request stays stuff, unchanged.
    PackOptions roomy = PackOptions.builder().minRelevance(0).budget(20_000).build();
    ContextPackage under = packer(c).pack(QUERY, roomy.toBuilder().fallback(Strategy.REFINE).build());
    assertThat(under.trace()).noneSatisfy(d -> assertThat(d.rule()).isEqualTo("compress:budget"));
    assertThat(under.fallback()).isNull();
    assertThat(under.prompt()).isEqualTo(packer(c).pack(QUERY, roomy).prompt());
  }

  @Test
  void theOfflineRunExtractsVerbatimLabelledNotesAndFillsTheFinalPrompt() throws Exception {
    List<Candidate> c = corpus(16, false);
    for (Strategy s : List.of(Strategy.MAP_REDUCE, Strategy.REFINE, Strategy.TREE)) {
      PackOptions o = PackOptions.builder().minRelevance(0).budget(700).strategy(s).build();
      DefaultContextPacker packer = packer(s == Strategy.TREE ? corpus(9, true) : c);
      ContextPackage p = packer.pack(QUERY, o);
      PlanExecutor.Execution e = packer.executor(null, o).execute(p);
      assertThat(e.llm()).isNull();
      assertThat(e.answer()).isNull();
      assertThat(e.calls()).isZero();
      assertThat(e.steps()).hasSize(p.plan().size());
      assertThat(e.steps().get(e.steps().size() - 1).by()).isEqualTo("pending");
      Map<String, String> text = new HashMap<>();
      for (Source src : p.sources()) text.put(src.label(), src.guard().promptText());
      for (int i = 0; i < e.steps().size() - 1; i++) {
        PlanExecutor.StepRun r = e.steps().get(i);
        assertThat(r.by()).isEqualTo("extractive");
        assertThat(r.tokensOut()).isLessThanOrEqualTo(p.plan().get(i).maxOutput());
        for (String line : r.output().split("\n")) {
          Matcher m = Pattern.compile("^(.*) \\[(S\\d+)\\]$").matcher(line);
          assertThat(m.matches()).as(line).isTrue();
          for (String piece : m.group(1).split("…")) {
            if (!piece.isBlank()) assertThat(text.get(m.group(2))).contains(piece.strip());
          }
        }
      }
      assertThat(e.finalPrompt()).doesNotContain("{{step:").contains("[S1]").contains("roasted coffee");
      assertThat(TOK.count(e.finalPrompt())).isLessThanOrEqualTo(700);
      assertThat(e.steps().get(e.steps().size() - 1).tokensIn()).isEqualTo(TOK.count(e.finalPrompt()));
    }
  }
}
