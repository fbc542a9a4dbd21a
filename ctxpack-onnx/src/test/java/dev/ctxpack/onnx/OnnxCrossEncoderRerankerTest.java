package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OnnxCrossEncoderReranker} on real ONNX models written by {@link OnnxGraphs} (no trained
 * cross-encoder can be fetched here): a lexical cross-encoder whose logit counts the query word
 * pieces found in the passage, so rankings are predictable, and MiniLM (float32, and the int8
 * export the embedder uses) with a linear head on {@code [CLS]}, a real transformer for batching
 * and truncation. The tokenizer is MiniLM's BERT uncased tokenizer.json from the langchain4j jar.
 */
class OnnxCrossEncoderRerankerTest {
  @TempDir static Path dir;
  static Path overlap;
  static Path overlapTwoLogits;
  static Path overlapNoTypes;
  static Path headModel;
  static Path quantizedHeadModel;
  static OnnxCrossEncoderReranker reranker;
  static OnnxCrossEncoderReranker transformer;

  static final String QUERY = "what is java used for";
  static final List<Candidate> CANDIDATES =
      List.of(
          Candidates.of("a", "Java is a programming language used for servers."),
          Candidates.of("b", "Coffee from the island of Java."),
          Candidates.of("c", "Java Guide", "Compiled to bytecode and run by a virtual machine.", 2.0),
          Candidates.of("d", "Snakes and cats."),
          Candidates.of("e", "What is it used for, and what for?"));

