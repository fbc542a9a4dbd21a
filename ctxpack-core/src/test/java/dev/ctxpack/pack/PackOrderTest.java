package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import static dev.ctxpack.pack.DefaultContextPackerTest.candidate;
import static dev.ctxpack.pack.DefaultContextPackerTest.packer;
import static dev.ctxpack.pack.DefaultContextPackerTest.randomCandidates;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Source;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Ordering inside the packer: whole blocks, the new orders, and the key passage repeated at the end. */
// Budgets are filled as before the relevance line (minRelevance 0): these tests are about other stages;
// RelevanceLineTest covers the line.
class PackOrderTest {
  private static final Tokenizer TOK = Tokenizers.defaultTokenizer();

  private static final List<Candidate> RIVERS = List.of(
      candidate("rhine#0", "rhine", 0, "The Rhine is 1,230 km long. It rises in the Swiss Alps and flows into the North Sea"
          + " near Rotterdam. Its basin covers parts of nine countries.", 0.95),
      candidate("danube#0", "danube", 0, "The Danube is 2,850 km long and flows into the Black Sea. It passes through"
          + " ten countries, more than any other river.", 0.90),
      candidate("elbe#0", "elbe", 0, "The Elbe rises in the Czech Republic and reaches the North Sea at Cuxhaven.", 0.80),
      candidate("coffee#0", "coffee", 0, "Coffee beans are roasted before they are ground and brewed.", 0.40),
      candidate("tea#0", "tea", 0, "Green tea is steamed or pan-fired soon after picking.", 0.30));

  private static PackOptions plain() {
    return PackOptions.builder().minRelevance(0).compress(false).injection(InjectionPolicy.OFF).budget(2000).build();
  }

  @Test
  void lostInTheMiddlePutsTheStrongestBlocksFirstAndLastEachWhole() throws Exception {
    ContextPackage p = packer(RIVERS).pack("How long is the Rhine?", plain().toBuilder().mmr(false).build());
    List<Source> s = p.sources();
    assertThat(s).hasSize(5);
    assertThat(s.get(0).passage()).isEqualTo("rhine#0");
    assertThat(s.get(s.size() - 1).passage()).isEqualTo("danube#0");
    assertThat(s.get(1).passage()).isEqualTo("elbe#0");
    assertThat(s.get(2).passage()).isEqualTo("tea#0"); // the weakest in the middle
    // Each block holds its whole text in one fence: a block is never split.
    for (Source x : s) {
      assertThat(p.prompt()).contains("<source id=\"" + x.label() + "\"");
      String fenced = p.prompt().substring(p.prompt().indexOf("<source id=\"" + x.label() + "\""));
      fenced = fenced.substring(fenced.indexOf(">\n") + 2, fenced.indexOf("\n</source>"));
      assertThat(fenced).isEqualTo(x.text());
    }
    assertThat(p.trace()).anySatisfy(d -> {
      assertThat(d.stage()).isEqualTo(Stage.ORDER);
      assertThat(d.rule()).isEqualTo("lost-in-the-middle");
    });
  }

  @Test
  void topicAndPositionOrdersRunInThePackerAndTheTraceNamesThem() throws Exception {
    ContextPackage topic = packer(RIVERS).pack("How long is the Rhine?", plain().toBuilder().mmr(false).order(OrderMode.TOPIC).build());
    assertThat(topic.sources()).extracting(Source::passage)
        .containsExactly("rhine#0", "danube#0", "elbe#0", "coffee#0", "tea#0");
    assertThat(topic.trace()).anySatisfy(d -> assertThat(d.rule() + " " + d.reason()).startsWith("topic ordered 5"));
    assertThat(topic.trace()).anySatisfy(d -> assertThat(d.reason()).contains("order=topic"));

    ContextPackage position = packer(RIVERS).pack("How long is the Rhine?", plain().toBuilder().mmr(false).order(OrderMode.POSITION).build());
    // One date for all: by URI (file:///coffee ... file:///tea).
    assertThat(position.sources()).extracting(Source::passage)
        .containsExactly("coffee#0", "danube#0", "elbe#0", "rhine#0", "tea#0");
    assertThat(position.trace()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("position"));
  }

