package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextMemoryTest {
  @Test
  void remembersByContentAndKeepsTheFirstValue() {
    TextMemory<Integer> m = new TextMemory<>(100);
    assertThat(m.get("a text")).isNull();
    m.put("a text", 1);
    m.put(new String("a text"), 2); // the same content: already remembered
    assertThat(m.get(new StringBuilder("a ").append("text").toString())).isEqualTo(1);
    assertThat(m.size()).isOne();
  }

  @Test
  void emptiesItselfWhenOneMoreTextWouldPassItsBound() {
    TextMemory<String> m = new TextMemory<>(10);
    m.put("abcd", "x"); // 4
    m.put("efgh", "y"); // 8
    assertThat(m.size()).isEqualTo(2);
    m.put("ijk", "z"); // 11 > 10: emptied first, then holds this one
    assertThat(m.size()).isOne();
    assertThat(m.get("abcd")).isNull();
    assertThat(m.get("ijk")).isEqualTo("z");
    m.put("0123456", "w"); // 3 + 7 = 10: fits
    assertThat(m.size()).isEqualTo(2);
  }

  @Test
  void aBoundOfNothingIsRefusedByName() {
    assertThatThrownBy(() -> new TextMemory<>(0)).hasMessage("maxChars must be > 0, was 0");
  }
}
