package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@link SinglePass} gives langchain4j's vector to the last bit, and hands it the texts it must. */
class SinglePassTest {
  private static final String[] WORDS = {
    "the", "contract", "cannot", "be", "renewed", "without", "approval", "O", "contrato", "não", "pode",
    "ser", "renovado", "sem", "aprovação", "prévia", "do", "conselho", "ação", "coração", "über", "naïve",
    "café", "12%", "3.5", "km/h", "—", "“quoted”", "(a)", "e-mail", "user@example.com", "東京", "데이터",
    "🙂", "x²", "α-helix", "IL-6", "p<0.05", "ﬁnance", "\u00ad", "\t", "\n\n", "Σ", "naïveté", "São", "Paulo"
  };

  @Test
  void everyTextGetsLangchain4jsVectorBitForBit() throws Exception {
    InProcessModel model = MiniLmEmbedder.model();
    Random random = new Random(7);
    List<String> texts = new ArrayList<>(List.of("a", "Hello, world!", "O céu está azul hoje.", "   padded   ",
        "[UNK] [CLS] [SEP] literal markers", "ALL CAPS AND ÀÇÊNTS"));
    for (int i = 0; i < 300; i++) {
      int n = 1 + random.nextInt(i % 10 == 0 ? 200 : 40); // some longer than the 128-piece truncation
      StringBuilder sb = new StringBuilder();
      for (int w = 0; w < n; w++) sb.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(5) == 0 ? "" : " ");
      texts.add(sb.toString());
    }
    int single = 0;
    int rejected = 0;
    for (String text : texts) {
      if (text.isBlank()) continue;
      float[] expected;
      try {
        expected = model.langchain4jVector(text);
      } catch (IllegalArgumentException nothingToEmbed) {
        // e.g. only a soft hyphen: rejected both ways
        assertThatThrownBy(() -> model.embed(List.of(text), Runnable::run)).isInstanceOf(IllegalArgumentException.class);
        rejected++;
        continue;
      }
      float[] actual = model.embed(List.of(text), Runnable::run).get(0);
      assertThat(actual).as(text).containsExactly(expected);
      if (model.takesSinglePass(text)) single++;
    }
    assertThat(rejected).isLessThan(10);
    assertThat(single).as("texts that took the single pass").isEqualTo(texts.stream().filter(t -> !t.isBlank()).count() - rejected);
  }

  @Test
  void aTokenizerFileWithoutTruncationStillGivesLangchain4jsVectorForLongTexts() throws Exception {
    // DJL truncates such a file's encodings at 512 pieces, for langchain4j's encoder too, so its
    // partitions (and SinglePass's fallback to them) are never needed with these options.
    ObjectMapper json = new ObjectMapper();
    ClassLoader loader = MiniLmEmbedder.class.getClassLoader();
    byte[] onnx;
    ObjectNode tokenizer;
    try (InputStream m = loader.getResourceAsStream(MiniLmEmbedder.MODEL_RESOURCE);
        InputStream t = loader.getResourceAsStream(MiniLmEmbedder.TOKENIZER_RESOURCE)) {
      onnx = m.readAllBytes();
      tokenizer = (ObjectNode) json.readTree(t);
    }
    tokenizer.remove("truncation");
    tokenizer.remove("padding");
    InProcessModel model = InProcessModel.fromBytes("untruncated", onnx,
        new ByteArrayInputStream(json.writeValueAsBytes(tokenizer)), PoolingMode.MEAN);
    String shortText = "The committee approved the budget.";
    String longText = IntStream.range(0, 700).mapToObj(i -> "word" + (i % 13)).collect(Collectors.joining(" "));
    assertThat(model.takesSinglePass(shortText)).isTrue();
    assertThat(model.takesSinglePass(longText)).as("truncated at 512 pieces").isTrue();
    for (String text : List.of(shortText, longText)) {
      assertThat(model.embed(List.of(text), Runnable::run).get(0)).as(text).containsExactly(model.langchain4jVector(text));
    }
  }
}
