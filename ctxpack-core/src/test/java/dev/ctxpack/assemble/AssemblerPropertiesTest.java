package dev.ctxpack.assemble;

import static dev.ctxpack.assemble.AssembleFixtures.candidate;
import static dev.ctxpack.assemble.AssembleFixtures.packer;
import static dev.ctxpack.assemble.AssembleFixtures.recount;
import static dev.ctxpack.assemble.AssembleFixtures.tool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.token.ModelProfile;
import dev.ctxpack.token.ModelProfiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * Random requests (every component, random limits, pinned parts, retrieval on and off, tight
 * windows): the window is never over budget, pinned parts are always sent, and the same request
 * gives the same messages. jqwik prints the seed of a failing case.
 */
class AssemblerPropertiesTest {
  private static final String[] WORDS = {"café", "coffee", "roast", "torra", "bean", "grão", "água", "🌍", "<|endoftext|>",
      "the", "de", "temperature", "minutes", "minutos", "\n", "{\"x\": 1}", "tool", "weather", "data"};
  private static final List<ModelProfile> MODELS = List.copyOf(ModelProfiles.builtIn().all());

  private static String text(Random r, int maxWords) {
    int n = r.nextInt(maxWords + 1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) sb.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    return sb.toString().strip();
  }

  static AssembleRequest randomRequest(long seed) {
    Random r = new Random(seed);
    ModelProfile m = MODELS.get(r.nextInt(MODELS.size()));
    int window = 300 + r.nextInt(8_000);
    AssembleRequest.Builder b = AssembleRequest.builder(m).window(window).reserve(r.nextInt(Math.max(1, (int) (window * 0.6) / 3)));
    if (r.nextInt(4) > 0) b.system(text(r, 120));
    List<ToolSpec> tools = new ArrayList<>();
    int nTools = r.nextInt(12);
    for (int i = 0; i < nTools; i++) tools.add(tool("t" + i, text(r, 30).replace("\"", "'").replace("\n", " ").replace("\\", ""), r.nextInt(8) == 0));
    b.tools(tools);
    List<Turn> history = new ArrayList<>();
    int nTurns = r.nextInt(30);
    for (int i = 0; i < nTurns; i++) {
      boolean pinned = r.nextInt(12) == 0;
      switch (r.nextInt(5)) {
        case 0 -> {
          history.add(new Turn("assistant", "", "", "", "[{\"id\":\"call_" + i + "\",\"type\":\"function\",\"function\":"
              + "{\"name\":\"t0\",\"arguments\":\"{}\"}}]", false));
          history.add(new Turn("tool", text(r, 80), "t0", "call_" + i, "", pinned));
        }
        case 1, 2 -> history.add(new Turn("user", text(r, 60), "", "", "", pinned));
        default -> history.add(new Turn("assistant", text(r, 90), "", "", "", pinned));
      }
    }
    b.history(history);
    List<FewShot> examples = new ArrayList<>();
    for (int i = r.nextInt(6); i > 0; i--) examples.add(new FewShot(text(r, 20), text(r, 20)));
    b.fewShot(examples);
    List<Memory> memories = new ArrayList<>();
    for (int i = r.nextInt(5); i > 0; i--) {
      memories.add(new Memory("m" + i, "u", r.nextBoolean() ? Memory.Kind.FACT : Memory.Kind.EPISODE, text(r, 25), "", 0));
    }
    b.memories(memories);
    b.query(r.nextInt(10) == 0 && !history.isEmpty() ? "" : text(r, 30) + " coffee?");
    if (r.nextBoolean()) b.retrieval(PackOptions.builder().budget(50 + r.nextInt(3_000)).build());
    for (Component c : Component.values()) {
      if (r.nextInt(3) != 0) continue;
      int floor = r.nextInt(4) == 0 ? r.nextInt(400) : 0;
      int cap = r.nextBoolean() ? ComponentLimit.UNCAPPED : floor + r.nextInt(3_000);
      b.limit(c, new ComponentLimit(floor, cap, r.nextInt(101), r.nextInt(5) == 0 ? !ComponentLimit.defaults(c).pinned()
          : ComponentLimit.defaults(c).pinned()));
    }
    return b.build();
  }

  static List<Candidate> candidates(long seed) {
    Random r = new Random(seed ^ 0x5DEECE66DL);
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < 12; i++) out.add(candidate("c" + i, "d" + (i % 5), i * 1000, text(r, 90) + " roast.", 1.0 / (i + 1)));
    return out;
  }

  @Property(tries = 150)
  void neverOverBudgetAndPinnedPartsAlwaysSent(@ForAll @LongRange(min = 0, max = 10_000_000) long seed) throws Exception {
    AssembleRequest req = randomRequest(seed);
    Assembly out;
    try {
      out = Assembler.builder().packer(packer(candidates(seed))).build().assemble(req);
    } catch (PinnedOverLimitException e) {
      assertThat(e.required()).isGreaterThan(req.limit());
      assertThat(e.limit()).isEqualTo(req.limit());
      return;
    }
    var tok = req.model().tokenizerInstance();
    assertThat(out.budget().used()).isLessThanOrEqualTo(req.limit()).isEqualTo(recount(out, tok));
    assertThat(out.budget().byComponent().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(out.budget().used());
    assertThat(out.budget().limit()).isEqualTo(req.window() - req.reserve());
    List<Turn> sent = out.messages().stream().map(Assembly.Message::turn).toList();
    if (req.limit(Component.SYSTEM).pinned() && !req.system().isEmpty()) {
      assertThat(sent.get(0)).isEqualTo(Turn.of("system", req.system()));
    }
    if (req.limit(Component.QUERY).pinned() && !req.query().isEmpty()) {
      Turn last = sent.get(sent.size() - 1);
      assertThat(last.role()).isEqualTo("user");
      assertThat(last.content()).contains(req.query());
    }
    for (ToolSpec t : req.tools()) {
      if (t.pinned() || req.limit(Component.TOOLS).pinned()) assertThat(out.tools()).contains(t);
    }
    List<Turn> history = out.messages().stream().filter(m -> m.component() == Component.HISTORY).map(Assembly.Message::turn).toList();
    for (Turn t : req.history()) {
      if (t.pinned() || req.limit(Component.HISTORY).pinned()) assertThat(history).contains(t);
    }
    for (int i = 0; i < sent.size(); i++) {
      if (sent.get(i).isToolResult()) assertThat(sent.get(i - 1).toolCallsJson()).contains(sent.get(i).toolCallId());
    }
    for (Component c : Component.values()) {
      ComponentLimit l = req.limit(c);
      if (!l.pinned() && c != Component.TOOLS && c != Component.HISTORY && c != Component.QUERY) {
        assertThat(out.budget().get(c)).as(c.key()).isLessThanOrEqualTo(l.cap());
      }
    }
  }

  @Property(tries = 30)
  void theSameRequestGivesTheSameMessages(@ForAll @LongRange(min = 0, max = 10_000_000) long seed) throws Exception {
    AssembleRequest req = randomRequest(seed);
    Assembly a;
    try {
      a = Assembler.builder().packer(packer(candidates(seed))).build().assemble(req);
    } catch (PinnedOverLimitException e) {
      return;
    }
    Assembly b = Assembler.builder().packer(packer(candidates(seed))).build().assemble(randomRequest(seed));
    assertThat(b.messages()).isEqualTo(a.messages());
    assertThat(b.tools()).isEqualTo(a.tools());
    assertThat(b.budget()).isEqualTo(a.budget());
    assertThat(b.trace()).isEqualTo(a.trace());
  }
}
