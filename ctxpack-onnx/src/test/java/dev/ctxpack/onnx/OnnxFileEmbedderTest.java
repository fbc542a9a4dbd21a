package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.embed.Embedder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loads the MiniLM files shipped in the langchain4j artifact through the path API. */
class OnnxFileEmbedderTest extends EmbedderContract {
  @TempDir static Path dir;
  static Path model;
  static OnnxFileEmbedder embedder;

  @BeforeAll
  static void extractModel() throws IOException {
    model = extract(MiniLmEmbedder.MODEL_RESOURCE, dir.resolve("model.onnx"));
    extract(MiniLmEmbedder.TOKENIZER_RESOURCE, dir.resolve("tokenizer.json"));
    embedder = new OnnxFileEmbedder(model);
  }

  static Path extract(String resource, Path target) throws IOException {
    try (InputStream in = OnnxFileEmbedderTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as("resource %s", resource).isNotNull();
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  @Override
  Embedder embedder() {
    return embedder;
  }

  @Test
  void idNamesFileAndPoolingAndDimensionIsProbed() {
    assertThat(embedder.id()).isEqualTo("onnx:model.onnx:mean");
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.tokenizer()).isEqualTo(dir.resolve("tokenizer.json").toAbsolutePath());
  }

  @Test
  void sameFilesGiveTheSameVectorsAsMiniLm() {
    List<float[]> fromFiles = embedder.embed(TEXTS);
    List<float[]> fromJar = MiniLmEmbedderTest.EMBEDDER.embed(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      assertThat(fromFiles.get(i)).as("texts[%d]", i).containsExactly(fromJar.get(i), within(1e-5f));
    }
  }

  @Test
  void clsPoolingIsADifferentEmbedder() {
    OnnxFileEmbedder cls =
        new OnnxFileEmbedder(model, dir.resolve("tokenizer.json"), OnnxFileEmbedder.Pooling.CLS);
    assertThat(cls.id()).isEqualTo("onnx:model.onnx:cls");
    float[] a = cls.embed(TEXTS.get(0));
    assertThat(norm(a)).isCloseTo(1.0, within(1e-5));
    assertThat(cosine(a, embedder.embed(TEXTS.get(0)))).isLessThan(0.999);
  }

  @Test
  void missingModelIsReportedWithItsPath() {
    Path missing = dir.resolve("nope/absent.onnx");
    assertThatThrownBy(() -> new OnnxFileEmbedder(missing, dir.resolve("tokenizer.json"), OnnxFileEmbedder.Pooling.MEAN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("model file not found")
        .hasMessageContaining(missing.toAbsolutePath().toString());
  }

  @Test
  void missingTokenizerIsReportedWithItsPath(@TempDir Path other) throws IOException {
    Path lonely = Files.copy(model, other.resolve("model.onnx"));
    assertThatThrownBy(() -> new OnnxFileEmbedder(lonely))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tokenizer file not found")
        .hasMessageContaining(other.resolve("tokenizer.json").toAbsolutePath().toString());
  }

  @Test
  void directoryInsteadOfFileIsReported() {
    assertThatThrownBy(() -> new OnnxFileEmbedder(dir, dir.resolve("tokenizer.json"), OnnxFileEmbedder.Pooling.MEAN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a regular file")
        .hasMessageContaining(dir.toAbsolutePath().toString());
  }

  @Test
  void fileThatIsNotAModelIsReportedWithItsPath(@TempDir Path other) throws IOException {
    Path junk = Files.writeString(other.resolve("junk.onnx"), "this is not an ONNX model");
    assertThatThrownBy(() -> new OnnxFileEmbedder(junk, dir.resolve("tokenizer.json"), OnnxFileEmbedder.Pooling.MEAN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(junk.toAbsolutePath().toString());
  }

  @Test
  void tokenizerThatIsNotJsonIsReportedWithItsPath(@TempDir Path other) throws IOException {
    Path bad = Files.writeString(other.resolve("tokenizer.json"), "{ not json");
    assertThatThrownBy(() -> new OnnxFileEmbedder(model, bad, OnnxFileEmbedder.Pooling.MEAN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(bad.toAbsolutePath().toString());
  }

  @Test
  void poolingParsesBothNames() {
    assertThat(OnnxFileEmbedder.Pooling.parse("CLS")).isEqualTo(OnnxFileEmbedder.Pooling.CLS);
    assertThat(OnnxFileEmbedder.Pooling.parse(" mean ")).isEqualTo(OnnxFileEmbedder.Pooling.MEAN);
    assertThatThrownBy(() -> OnnxFileEmbedder.Pooling.parse("max"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max");
  }
}
