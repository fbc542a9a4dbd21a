package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.cli.CliRunner;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two files of one ingest giving one {@code _id} to different texts used to leave "added 1,
 * duplicates 1, duplicatesOf []" and the second text silently gone. The clash is now a failure
 * naming the id and both files (exit 1, the other documents ingested); the same id with the same
 * text is an exact copy, listed in {@code duplicatesOf}.
 */
class DuplicateIdInOneRunTest {
  @TempDir Path dir;

  @Test
  void aGivenIdWithOtherContentIsAFailureNamingBothFiles() throws Exception {
    Files.writeString(dir.resolve("a.jsonl"), "{\"_id\": \"y\", \"text\": \"alpha\"}\n{\"_id\": \"z\", \"text\": \"zeta\"}\n");
    Files.writeString(dir.resolve("b.jsonl"), "{\"_id\": \"y\", \"text\": \"beta\"}\n{\"_id\": \"w\", \"text\": \"omega\"}\n");
    String index = dir.resolve("index").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json",
        dir.resolve("a.jsonl").toString(), dir.resolve("b.jsonl").toString());
    assertThat(in.code()).as(in.err()).isEqualTo(1);
    JsonNode s = new ObjectMapper().readTree(in.out());
    assertThat(s.get("added").asInt()).isEqualTo(3);
    assertThat(s.get("duplicates").asInt()).isZero();
    assertThat(s.get("failed")).hasSize(1);
    JsonNode f = s.get("failed").get(0);
    assertThat(f.toString()).contains("b.jsonl#y").contains("a.jsonl").contains("'y'");
    CliRunner search = CliRunner.run("search", "--index", index, "--format", "json", "--mode", "bm25", "-q", "alpha");
    assertThat(search.out()).as(search.err()).contains("\"docId\":\"y\"");
  }

  @Test
  void aGivenIdRepeatedWithTheSameContentIsAnExactCopy() throws Exception {
    Files.writeString(dir.resolve("a.jsonl"), "{\"_id\": \"y\", \"text\": \"alpha\"}\n");
    Files.writeString(dir.resolve("b.jsonl"), "{\"_id\": \"y\", \"text\": \"alpha\"}\n");
    CliRunner in = CliRunner.run("ingest", "--index", dir.resolve("index").toString(), "--no-embed", "--format", "json",
        dir.resolve("a.jsonl").toString(), dir.resolve("b.jsonl").toString());
    assertThat(in.code()).as(in.err()).isZero();
    JsonNode s = new ObjectMapper().readTree(in.out());
    assertThat(s.get("added").asInt()).isEqualTo(1);
    assertThat(s.get("duplicates").asInt()).isEqualTo(1);
    assertThat(s.get("duplicatesOf").toString()).contains("b.jsonl").contains("\"y\"");
  }
}
