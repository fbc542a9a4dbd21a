package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.embed.Embedder;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest extends EmbedderContract {
  static final MiniLmEmbedder EMBEDDER = new MiniLmEmbedder();

  @Override
  Embedder embedder() {
    return EMBEDDER;
  }

  @Test
  void isTheQuantizedMiniLmWith384Dimensions() {
    assertThat(EMBEDDER.id()).isEqualTo("all-minilm-l6-v2-q");
    assertThat(EMBEDDER.dimension()).isEqualTo(384);
    assertThat(EMBEDDER.embed("hello")).hasSize(384);
  }

  @Test
  void paraphrasesScoreHigherThanUnrelatedText() {
    float[] a = EMBEDDER.embed("How do I reset my password?");
    float[] paraphrase = EMBEDDER.embed("What are the steps to change a forgotten password?");
    float[] unrelated = EMBEDDER.embed("The tomato harvest was poor this summer because of drought.");
    assertThat(cosine(a, paraphrase)).isGreaterThan(cosine(a, unrelated) + 0.2);
  }

  @Test
  void portugueseTextIsEmbeddedConsistently() {
    // The model was trained on English: only check what holds for any sane embedder.
    String text = "O contrato não pode ser renovado sem a aprovação prévia do conselho.";
    List<float[]> v = EMBEDDER.embed(List.of(text, text, "Receita de bolo de cenoura com cobertura."));
    assertThat(cosine(v.get(0), v.get(1))).isCloseTo(1.0, within(1e-5));
    assertThat(norm(v.get(2))).isCloseTo(1.0, within(1e-5));
    assertThat(cosine(v.get(0), v.get(2))).isLessThan(0.999);
  }

  @Test
  void matchesLangchain4jsOwnMiniLmModel() {
    // Same files and pooling as the reference; only the ONNX threading differs.
    AllMiniLmL6V2QuantizedEmbeddingModel reference = new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);
    for (String text : TEXTS) {
      float[] expected = Embedder.normalize(reference.embed(text).content().vector());
      assertThat(EMBEDDER.embed(text)).as(text).containsExactly(expected, within(1e-5f));
    }
  }

  @Test
  void onlyTheFirst128WordPiecesCount() {
    // A documented trap: the bundled tokenizer truncates at 128 word pieces.
    String head = IntStream.range(0, 150).mapToObj(i -> "word" + (i % 7)).collect(Collectors.joining(" "));
    List<float[]> v = EMBEDDER.embed(List.of(head + " cats and dogs", head + " stock market crash"));
    assertThat(cosine(v.get(0), v.get(1))).isCloseTo(1.0, within(1e-6));
  }

  @Test
  void largeBatchKeepsOrder() {
    List<String> texts = IntStream.range(0, 40).mapToObj(i -> "sentence number " + i).collect(Collectors.toList());
    List<float[]> batch = EMBEDDER.embed(texts);
    assertThat(batch.get(17)).containsExactly(EMBEDDER.embed(texts.get(17)), within(1e-5f));
    assertThat(batch.get(39)).containsExactly(EMBEDDER.embed(texts.get(39)), within(1e-5f));
  }

  @Test
  void runsOnAGivenExecutor() {
    MiniLmEmbedder callerOnly = new MiniLmEmbedder(Runnable::run);
    List<float[]> got = callerOnly.embed(TEXTS);
    List<float[]> expected = EMBEDDER.embed(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) assertThat(got.get(i)).containsExactly(expected.get(i), within(1e-5f));
  }

  @Test
  void textWithoutTokensIsRejectedNamingItsIndex() {
    // The tokenizer drops zero-width characters, U+FFFD and unpaired surrogates.
    for (String noTokens : List.of("\u200b\u200b", "\ufffd", "\ud83d")) {
      assertThatThrownBy(() -> EMBEDDER.embed(List.of("fine", "also fine", noTokens)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("texts[2]");
    }
  }

  @Test
  void aWordOverTheWordPieceLimitIsUnreadable() {
    // Words over 100 characters are one [UNK] piece; all such texts embed alike.
    String word = IntStream.range(0, 300).mapToObj(i -> String.valueOf((char) ('a' + (i * 7) % 26)))
        .collect(Collectors.joining());
    assertThat(EMBEDDER.readableShare(word)).isZero();
    assertThat(EMBEDDER.readableShare("Intro. " + word)).isCloseTo(2 / 3.0, within(1e-9));
    assertThat(EMBEDDER.readableShare("Penguins eat fish.")).isEqualTo(1.0);
    assertThat(EMBEDDER.readableShare("O contrato não pode ser renovado.")).isEqualTo(1.0);
    assertThat(cosine(EMBEDDER.embed(word), EMBEDDER.embed(word.substring(1) + "q"))).isCloseTo(1.0, within(1e-6));
  }
}