  @Test
  void topicUsesThePackersPassageVectorsWhenItHasThem() throws Exception {
    Map<String, float[]> v = new HashMap<>();
    v.put("rhine#0", new float[] {1, 0});
    v.put("danube#0", new float[] {0, 1}); // a vector says the Danube is off the Rhine's topic
    v.put("elbe#0", new float[] {0.9f, 0.1f});
    v.put("coffee#0", new float[] {0.1f, 0.9f});
    v.put("tea#0", new float[] {0, 1});
    Retriever fixed = (q, o, t) -> RIVERS;
    DefaultContextPacker packer = DefaultContextPacker.builder().retriever(fixed)
        .vectors(passages -> {
          Map<String, float[]> out = new HashMap<>();
          passages.forEach(x -> out.put(x.id(), v.get(x.id())));
          return out;
        }).build();
    ContextPackage p = packer.pack("How long is the Rhine?", plain().toBuilder().mmr(false).dedup(false).order(OrderMode.TOPIC).build());
    assertThat(p.sources()).extracting(Source::passage).containsExactly("rhine#0", "elbe#0", "danube#0", "coffee#0", "tea#0");
    assertThat(p.trace()).anySatisfy(d -> assertThat(d.reason()).contains("vector cosine"));
  }

  private static final Pattern KEY = Pattern.compile(
      "\n(Key passage \\(repeated from (S\\d+)\\)|Trecho principal \\(repetido de (S\\d+)\\)):\n<(source[^ ]*) id=\"(S\\d+)\">\n(.*?)\n</\\4>\n",
      Pattern.DOTALL);

