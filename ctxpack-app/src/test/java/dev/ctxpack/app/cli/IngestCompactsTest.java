package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ctxpack ingest} ends a bulk load by merging the index into one segment: thirty files
 * committed five at a time make one segment, whose searches answer exactly as an index written in
 * one commit does; a file added later to that index is too small a share to merge anything.
 */
class IngestCompactsTest {
  @TempDir Path dir;

  private static int segments(Path index) throws Exception {
    try (var d = FSDirectory.open(index)) {
      return SegmentInfos.readLatestCommit(d).size();
    }
  }

  @Test
  void aLoadCommittedInPartsIsMergedAndSearchesTheSame() throws Exception {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    for (int i = 0; i < 30; i++) {
      String text = i % 2 == 0
          ? "Report " + i + ". The river delta floods every spring and the farmers move their herds " + i + " miles inland."
          : "Relatório " + i + ". A serra recebe chuvas fortes no verão e as estradas fecham por " + i + " dias.";
      Files.writeString(docs.resolve(String.format("doc-%02d.txt", i)), text);
    }
    Path sliced = dir.resolve("sliced");
    CliRunner r = CliRunner.run("ingest", "--index", sliced.toString(), "--no-embed", "--commit-every", "5",
        "--progress", "always", "--format", "json", docs.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("added").asInt()).isEqualTo(30);
    assertThat(r.err()).contains("progress: merging the index's segments");
    assertThat(segments(sliced)).isEqualTo(1);

    Path whole = dir.resolve("whole");
    assertThat(CliRunner.run("ingest", "--index", whole.toString(), "--no-embed", "--format", "json", docs.toString()).code())
        .isZero();
    for (String q : new String[] {"river delta floods", "chuvas fortes na serra", "estradas 7 dias"}) {
      CliRunner a = CliRunner.run("search", "--index", sliced.toString(), "--format", "json", "-k", "10", "-q", q);
      CliRunner b = CliRunner.run("search", "--index", whole.toString(), "--format", "json", "-k", "10", "-q", q);
      assertThat(a.code()).as(a.err()).isZero();
      assertThat(a.json().get("results")).as(q).isNotEmpty().isEqualTo(b.json().get("results"));
    }

    // One more file: a thirty-first of the index, not worth rewriting the rest.
    Path more = Files.createDirectories(dir.resolve("more"));
    Files.writeString(more.resolve("late.txt"), "A late report on the river delta and its herds.");
    assertThat(CliRunner.run("ingest", "--index", sliced.toString(), "--no-embed", "--format", "json", more.toString()).code())
        .isZero();
    assertThat(segments(sliced)).isEqualTo(2);
  }
}
