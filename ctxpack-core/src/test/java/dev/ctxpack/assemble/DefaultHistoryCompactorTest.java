package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.llm.ChatMessage;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DefaultHistoryCompactorTest {
  private final Tokenizer tok = Tokenizers.byName("o200k_base");
  private final DefaultHistoryCompactor compactor = DefaultHistoryCompactor.defaults();

  static Turn call(String id, String tool) {
    return new Turn("assistant", "", "", "", "[{\"id\":\"" + id + "\",\"type\":\"function\",\"function\":{\"name\":\""
        + tool + "\",\"arguments\":\"{}\"}}]", false);
  }

  static Turn result(String id, String tool, String content) {
    return new Turn("tool", content, tool, id, "", false);
  }

  static int cost(List<Turn> turns, Tokenizer tok) {
    return turns.stream().mapToInt(t -> MessageCost.of(t, tok)).sum();
  }

  static String filler(String topic, int sentences) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sentences; i++) {
      sb.append("Line ").append(i).append(" of the ").append(topic).append(" report lists routine figures for the archive. ");
    }
    return sb.toString().strip();
  }

  /** An English conversation: facts early, a big weather tool result in the middle, small talk after. */
  static List<Turn> english() {
    List<Turn> h = new ArrayList<>();
    h.add(Turn.of("user", "My name is Marta and my order number is 48213. I live in Porto."));
    h.add(Turn.of("assistant", "Thanks, Marta. I noted order 48213 for delivery in Porto."));
    h.add(Turn.of("user", "What is the weather like in Porto tomorrow?"));
    h.add(call("call_1", "get_weather"));
    h.add(result("call_1", "get_weather", filler("weather", 40)));
    h.add(Turn.of("assistant", "Tomorrow in Porto it will be sunny with a high of 21 degrees."));
    for (int i = 0; i < 6; i++) {
      h.add(Turn.of("user", "Tell me something about topic " + i + ". " + filler("topic " + i, 4)));
      h.add(Turn.of("assistant", "Here is something about topic " + i + ". " + filler("answer " + i, 4)));
    }
    return h;
  }

  @Test
  void aHistoryThatFitsIsReturnedUnchanged() throws IOException {
    List<Turn> h = english();
    Trace trace = new Trace();
    HistoryCompactor.Compacted c = compactor.compact("When is my delivery?", h, 100_000, tok, trace);
    assertThat(c.turns()).isEqualTo(h);
    assertThat(c.tokens()).isEqualTo(cost(h, tok));
    assertThat(c.summarised()).isZero();
    assertThat(c.pruned()).isZero();
    assertThat(trace.decisions()).singleElement().satisfies(d -> assertThat(d.rule()).isEqualTo("history:fits"));
  }

  @Test
  void oldToolResultsArePrunedFirstKeepingTheCallAnswered() throws IOException {
    List<Turn> h = english();
    int full = cost(h, tok);
    int resultCost = MessageCost.of(h.get(4), tok);
    // Just under the whole: pruning the one old tool result is enough, nothing is summarised.
    Trace trace = new Trace();
    HistoryCompactor.Compacted c = compactor.compact("When is my delivery?", h, full - resultCost / 2, tok, trace);
    assertThat(c.summarised()).isZero();
    assertThat(c.pruned()).isEqualTo(1);
    assertThat(c.turns()).hasSize(h.size());
    Turn marker = c.turns().get(4);
    assertThat(marker.role()).isEqualTo("tool");
    assertThat(marker.toolCallId()).isEqualTo("call_1");
    assertThat(marker.name()).isEqualTo("get_weather");
    assertThat(marker.content()).contains("get_weather").contains(tok.count(h.get(4).content()) + " tokens");
    assertThat(c.turns().get(3)).isEqualTo(h.get(3));
    assertThat(c.tokens()).isEqualTo(cost(c.turns(), tok)).isLessThanOrEqualTo(full - resultCost / 2);
    assertThat(trace.decisions()).anySatisfy(d -> {
      assertThat(d.stage()).isEqualTo(Stage.HISTORY);
      assertThat(d.action()).isEqualTo(Action.PRUNE);
      assertThat(d.ids()).containsExactly("t4");
    });
  }

  @Test
  void olderTurnsAreSummarisedVerbatimWithWhoSaidWhatAndTheNewestKept() throws IOException {
    List<Turn> h = english();
    Trace trace = new Trace();
    int budget = 400;
    HistoryCompactor.Compacted c = compactor.compact("What is my order number and where do I live?", h, budget, tok,
        trace);
    assertThat(c.tokens()).isEqualTo(cost(c.turns(), tok)).isLessThanOrEqualTo(budget);
    assertThat(c.summarised()).isPositive();
    Turn summary = c.turns().get(0);
    assertThat(summary.role()).isEqualTo("user");
    assertThat(summary.content()).startsWith(HistoryWording.EN.header())
        .contains("\nuser: My name is Marta and my order number is 48213.");
    for (String line : summary.content().split("\n")) {
      if (line.equals(HistoryWording.EN.header())) continue;
      assertThat(line).matches("(user|assistant|tool \\S+): .+");
      String said = line.substring(line.indexOf(": ") + 2);
      for (String piece : said.split(" … ")) {
        assertThat(h).anySatisfy(t -> assertThat(t.content()).contains(piece));
      }
    }
    // The newest turns are the history's tail, verbatim.
    assertThat(c.turns().get(c.turns().size() - 1)).isEqualTo(h.get(h.size() - 1));
    List<Turn> kept = c.turns().subList(1, c.turns().size());
    assertThat(h.subList(h.size() - kept.size(), h.size())).isEqualTo(kept);
    assertThat(trace.decisions()).anySatisfy(d -> {
      assertThat(d.action()).isEqualTo(Action.SUMMARISE);
      assertThat(d.rule()).isEqualTo("history:extractive");
      assertThat(d.into()).isEqualTo("summary");
    });
    assertThat(trace.decisions()).allSatisfy(d -> assertThat(d.stage()).isEqualTo(Stage.HISTORY));
  }

  @Test
  void aToolResultIsNeverKeptWithoutItsCall() throws IOException {
    List<Turn> h = new ArrayList<>();
    h.add(Turn.of("user", "Look up the stock of item 7 and item 9."));
    h.add(call("c7", "stock"));
    h.add(result("c7", "stock", "Item 7: 120 units in Lisbon."));
    h.add(result("c9", "stock", "Item 9: 3 units in Braga. " + filler("stock", 30)));
    for (int budget = 10; budget < cost(h, tok); budget += 7) {
      HistoryCompactor.Compacted c = compactor.compact("stock of item 9", h, budget, tok, new Trace());
      assertThat(c.tokens()).isLessThanOrEqualTo(budget);
      List<Turn> out = c.turns();
      for (int i = 0; i < out.size(); i++) {
        if (!out.get(i).isToolResult()) continue;
        int j = i;
        while (j > 0 && out.get(j - 1).isToolResult()) j--;
        assertThat(j).as("budget %d: a tool result follows its call", budget).isPositive();
        assertThat(out.get(j - 1).toolCallsJson()).isNotEmpty();
      }
    }
  }

  @Test
  void pinnedTurnsStayVerbatimAndAloneWhenTheyExceedTheBudget() throws IOException {
    List<Turn> h = english();
    Turn pin = new Turn("user", "Always answer in metric units. " + filler("rules", 3), "", "", "", true);
    h.add(1, pin);
    HistoryCompactor.Compacted c = compactor.compact("weather", h, 300, tok, new Trace());
    assertThat(c.turns()).contains(pin);
    assertThat(c.tokens()).isLessThanOrEqualTo(300);

    Trace trace = new Trace();
    int pinCost = MessageCost.of(pin, tok);
    HistoryCompactor.Compacted over = compactor.compact("weather", h, pinCost - 1, tok, trace);
    assertThat(over.turns()).containsExactly(pin);
    assertThat(over.tokens()).isEqualTo(pinCost);
    assertThat(trace.decisions()).anySatisfy(d -> assertThat(d.action()).isEqualTo(Action.OVER_BUDGET));
  }

  @Test
  void aPortugueseConversationIsSummarisedInPortuguese() throws IOException {
    List<Turn> h = new ArrayList<>();
    h.add(Turn.of("user", "Meu nome é João e o número do meu pedido é 7731. Moro em Belo Horizonte."));
    h.add(Turn.of("assistant", "Obrigado, João. Anotei o pedido 7731 para entrega em Belo Horizonte."));
    for (int i = 0; i < 8; i++) {
      h.add(Turn.of("user", "Fale sobre o assunto " + i + ". O assunto " + i + " tem muitos detalhes que não importam."
          + " Cada detalhe do assunto " + i + " ocupa espaço na conversa."));
      h.add(Turn.of("assistant", "Sobre o assunto " + i + ", não há nada de especial a dizer. O relatório do assunto "
          + i + " repete números de rotina do arquivo."));
    }
    HistoryCompactor.Compacted c = compactor.compact("Qual é o número do meu pedido?", h, 260, tok, new Trace());
    assertThat(c.tokens()).isLessThanOrEqualTo(260);
    String summary = c.turns().get(0).content();
    assertThat(summary).startsWith(HistoryWording.PT.header()).contains("\nusuário: ").contains("7731");
  }

  @Test
  void aConfiguredModelWritesTheSummaryAndItsFailureFallsBackToExtractive() throws IOException {
    AtomicReference<List<ChatMessage>> asked = new AtomicReference<>();
    LlmClient model = new LlmClient() {
      @Override
      public String id() {
        return "fake:summariser";
      }

      @Override
      public String chat(List<ChatMessage> messages) {
        asked.set(messages);
        return "user: name Marta, order 48213, lives in Porto\nassistant: noted the order";
      }
    };
    Trace trace = new Trace();
    HistoryCompactor.Compacted c = DefaultHistoryCompactor.builder().llm(model).build()
        .compact("order number?", english(), 400, tok, trace);
    assertThat(c.turns().get(0).content()).isEqualTo(HistoryWording.EN.header()
        + "\nuser: name Marta, order 48213, lives in Porto\nassistant: noted the order");
    assertThat(asked.get().get(1).content()).contains("order number?").contains("user: My name is Marta");
    assertThat(trace.decisions()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("history:llm:fake:summariser"));

    LlmClient broken = new LlmClient() {
      @Override
      public String id() {
        return "fake:down";
      }

      @Override
      public String chat(List<ChatMessage> messages) throws IOException {
        throw new IOException("HTTP 503 from the model");
      }
    };
    Trace fallback = new Trace();
    HistoryCompactor.Compacted f = DefaultHistoryCompactor.builder().llm(broken).build()
        .compact("order number?", english(), 400, tok, fallback);
    assertThat(f.turns().get(0).content()).contains("48213");
    Decision d = fallback.decisions().stream().filter(x -> x.action() == Action.SUMMARISE).findFirst().orElseThrow();
    assertThat(d.rule()).isEqualTo("history:extractive");
    assertThat(d.reason()).contains("HTTP 503");
  }

  @Test
  void aModelThatOverrunsIsCutToTheBudget() throws IOException {
    LlmClient verbose = new LlmClient() {
      @Override
      public String id() {
        return "fake:verbose";
      }

      @Override
      public String chat(List<ChatMessage> messages) {
        return ("user: " + filler("overrun", 5) + "\n").repeat(40);
      }
    };
    HistoryCompactor.Compacted c = DefaultHistoryCompactor.builder().llm(verbose).build()
        .compact("order", english(), 300, tok, new Trace());
    assertThat(c.tokens()).isEqualTo(cost(c.turns(), tok)).isLessThanOrEqualTo(300);
  }

  @Test
  void badInputIsRejectedByName() {
    assertThatThrownBy(() -> compactor.compact("q", english(), -1, tok, new Trace()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget");
    assertThatThrownBy(() -> DefaultHistoryCompactor.builder().summaryShare(1.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("summaryShare");
  }
}