  @BeforeAll
  static void writeModels() throws IOException {
    try (InputStream in = OnnxCrossEncoderRerankerTest.class.getClassLoader()
        .getResourceAsStream(MiniLmEmbedder.TOKENIZER_RESOURCE)) {
      Files.copy(in, dir.resolve("tokenizer.json"));
    }
    overlap = Files.write(dir.resolve("overlap.onnx"), OnnxGraphs.overlapCrossEncoder(false, true));
    overlapTwoLogits = Files.write(dir.resolve("overlap2.onnx"), OnnxGraphs.overlapCrossEncoder(true, true));
    overlapNoTypes = Files.write(dir.resolve("overlap-notypes.onnx"), OnnxGraphs.overlapCrossEncoder(false, false));
    headModel = Files.write(dir.resolve("minilm-head.onnx"),
        OnnxGraphs.withClsHead(resource("all-minilm-l6-v2.onnx"), MiniLmEmbedder.DIMENSION));
    quantizedHeadModel = Files.write(dir.resolve("minilm-q-head.onnx"),
        OnnxGraphs.withClsHead(resource(MiniLmEmbedder.MODEL_RESOURCE), MiniLmEmbedder.DIMENSION));
    reranker = OnnxCrossEncoderReranker.builder(overlap).build();
    transformer = OnnxCrossEncoderReranker.builder(headModel).build();
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in = OnnxCrossEncoderRerankerTest.class.getClassLoader().getResourceAsStream(name)) {
      assertThat(in).as("class-path resource %s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  @AfterAll
  static void close() {
    reranker.close();
    transformer.close();
  }

  static List<Double> scores(List<Candidate> ranked, List<Candidate> inputOrder) {
    return inputOrder.stream()
        .map(c -> ranked.stream().filter(r -> r.chunk().id().equals(c.chunk().id())).findFirst().orElseThrow())
        .map(Candidates::rerank)
        .collect(Collectors.toList());
  }

  @Test
  void ranksByTheModelsLogitsBestFirstTiesByIdOtherScoresKept() {
    List<Candidate> ranked = reranker.rerank(QUERY, CANDIDATES);
    // a: is java used for (4); e: what is used for (4, tie broken by id); b: java; c: java from the
    // title only; d: nothing
    assertThat(Candidates.ids(ranked)).containsExactly("a", "e", "b", "c", "d");
    assertThat(ranked).extracting(Candidates::rerank).containsExactly(4.0, 4.0, 1.0, 1.0, 0.0);
    assertThat(ranked.get(3).scores().get(Signal.BM25)).hasValue(2.0);
    assertThat(reranker.id()).isEqualTo("onnx-cross-encoder:overlap.onnx");
    assertThat(reranker.usesTokenTypes()).isTrue();
    assertThat(reranker.tokenizer()).isEqualTo(dir.resolve("tokenizer.json").toAbsolutePath());
  }

  @Test
  void pairsAreEncodedClsQuerySepPassageSepWithSegmentsAndPadding() {
    OnnxCrossEncoderReranker.Encoded e = reranker.encode("what is java", List.of("java is a language", "python"));
    // [CLS] what is java [SEP] java is a language [SEP]
    assertThat(e.ids()[0]).containsExactly(101, 2054, 2003, 9262, 102, 9262, 2003, 1037, 2653, 102);
    assertThat(e.typeIds()[0]).containsExactly(0, 0, 0, 0, 0, 1, 1, 1, 1, 1);
    assertThat(e.mask()[0]).containsExactly(1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    // [CLS] what is java [SEP] python [SEP], padded to the longest pair of the batch
    assertThat(e.ids()[1]).containsExactly(101, 2054, 2003, 9262, 102, 18750, 102, 0, 0, 0);
    assertThat(e.typeIds()[1]).containsExactly(0, 0, 0, 0, 0, 1, 1, 0, 0, 0);
    assertThat(e.mask()[1]).containsExactly(1, 1, 1, 1, 1, 1, 1, 0, 0, 0);
  }

  @Test
  void passageSideIsCutToMaxLength() {
    try (OnnxCrossEncoderReranker short16 = OnnxCrossEncoderReranker.builder(overlap).maxLength(16).build()) {
      String longPassage = IntStream.range(0, 40).mapToObj(i -> "word").collect(Collectors.joining(" "));
      OnnxCrossEncoderReranker.Encoded e = short16.encode("what is java", List.of(longPassage));
      assertThat(e.ids()[0]).hasSize(16);
      assertThat(e.ids()[0]).startsWith(101, 2054, 2003, 9262, 102).endsWith(102);
      // the passage word that matters lies past the cut, so it no longer counts
      List<Candidate> ranked = short16.rerank("java", List.of(Candidates.of("late", longPassage + " java")));
      assertThat(Candidates.rerank(ranked.get(0))).isEqualTo(0.0);
      assertThat(Candidates.rerank(reranker.rerank("java", List.of(Candidates.of("late", longPassage + " java"))).get(0)))
          .isEqualTo(1.0);
    }
  }

  @Test
  void longQueriesAreCutAtAWordBoundaryToHalfTheLength() {
    try (OnnxCrossEncoderReranker short16 = OnnxCrossEncoderReranker.builder(overlap).maxLength(16).build()) {
      assertThat(short16.fitQuery("one two three four five six seven eight nine ten"))
          .isEqualTo("one two three four five six");
      assertThat(short16.fitQuery("short query")).isEqualTo("short query");
      String giant = "x".repeat(300);
      String cut = short16.fitQuery(giant);
      assertThat(giant).startsWith(cut);
      assertThat(short16.encode(cut, List.of("p")).ids()[0].length).isLessThanOrEqualTo(6 + 3 + 1);
      // a long query still leaves every passage room to count
      List<Candidate> ranked = short16.rerank("java " + "filler ".repeat(100), List.of(Candidates.of("x", "java")));
      assertThat(Candidates.rerank(ranked.get(0))).isEqualTo(1.0);
    }
  }

  @Test
  void twoLogitModelsAreReadByTheirLastColumn() {
    try (OnnxCrossEncoderReranker two = OnnxCrossEncoderReranker.builder(overlapTwoLogits).build()) {
      assertThat(scores(two.rerank(QUERY, CANDIDATES), CANDIDATES))
          .isEqualTo(scores(reranker.rerank(QUERY, CANDIDATES), CANDIDATES))
          .containsExactly(4.0, 1.0, 1.0, 0.0, 4.0);
    }
  }

  @Test
  void modelsWithoutTokenTypesAreFedWithoutThem() {
    try (OnnxCrossEncoderReranker noTypes = OnnxCrossEncoderReranker.builder(overlapNoTypes).build()) {
      assertThat(noTypes.usesTokenTypes()).isFalse();
      assertThat(scores(noTypes.rerank(QUERY, CANDIDATES), CANDIDATES)).containsExactly(4.0, 1.0, 1.0, 0.0, 4.0);
    }
  }

  @Test
  void sigmoidMapsScoresButKeepsTheOrder() {
    try (OnnxCrossEncoderReranker s = OnnxCrossEncoderReranker.builder(overlap).sigmoid(true).build()) {
      List<Candidate> ranked = s.rerank(QUERY, CANDIDATES);
      assertThat(Candidates.ids(ranked)).containsExactly("a", "e", "b", "c", "d");
      assertThat(Candidates.rerank(ranked.get(0))).isCloseTo(1 / (1 + Math.exp(-4)), within(1e-9));
      assertThat(Candidates.rerank(ranked.get(4))).isCloseTo(0.5, within(1e-9));
    }
  }

  static List<Candidate> varied() {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < 19; i++) {
      String text = "Passage " + i + " about java and " + "coffee beans ".repeat(i % 7) + "servers " + i;
      out.add(Candidates.of(String.format("v%02d", i), i % 3 == 0 ? "Title " + i : "", text, 1.0));
    }
    return out;
  }

  @Test
  void aFloatTransformerGivesTheSameScoresWhateverTheBatchSizeAndPadding() {
    List<Candidate> many = varied();
    List<Double> single = scores(transformer.rerank(QUERY, many), many);
    try (OnnxCrossEncoderReranker eight = OnnxCrossEncoderReranker.builder(headModel).batchSize(8).build();
        OnnxCrossEncoderReranker sixteen =
            OnnxCrossEncoderReranker.builder(headModel).batchSize(16).executor(Runnable::run).build()) {
      List<Double> byEight = scores(eight.rerank(QUERY, many), many);
      List<Double> bySixteen = scores(sixteen.rerank(QUERY, many), many);
      for (int i = 0; i < many.size(); i++) {
        assertThat(byEight.get(i)).as("batch 8, candidate %d", i).isCloseTo(single.get(i), within(1e-4));
        assertThat(bySixteen.get(i)).as("batch 16, candidate %d", i).isCloseTo(single.get(i), within(1e-4));
      }
      assertThat(single.stream().distinct().count()).as("the head tells the passages apart").isEqualTo(many.size());
      assertThat(Candidates.ids(eight.rerank(QUERY, many))).isEqualTo(Candidates.ids(transformer.rerank(QUERY, many)));
    }
  }

  @Test
  void aQuantizedTransformerScoresAPairTheSameInAnyListByDefault() {
    List<Candidate> many = varied();
    try (OnnxCrossEncoderReranker quantized = OnnxCrossEncoderReranker.builder(quantizedHeadModel).build()) {
      assertThat(quantized.batchSize()).isEqualTo(1);
      List<Double> together = scores(quantized.rerank(QUERY, many), many);
      for (int i = 0; i < many.size(); i += 6) {
        List<Candidate> alone = List.of(many.get(i));
        assertThat(scores(quantized.rerank(QUERY, alone), alone).get(0)).as("candidate %d", i).isEqualTo(together.get(i));
      }
      List<Candidate> reversed = new ArrayList<>(many);
      java.util.Collections.reverse(reversed);
      assertThat(Candidates.ids(quantized.rerank(QUERY, reversed))).isEqualTo(Candidates.ids(quantized.rerank(QUERY, many)));
    }
  }

  @Test
  void aTransformerSeesAtMostMaxLengthWordPieces() {
    String body = IntStream.range(0, 700).mapToObj(i -> "token" + (i % 10)).collect(Collectors.joining(" "));
    List<Candidate> tails =
        List.of(Candidates.of("t1", body + " ending one"), Candidates.of("t2", body + " a different ending"));
    // past 512 positions BERT has no position embedding: this only runs because the pairs are cut
    List<Double> full = scores(transformer.rerank(QUERY, tails), tails);
    assertThat(full.get(0)).isCloseTo(full.get(1), within(1e-5));
    try (OnnxCrossEncoderReranker short32 = OnnxCrossEncoderReranker.builder(headModel).maxLength(32).build()) {
      List<Double> cut = scores(short32.rerank(QUERY, tails), tails);
      assertThat(cut.get(0)).isCloseTo(cut.get(1), within(1e-5));
      assertThat(cut.get(0)).as("a shorter window is a different input").isNotCloseTo(full.get(0), within(1e-4));
    }
  }

  @Test
  void emptyListAndBlankQuery() {
    assertThat(reranker.rerank(QUERY, List.of())).isEmpty();
    assertThatThrownBy(() -> reranker.rerank("  ", CANDIDATES))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("query");
  }

  @Test
  void missingFilesAreReportedWithTheirPaths(@TempDir Path other) throws IOException {
    Path missing = dir.resolve("absent.onnx");
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(missing).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("model file not found")
        .hasMessageContaining(missing.toAbsolutePath().toString());
    Path lonely = Files.copy(overlap, other.resolve("lonely.onnx"));
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(lonely).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tokenizer file not found")
        .hasMessageContaining(other.resolve("tokenizer.json").toAbsolutePath().toString());
    try (OnnxCrossEncoderReranker given = OnnxCrossEncoderReranker.builder(lonely).tokenizer(dir.resolve("tokenizer.json")).build()) {
      assertThat(given.id()).isEqualTo("onnx-cross-encoder:lonely.onnx");
    }
  }

  @Test
  void filesThatAreNotAModelOrATokenizerAreReported(@TempDir Path other) throws IOException {
    Path junk = Files.writeString(other.resolve("junk.onnx"), "this is not an ONNX model");
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(junk).tokenizer(dir.resolve("tokenizer.json")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("could not load ONNX model")
        .hasMessageContaining(junk.toAbsolutePath().toString());
    Path badTokenizer = Files.writeString(other.resolve("tokenizer.json"), "{ not json");
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(overlap).tokenizer(badTokenizer).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("could not load tokenizer")
        .hasMessageContaining(badTokenizer.toAbsolutePath().toString());
  }

  @Test
  void modelsWithoutCrossEncoderInputsOrOutputsAreRefused(@TempDir Path other) throws IOException {
    Path wrong = Files.write(other.resolve("wrong.onnx"), OnnxGraphs.wrongInputs());
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(wrong).tokenizer(dir.resolve("tokenizer.json")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(wrong.toAbsolutePath().toString())
        .hasMessageContaining("tokens")
        .hasMessageContaining("input_ids");
    // the MiniLM sentence-transformer: right inputs, but token embeddings instead of logits
    Path embedder = OnnxFileEmbedderTest.extract(MiniLmEmbedder.MODEL_RESOURCE, other.resolve("embedder.onnx"));
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(embedder).tokenizer(dir.resolve("tokenizer.json")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no logits output")
        .hasMessageContaining("last_hidden_state")
        .hasMessageContaining(embedder.toAbsolutePath().toString());
  }

  @Test
  void builderRejectsBadOptionsNamingThem() {
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(overlap).maxLength(4)).hasMessageContaining("maxLength").hasMessageContaining("4");
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(overlap).batchSize(0)).hasMessageContaining("batchSize");
    assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder(null)).hasMessageContaining("model");
  }
}
