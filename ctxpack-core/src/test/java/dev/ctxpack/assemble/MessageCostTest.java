package dev.ctxpack.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import org.junit.jupiter.api.Test;

class MessageCostTest {
  private final Tokenizer tok = Tokenizers.byName("o200k_base");

  @Test
  void aMessageCostsItsContentPlusTheRoleOverhead() {
    String text = "Qual é o prazo de entrega do pedido?";
    assertThat(MessageCost.of(Turn.of("user", text), tok)).isEqualTo(tok.count(text) + MessageCost.PER_MESSAGE);
    assertThat(MessageCost.of("", tok)).isEqualTo(MessageCost.PER_MESSAGE);
  }

  @Test
  void namesAndToolCallsAreCounted() {
    Turn call = new Turn("assistant", "", "", "", "[{\"id\":\"call_1\",\"type\":\"function\","
        + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Lisboa\\\"}\"}}]", false);
    Turn result = new Turn("tool", "{\"temp\": 21}", "get_weather", "call_1", "", false);
    assertThat(MessageCost.of(call, tok)).isEqualTo(MessageCost.PER_MESSAGE + tok.count(call.toolCallsJson()));
    assertThat(MessageCost.of(result, tok)).isEqualTo(MessageCost.PER_MESSAGE + tok.count("{\"temp\": 21}")
        + MessageCost.PER_NAME + tok.count("get_weather") + tok.count("call_1"));
  }

  @Test
  void unknownRolesAndKindsAreRejectedByName() {
    assertThatThrownBy(() -> Turn.of("narrator", "x")).hasMessageContaining("narrator");
    assertThatThrownBy(() -> Memory.Kind.parse("dream")).hasMessageContaining("dream");
    assertThat(Memory.Kind.parse(" Episode ")).isEqualTo(Memory.Kind.EPISODE);
  }
}