  @Test
  void theKeyPassageIsRepeatedBeforeTheQuestionUnderItsLabelAndPaidFromTheBudget() throws Exception {
    for (InjectionPolicy policy : List.of(InjectionPolicy.OFF, InjectionPolicy.FLAG)) {
      PackOptions o = plain().toBuilder().injection(policy).repeatKey(true).build();
      ContextPackage p = packer(RIVERS).pack("How long is the Rhine?", o);
      Matcher m = KEY.matcher(p.prompt());
      assertThat(m.find()).as(p.prompt()).isTrue();
      String label = m.group(2);
      Source s1 = p.sources().stream().filter(s -> s.label().equals(label)).findFirst().orElseThrow();
      assertThat(s1.passage()).isEqualTo("rhine#0"); // the strongest
      assertThat(m.group(5)).isEqualTo(label);
      // Its best sentence, verbatim: the one that answers, not the whole source.
      assertThat(m.group(6)).isEqualTo("The Rhine is 1,230 km long.");
      assertThat(s1.text()).contains(m.group(6));
      // After every source block, before the question; fenced with the request's own tag.
      String tag = m.group(4);
      assertThat(p.prompt().lastIndexOf("</" + tag + ">\n\nQUESTION")).isEqualTo(m.end() - tag.length() - 4);
      int lastSource = p.prompt().lastIndexOf("<" + tag + " id=\"" + p.sources().get(p.sources().size() - 1).label() + "\"", m.start());
      assertThat(lastSource).isPositive(); // the sources' own fence tag
      assertThat(p.prompt().indexOf("</" + tag + ">", lastSource)).isLessThan(m.start());
      // The budget holds exactly and the key is its own component.
      int counted = TOK.count(p.prompt());
      assertThat(counted).isEqualTo(p.budget().used()).isLessThanOrEqualTo(p.budget().limit());
      assertThat(p.budget().byComponent().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(counted);
      assertThat(p.budget().byComponent()).containsKey("key");
      assertThat(p.budget().byComponent().get("key")).isEqualTo(TOK.count(m.group()));
      Decision d = p.trace().stream().filter(x -> x.action() == Action.REPEAT_KEY).findFirst().orElseThrow();
      assertThat(d.ids()).containsExactly(label, "rhine#0");
      assertThat(d.reason()).contains("[0, 27)").contains(TOK.count(m.group()) + " tokens");
    }
    ContextPackage off = packer(RIVERS).pack("How long is the Rhine?", plain());
    assertThat(KEY.matcher(off.prompt()).find()).isFalse();
    assertThat(off.budget().byComponent()).doesNotContainKey("key");
  }

  @Test
  void thePortugueseTemplateGetsThePortugueseHeader() throws Exception {
    List<Candidate> pt = List.of(
        candidate("amazonas#0", "amazonas", 0, "O rio Amazonas tem cerca de 6.400 km. Ele nasce nos Andes peruanos e"
            + " deságua no oceano Atlântico.", 0.9),
        candidate("sf#0", "sf", 0, "O rio São Francisco atravessa cinco estados brasileiros.", 0.7));
    ContextPackage p = packer(pt).pack("Qual é o comprimento do rio Amazonas?", plain().toBuilder().repeatKey(true).build());
    Matcher m = KEY.matcher(p.prompt());
    assertThat(m.find()).as(p.prompt()).isTrue();
    assertThat(m.group(1)).startsWith("Trecho principal (repetido de S1)");
    assertThat(m.group(6)).isEqualTo("O rio Amazonas tem cerca de 6.400 km.");
    assertThat(p.prompt()).contains(m.group() + "\nPERGUNTA\n");
  }

  @Test
  void underCompressionAndThePiiGuardTheKeyIsTheRedactedGuardedText() throws Exception {
    List<Candidate> c = List.of(
        candidate("a#0", "a", 0, "Write to ana@example.com for the Rhine data. The Rhine is 1,230 km long.", 0.9),
        candidate("b#0", "b", 0, "The Elbe reaches the North Sea at Cuxhaven.", 0.5));
    ContextPackage p = packer(c).pack("Who has the Rhine data?",
        PackOptions.builder().minRelevance(0).repeatKey(true).redactPii(dev.ctxpack.pii.RedactionOptions.all()).build());
    Matcher m = KEY.matcher(p.prompt());
    assertThat(m.find()).as(p.prompt()).isTrue();
    assertThat(p.prompt()).doesNotContain("ana@example.com");
    assertThat(m.group(6)).contains("[EMAIL_1]");
    assertThat(m.group(4)).startsWith("source-").hasSize("source-".length() + 12);
  }

  @Test
  void whenNothingCanBeRepeatedTheTraceSaysSoAndThePromptHasNoKey() throws Exception {
    Retriever fixed = (q, o, t) -> RIVERS;
    DefaultContextPacker packer = DefaultContextPacker.builder().retriever(fixed)
        .compressor((q, in, o) -> new dev.ctxpack.compress.Compression(List.of(), List.of(), 0, 0)).build();
    ContextPackage p = packer.pack("How long is the Rhine?", plain().toBuilder().repeatKey(true).build());
    assertThat(KEY.matcher(p.prompt()).find()).isFalse();
    assertThat(p.budget().byComponent()).doesNotContainKey("key");
    assertThat(p.trace()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("repeat-key:none"));
    assertThat(TOK.count(p.prompt())).isEqualTo(p.budget().used()).isLessThanOrEqualTo(p.budget().limit());
  }

  @Property(tries = 60)
  void withTheKeyTheRenderedPromptNeverExceedsTheBudget(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
      @ForAll @IntRange(min = 150, max = 2500) int budget) throws Exception {
    List<Candidate> cands = randomCandidates(seed, 30);
    ContextPackage p;
    try {
      p = packer(cands).pack("what about roasted coffee?", PackOptions.builder().minRelevance(0).budget(budget).repeatKey(true)
          .fallback(Strategy.STUFF).build());
    } catch (BudgetTooSmallException e) {
      return;
    }
    int counted = TOK.count(p.prompt());
    assertThat(counted).isEqualTo(p.budget().used()).isLessThanOrEqualTo(budget);
    assertThat(p.budget().byComponent().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(counted);
    boolean keyed = p.trace().stream().anyMatch(d -> d.action() == Action.REPEAT_KEY);
    assertThat(keyed).isEqualTo(p.budget().byComponent().containsKey("key"));
    if (!p.sources().isEmpty()) {
      boolean skipped = p.trace().stream().anyMatch(d -> d.rule().equals("repeat-key:budget"));
      assertThat(keyed || skipped || p.trace().stream().noneMatch(d -> d.stage() == Stage.ORDER && d.action() == Action.REPEAT_KEY))
          .isTrue();
    }
  }
}
