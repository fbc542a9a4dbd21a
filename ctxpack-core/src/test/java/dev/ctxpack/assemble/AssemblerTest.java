package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import static dev.ctxpack.assemble.AssembleFixtures.coffeeCandidates;
import static dev.ctxpack.assemble.AssembleFixtures.packer;
import static dev.ctxpack.assemble.AssembleFixtures.recount;
import static dev.ctxpack.assemble.AssembleFixtures.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Decision;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.token.ModelProfile;
import dev.ctxpack.token.ModelProfiles;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AssemblerTest {
  private final ModelProfile gpt4o = ModelProfiles.builtIn().get("gpt-4o");
  private final Tokenizer tok = gpt4o.tokenizerInstance();

  private static List<Turn> conversation(int pairs, int wordsEach) {
    List<Turn> out = new ArrayList<>();
    for (int i = 0; i < pairs; i++) {
      out.add(Turn.of("user", ("question " + i + " about the roast ").repeat(wordsEach / 5 + 1)));
      out.add(Turn.of("assistant", ("answer " + i + " on beans and heat ").repeat(wordsEach / 6 + 1)));
    }
    return out;
  }

  @Test
  void messagesComeInOrderAndTheBudgetIsTheExactCountOfWhatIsSent() throws Exception {
    Assembler a = Assembler.builder().packer(packer(coffeeCandidates())).build();
    AssembleRequest r = AssembleRequest.builder(gpt4o).system("You are a coffee expert.")
        .tools(List.of(tool("get_weather", "Weather of a city", false), tool("roast_profile", "Roast curve of a bean", false)))
        .history(conversation(2, 20)).fewShot(List.of(new FewShot("How long is a light roast?", "About ten minutes.")))
        .memories(List.of(new Memory("m1", "ana", Memory.Kind.FACT, "Prefers dark roasts.", "", 0)))
        .query("How hot is coffee roasted?").retrieval(PackOptions.defaults()).build();
    Assembly out = a.assemble(r);
    List<String> roles = out.messages().stream().map(m -> m.turn().role() + ":" + m.component().key()).toList();
    assertThat(roles).containsExactly("system:system", "system:memories", "user:fewShot", "assistant:fewShot",
        "user:history", "assistant:history", "user:history", "assistant:history", "user:query");
    assertThat(out.tools()).hasSize(2);
    assertThat(out.evidence()).isPresent();
    String last = out.messages().get(out.messages().size() - 1).turn().content();
    assertThat(last).contains("How hot is coffee roasted?").contains("id=\"S1\"").contains("200 degrees");
    assertThat(out.budget().used()).isEqualTo(recount(out, tok));
    assertThat(out.budget().byComponent().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(out.budget().used());
    assertThat(out.budget().limit()).isEqualTo(128_000 - 4_000);
    assertThat(out.budget().get(Component.EVIDENCE)).isPositive();
    assertThat(out.budget().get(Component.QUERY))
        .isEqualTo(MessageCost.of("How hot is coffee roasted?", tok) + MessageCost.REPLY_PRIMING);
    assertThat(out.waste()).isEmpty();
  }

  @Test
  void pinnedPartsOverTheLimitAreAClearErrorNamingEachPart() {
    Assembler a = Assembler.builder().build();
    AssembleRequest r = AssembleRequest.builder(gpt4o).window(300).reserve(100).system("rule ".repeat(400))
        .query("hi").build();
    assertThatThrownBy(() -> a.assemble(r)).isInstanceOf(PinnedOverLimitException.class)
        .hasMessageContaining("over the limit of 200").hasMessageContaining("system").hasMessageContaining("query");
  }

  @Test
  void theOldestTurnsGoFirstAndEachDropIsTraced() throws Exception {
    Assembler a = Assembler.builder().build();
    List<Turn> history = conversation(30, 60);
    AssembleRequest r = AssembleRequest.builder(gpt4o).window(2_000).reserve(500).system("Be brief.")
        .history(history).query("and now?").build();
    Assembly out = a.assemble(r);
    assertThat(out.budget().used()).isLessThanOrEqualTo(1_500).isEqualTo(recount(out, tok));
    assertThat(out.history().compacted()).isTrue();
    List<Turn> sent = out.messages().stream().filter(m -> m.component() == Component.HISTORY).map(Assembly.Message::turn).toList();
    // What is sent is the newest part of the conversation, verbatim.
    assertThat(sent).isEqualTo(history.subList(history.size() - sent.size(), history.size()));
    assertThat(sent.get(0).role()).isEqualTo("user");
    long drops = out.trace().stream().filter(d -> d.stage() == Stage.HISTORY && d.action() == Action.DROP).count();
    assertThat(drops).isEqualTo(history.size() - sent.size());
    assertThat(out.history().dropped()).isEqualTo(history.size() - sent.size());
  }

  @Test
  void onceATurnIsLeftOutTheHistorySentStartsAtAUserTurn() throws Exception {
    List<Turn> history = new ArrayList<>();
    history.add(Turn.of("user", "first question " + "about roasting ".repeat(40)));
    for (int i = 0; i < 6; i++) history.add(Turn.of("assistant", "part " + i + " of a long answer ".repeat(20)));
    history.add(Turn.of("user", "second question"));
    history.add(Turn.of("assistant", "short answer"));
    Assembly out = Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).window(600).reserve(100)
        .history(history).query("third?").build());
    List<Turn> sent = out.messages().stream().filter(m -> m.component() == Component.HISTORY).map(Assembly.Message::turn).toList();
    // Dropping only the first question would have left answers without it: they go too.
    assertThat(sent).containsExactly(history.get(7), history.get(8));
    assertThat(out.trace().stream().filter(d -> d.reason().contains("starts at a user turn")).count()).isPositive();
  }

  @Test
  void aPinnedTurnStaysAndAToolResultNeverTravelsWithoutItsCall() throws Exception {
    List<Turn> history = new ArrayList<>();
    history.add(new Turn("user", "My account number is 42.", "", "", "", true));
    history.addAll(conversation(10, 80));
    history.add(new Turn("assistant", "", "", "", "[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}]", false));
    history.add(new Turn("tool", "result ".repeat(50), "lookup", "call_1", "", false));
    history.addAll(conversation(3, 80));
    Assembly out = Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).window(1_500).reserve(200)
        .history(history).query("what is my account?").build());
    List<Turn> sent = out.messages().stream().map(Assembly.Message::turn).toList();
    assertThat(sent.get(0).content()).isEqualTo("My account number is 42.");
    for (int i = 0; i < sent.size(); i++) {
      if (sent.get(i).isToolResult()) assertThat(sent.get(i - 1).toolCallsJson()).contains(sent.get(i).toolCallId());
    }
    assertThat(out.budget().used()).isLessThanOrEqualTo(1_300);
  }

  @Test
  void toolsGoInRankOrderUntilTheirCapAndPinnedOnesAlways() throws Exception {
    List<ToolSpec> tools = new ArrayList<>();
    for (int i = 0; i < 10; i++) tools.add(tool("tool_" + i, "does thing number " + i, i == 9));
    int each = tok.count(tools.get(0).schemaJson());
    // A ranker that reverses the request order: tool_9 (pinned) is first anyway.
    ToolRanker reverse = new ToolRanker() {
      @Override
      public List<Ranked> rank(String query, List<ToolSpec> ts) {
        List<Ranked> out = new ArrayList<>();
        for (int i = ts.size() - 1; i >= 0; i--) out.add(new Ranked(ts.get(i), i));
        return out;
      }

      @Override
      public String id() {
        return "reverse";
      }
    };
    Assembler a = Assembler.builder().toolRanker(reverse).build();
    AssembleRequest r = AssembleRequest.builder(gpt4o).tools(tools).query("q")
        .limit(Component.TOOLS, ComponentLimit.defaults(Component.TOOLS).withCap(each * 3 + 2)).build();
    Assembly out = a.assemble(r);
    // Request order in what is sent; the ranker's choice: tool_9 (pinned), then tool_8 and tool_7.
    assertThat(out.tools().stream().map(ToolSpec::name)).containsExactly("tool_7", "tool_8", "tool_9");
    assertThat(out.budget().get(Component.TOOLS)).isEqualTo(3 * each);
    assertThat(out.trace().stream().filter(d -> d.stage() == Stage.TOOLS && d.action() == Action.DROP)).hasSize(7);
  }

  @Test
  void aFloorIsSetAsideAndACapIsNeverPassed() throws Exception {
    Assembler a = Assembler.builder().build();
    List<FewShot> examples = new ArrayList<>();
    for (int i = 0; i < 20; i++) examples.add(new FewShot("example question " + i + " on roasting", "answer " + i));
    AssembleRequest r = AssembleRequest.builder(gpt4o).window(1_200).reserve(200).history(conversation(40, 30))
        .fewShot(examples).query("how do I roast?")
        .limit(Component.FEW_SHOT, new ComponentLimit(150, 200, 40, false)).build();
    Assembly out = a.assemble(r);
    assertThat(out.budget().get(Component.FEW_SHOT)).isGreaterThan(100).isLessThanOrEqualTo(200);
    assertThat(out.budget().used()).isLessThanOrEqualTo(1_000);
  }

  @Test
  void aComponentOverThirtyPercentOfTheWindowIsFlaggedWithWhatWouldShrinkIt() throws Exception {
    Assembly out = Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).window(4_000).reserve(500)
        .history(conversation(30, 40)).query("so?").build());
    assertThat(out.waste()).singleElement().satisfies(f -> {
      assertThat(f.component()).isEqualTo(Component.HISTORY);
      assertThat(f.share()).isGreaterThan(0.30);
      assertThat(f.shrink()).contains("limits.history.cap");
    });
  }

  @Test
  void fewShotExamplesMostLikeTheQueryAreChosenAndSentClosestLast() throws Exception {
    List<FewShot> examples = List.of(new FewShot("Qual é a capital da França?", "Paris."),
        new FewShot("Como torrar café em casa?", "Numa frigideira, mexendo sempre."),
        new FewShot("What is the boiling point of water?", "100 °C at sea level."),
        new FewShot("Quanto tempo dura a torra do café?", "De dez a quinze minutos."));
    int two = examples.get(1).cost(tok) + examples.get(3).cost(tok);
    Assembly out = Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).fewShot(examples)
        .query("Quanto tempo leva para torrar café?")
        .limit(Component.FEW_SHOT, ComponentLimit.defaults(Component.FEW_SHOT).withCap(two)).build());
    List<String> inputs = out.messages().stream().filter(m -> m.component() == Component.FEW_SHOT && m.turn().role().equals("user"))
        .map(m -> m.turn().content()).toList();
    assertThat(inputs).containsExactly("Como torrar café em casa?", "Quanto tempo dura a torra do café?");
  }

  @Test
  void memoriesAreOneSystemMessageInTheQueryLanguageAndARecallNeedsAStore() throws Exception {
    List<Memory> ms = List.of(new Memory("m1", "ana", Memory.Kind.FACT, "Prefere respostas curtas.", "", 0),
        new Memory("m2", "ana", Memory.Kind.EPISODE, "Perguntou sobre torra escura ontem.", "", 0));
    Assembly out = Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).memories(ms)
        .query("E a torra média, como fica o sabor do café?").build());
    String text = out.messages().get(0).turn().content();
    assertThat(text).startsWith("O que você lembra").contains("- Prefere respostas curtas.").contains("- Perguntou sobre");
    assertThatThrownBy(() -> Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).recall("ana", 5).query("x").build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no memory store");
  }

  /** A store kept in a list: the facts of a user, then the episodes sharing a word with the query. */
  static final class ListStore implements MemoryStore {
    final List<Memory> all = new ArrayList<>();
    String lastQuery;

    @Override
    public Memory add(String user, Memory.Kind kind, String text) {
      Memory m = new Memory("mem-" + all.size(), user, kind, text, "", 0);
      all.add(m);
      return m;
    }

    @Override
    public List<Memory> list(String user) {
      return all.stream().filter(m -> m.user().equals(user)).toList();
    }

    @Override
    public boolean delete(String user, String id) {
      return all.removeIf(m -> m.user().equals(user) && m.id().equals(id));
    }

    @Override
    public List<Memory> recall(String user, String query, int k) {
      lastQuery = query;
      List<Memory> out = new ArrayList<>();
      list(user).stream().filter(m -> m.kind() == Memory.Kind.FACT).limit(k).forEach(m -> out.add(m.withScore(1)));
      list(user).stream().filter(m -> m.kind() == Memory.Kind.EPISODE && m.text().contains(query.split(" ")[0])).limit(k)
          .forEach(m -> out.add(m.withScore(0.5)));
      return out;
    }

    @Override
    public void close() {}
  }

  @Test
  void aUsersMemoriesAreRecalledForTheQueryAfterTheInlineOnes() throws Exception {
    ListStore store = new ListStore();
    store.add("ana", Memory.Kind.FACT, "Prefers short answers.");
    store.add("bob", Memory.Kind.FACT, "Bob's secret preference.");
    store.add("ana", Memory.Kind.EPISODE, "Asked about espresso grind last week.");
    store.add("ana", Memory.Kind.EPISODE, "Asked about tea.");
    Assembly out = Assembler.builder().memoryStore(store).build().assemble(AssembleRequest.builder(gpt4o)
        .memories(List.of(new Memory("inline", "ana", Memory.Kind.FACT, "Lives in Porto.", "", 0)))
        .recall("ana", 3).query("espresso grind size?").build());
    String text = out.messages().get(0).turn().content();
    assertThat(text).isEqualTo(MemoryBlock.header(dev.ctxpack.model.Language.EN)
        + "\n- Lives in Porto.\n- Prefers short answers.\n- Asked about espresso grind last week.");
    assertThat(store.lastQuery).isEqualTo("espresso grind size?");
    assertThat(out.trace().stream().filter(d -> d.action() == Action.RECALL).findFirst().orElseThrow().ids())
        .containsExactly("mem-0", "mem-2");
  }

  @Test
  void evidenceIsCappedByItsLimitAndItsLabelsAreTheOnesInTheMessage() throws Exception {
    Assembler a = Assembler.builder().packer(packer(coffeeCandidates())).build();
    Assembly out = a.assemble(AssembleRequest.builder(gpt4o).query("How are beans roasted?")
        .retrieval(PackOptions.defaults()).limit(Component.EVIDENCE, ComponentLimit.defaults(Component.EVIDENCE).withCap(260)).build());
    assertThat(out.budget().get(Component.EVIDENCE)).isPositive().isLessThanOrEqualTo(260);
    // A large free window does not inflate the evidence past its retrieval budget.
    List<Candidate> many = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      many.add(AssembleFixtures.candidate("k" + i, "doc" + i, 0, "Roast batch " + i + " reached " + (180 + i)
          + " degrees after " + (8 + i % 7) + " minutes, and the beans were cooled in a tray for " + (2 + i % 4) + " minutes.", 1.0 - i / 100.0));
    }
    Assembly capped = Assembler.builder().packer(packer(many)).build().assemble(AssembleRequest.builder(gpt4o)
        .query("How long are beans roasted?").retrieval(PackOptions.builder().budget(500).build()).build());
    assertThat(capped.budget().get(Component.EVIDENCE)).isPositive().isLessThanOrEqualTo(500);
    String last = out.messages().get(out.messages().size() - 1).turn().content();
    out.evidence().orElseThrow().sources().forEach(s -> assertThat(last).contains("id=\"" + s.label() + "\""));
    assertThat(out.trace().stream().map(Decision::stage)).contains(Stage.OPTIONS, Stage.RENDER, Stage.ASSEMBLE);
    // No room for the instructions: the query goes alone, and the trace says why.
    Assembly none = a.assemble(AssembleRequest.builder(gpt4o).query("How are beans roasted?")
        .retrieval(PackOptions.defaults()).limit(Component.EVIDENCE, ComponentLimit.defaults(Component.EVIDENCE).withCap(20)).build());
    assertThat(none.evidence()).isEmpty();
    assertThat(none.messages().get(none.messages().size() - 1).turn().content()).isEqualTo("How are beans roasted?");
    assertThat(none.trace().stream().map(Decision::rule)).contains("evidence:too-small");
    assertThatThrownBy(() -> Assembler.builder().build().assemble(AssembleRequest.builder(gpt4o).query("q")
        .retrieval(PackOptions.defaults()).build())).hasMessageContaining("no index");
  }
}
