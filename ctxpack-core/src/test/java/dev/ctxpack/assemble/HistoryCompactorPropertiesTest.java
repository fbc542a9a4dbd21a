package dev.ctxpack.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties of {@link DefaultHistoryCompactor} over random histories (user, assistant and system
 * turns, tool calls with one to three results, pinned turns, English and Portuguese sentences):
 * never over budget (unless the pinned turns alone are), pinned turns always there verbatim, no tool
 * result without its call, summaries made of the turns' own words, same input same output.
 */
class HistoryCompactorPropertiesTest {
  private static final Tokenizer TOK = Tokenizers.byName("o200k_base");
  private static final DefaultHistoryCompactor COMPACTOR = DefaultHistoryCompactor.defaults();

  private static final List<String> SENTENCES = List.of(
      "The invoice 4471 was paid on 3 March.", "Delivery to Lisbon takes two days.",
      "O pedido 889 foi enviado para Campinas.", "A reunião ficou para quinta-feira às 15h.",
      "Please keep the answer short.", "The refund policy allows returns within 30 days.",
      "Não quero receber e-mails de marketing.", "Our server runs Java 17 on two cores.",
      "The weather in Porto is sunny, 21 degrees.", "O cliente prefere pagar com Pix.",
      "Error 502 appears when the proxy restarts.", "Item 7 has 120 units in stock.");

  private static Arbitrary<String> content() {
    return Arbitraries.of(SENTENCES).list().ofMinSize(0).ofMaxSize(8).map(l -> String.join(" ", l));
  }

  /** One unit: a plain turn, or an assistant call with its results. */
  private static Arbitrary<List<Turn>> unit() {
    Arbitrary<List<Turn>> plain = Combinators.combine(Arbitraries.of("user", "user", "assistant", "assistant", "system"),
        content(), Arbitraries.integers().between(0, 9))
        .as((role, text, p) -> List.of(new Turn(role, text, "", "", "", p == 0)));
    Arbitrary<List<Turn>> tools = Combinators.combine(Arbitraries.integers().between(1, 3),
        content().list().ofSize(3), Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 99_999))
        .as((k, texts, p, seed) -> {
          List<Turn> out = new ArrayList<>();
          StringBuilder calls = new StringBuilder("[");
          for (int i = 0; i < k; i++) {
            if (i > 0) calls.append(',');
            calls.append("{\"id\":\"call_").append(seed).append('_').append(i)
                .append("\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}");
          }
          out.add(new Turn("assistant", "", "", "", calls.append(']').toString(), false));
          for (int i = 0; i < k; i++) {
            out.add(new Turn("tool", texts.get(i), "lookup", "call_" + seed + "_" + i, "", p == 0 && i == 0));
          }
          return out;
        });
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, plain), net.jqwik.api.Tuple.of(1, tools));
  }

  @Provide
  Arbitrary<List<Turn>> histories() {
    return unit().list().ofMinSize(0).ofMaxSize(30).map(units -> {
      List<Turn> h = new ArrayList<>();
      units.forEach(h::addAll);
      return h;
    });
  }

  @Property(tries = 150)
  void neverOverBudgetPinnedKeptPairsValidDeterministic(@ForAll("histories") List<Turn> history,
      @ForAll @IntRange(min = 0, max = 1500) int budget, @ForAll("queries") String query) throws IOException {
    HistoryCompactor.Compacted c = COMPACTOR.compact(query, history, budget, TOK, new Trace());
    List<Turn> out = c.turns();
    int cost = out.stream().mapToInt(t -> MessageCost.of(t, TOK)).sum();
    assertThat(c.tokens()).isEqualTo(cost);

    List<Turn> pinned = pinnedUnits(history);
    int pinnedCost = pinned.stream().mapToInt(t -> MessageCost.of(t, TOK)).sum();
    if (pinnedCost > budget) {
      assertThat(out).isEqualTo(pinned);
    } else {
      assertThat(cost).isLessThanOrEqualTo(budget);
      for (Turn t : history) if (t.pinned()) assertThat(out).contains(t);
      // The newest turn is kept (verbatim, or as a pruned marker) whenever its unit fits beside the pinned ones.
      if (!history.isEmpty() && pinnedCost + lastUnitCost(history) <= budget) {
        Turn last = history.get(history.size() - 1);
        Turn got = out.get(out.size() - 1);
        if (last.isToolResult()) assertThat(got.toolCallId()).isEqualTo(last.toolCallId());
        else assertThat(got).isEqualTo(last);
      }
    }
    // Every tool result follows (through other results) an assistant turn that calls tools.
    for (int i = 0; i < out.size(); i++) {
      if (!out.get(i).isToolResult()) continue;
      int j = i;
      while (j > 0 && out.get(j - 1).isToolResult()) j--;
      assertThat(j).isPositive();
      assertThat(out.get(j - 1).toolCallsJson()).isNotEmpty();
    }
    // Kept turns are the history's own, in order (a pruned result keeps role, name and call id).
    int from = 0;
    for (Turn t : out) {
      if (t.role().equals("user") && t.content().startsWith(HistoryWording.EN.header())
          || t.content().startsWith(HistoryWording.PT.header())) {
        assertThat(out.indexOf(t)).isZero();
        for (String line : t.content().split("\n")) {
          if (line.equals(HistoryWording.EN.header()) || line.equals(HistoryWording.PT.header())) continue;
          String said = line.substring(line.indexOf(": ") + 2);
          for (String piece : said.split(" … ")) {
            assertThat(history).anySatisfy(x -> assertThat(HistorySummarizer.oneLine(x.content())).contains(piece));
          }
        }
        continue;
      }
      int at = -1;
      for (int i = from; i < history.size(); i++) {
        Turn x = history.get(i);
        if (x.equals(t) || x.isToolResult() && t.isToolResult() && x.toolCallId().equals(t.toolCallId())
            && x.name().equals(t.name())) {
          at = i;
          break;
        }
      }
      assertThat(at).as("turn %s comes from the history, in order", t).isGreaterThanOrEqualTo(from);
      from = at + 1;
    }
    // Same input, same output.
    assertThat(COMPACTOR.compact(query, history, budget, TOK, new Trace())).isEqualTo(c);
  }

  @Provide
  Arbitrary<String> queries() {
    return Arbitraries.of("", "When was the invoice paid?", "Qual é o pedido enviado?", "stock of item 7");
  }

  private static int lastUnitCost(List<Turn> h) {
    int j = h.size() - 1;
    while (j > 0 && h.get(j).isToolResult()) j--;
    int c = 0;
    for (int i = j; i < h.size(); i++) c += MessageCost.of(h.get(i), TOK);
    return c;
  }

  /** The turns of units holding a pinned turn (a pinned result keeps its call and the call's other results). */
  private static List<Turn> pinnedUnits(List<Turn> h) {
    List<Turn> out = new ArrayList<>();
    int i = 0;
    while (i < h.size()) {
      int j = i + 1;
      if (h.get(i).role().equals("assistant") && !h.get(i).toolCallsJson().isEmpty()) {
        while (j < h.size() && h.get(j).isToolResult()) j++;
      }
      boolean pinned = false;
      for (int k = i; k < j; k++) pinned |= h.get(k).pinned();
      if (pinned) out.addAll(h.subList(i, j));
      i = j;
    }
    return out;
  }
}
