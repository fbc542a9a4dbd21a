package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadersTest {
  @TempDir Path dir;

  @Test
  void jsonlReadsBeirFieldsMetadataAndAcl() throws Exception {
    Path f = dir.resolve("c.jsonl");
    Files.writeString(f, """
        {"_id": "1", "title": "T1", "text": "first", "metadata": {"date": "2025-10-01", "n": 3}, "acl": ["a", "b"]}

        {"id": "2", "text": "segundo", "url": "https://example.org/2"}
        """);
    List<LoadedDocument> docs = new JsonlLoader().load(f);
    assertThat(docs).hasSize(2);
    assertThat(docs.get(0).id()).isEqualTo("1");
    assertThat(docs.get(0).title()).isEqualTo("T1");
    assertThat(docs.get(0).metadata()).containsEntry("date", "2025-10-01").containsEntry("n", "3").containsEntry("acl", "a,b");
    assertThat(docs.get(1).id()).isEqualTo("2");
    assertThat(docs.get(1).uri()).isEqualTo("https://example.org/2");
  }

  @Test
  void jsonlErrorsNameTheFileAndLine() throws Exception {
    Path f = dir.resolve("bad.jsonl");
    Files.writeString(f, "{\"_id\": \"1\", \"text\": \"ok\"}\n{\"_id\": \"2\", \"text\": \"broken\"\n");
    assertThatThrownBy(() -> new JsonlLoader().load(f))
        .isInstanceOf(IngestException.class)
        .hasMessageContaining("bad.jsonl:2:")
        .hasMessageContaining("invalid JSON");
    Files.writeString(f, "{\"_id\": \"1\", \"title\": \"no text\"}\n");
    assertThatThrownBy(() -> new JsonlLoader().load(f)).hasMessageContaining("bad.jsonl:1: missing field 'text'");
    Files.writeString(f, "[1, 2]\n");
    assertThatThrownBy(() -> new JsonlLoader().load(f)).hasMessageContaining(":1: expected a JSON object");
    Files.writeString(f, "{\"_id\": {\"x\": 1}, \"text\": \"t\"}\n");
    assertThatThrownBy(() -> new JsonlLoader().load(f)).hasMessageContaining("field '_id' must be a string");
  }

  @Test
  void markdownTakesTitleAndHeadingPathsButIgnoresHeadingsInCode() throws Exception {
    Path f = dir.resolve("guide.md");
    Files.writeString(f, """
        # Guide

        Intro.

        ## Install
        Steps.

        ```
        # not a heading
        ```

        ### On Linux
        apt-get.

        ## Use
        Run it.
        """);
    LoadedDocument d = new MarkdownLoader().load(f).get(0);
    assertThat(d.title()).isEqualTo("Guide");
    assertThat(d.sections()).extracting(s -> s.path())
        .containsExactly("Guide", "Guide > Install", "Guide > Install > On Linux", "Guide > Use");
    int linux = d.text().indexOf("### On Linux");
    assertThat(d.sections().get(2).start()).isEqualTo(linux);
  }

  @Test
  void textFallsBackToWindows1252WhenNotUtf8AndRejectsBinary() throws Exception {
    Path latin = dir.resolve("latin.txt");
    Files.write(latin, "ação e coração".getBytes(java.nio.charset.Charset.forName("windows-1252")));
    assertThat(new TextLoader().load(latin).get(0).text()).isEqualTo("ação e coração");
    Path bin = dir.resolve("bin.txt");
    Files.write(bin, new byte[] {1, 2, 0, 4});
    assertThatThrownBy(() -> new TextLoader().load(bin)).hasMessageContaining("binary");
    Path utf = dir.resolve("utf.txt");
    Files.writeString(utf, "olá 🌍", StandardCharsets.UTF_8);
    assertThat(new TextLoader().load(utf).get(0).text()).isEqualTo("olá 🌍");
    assertThat(new TextLoader().load(utf).get(0).title()).isEqualTo("utf");
  }

  @Test
  void loadersAreChosenByExtensionCaseInsensitively() {
    Loaders l = Loaders.defaults();
    assertThat(l.forFile(Path.of("A.MD"))).containsInstanceOf(MarkdownLoader.class);
    assertThat(l.forFile(Path.of("x.jsonl"))).containsInstanceOf(JsonlLoader.class);
    assertThat(l.forFile(Path.of("x.txt"))).containsInstanceOf(TextLoader.class);
    assertThat(l.forFile(Path.of("x.docx"))).isEmpty();
    assertThat(l.forFile(Path.of("README"))).isEmpty();
  }
}
