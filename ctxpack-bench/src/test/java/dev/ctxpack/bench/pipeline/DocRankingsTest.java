package dev.ctxpack.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocRankingsTest {

  private static Candidate chunk(String docId, int ordinal, double score) {
    String text = "text of " + docId + " " + ordinal;
    return new Candidate(new Chunk(docId + "#" + ordinal, docId, new Span(0, text.length()), text, "", 0, 3),
        new DocInfo(docId, "", "", null, null), Scores.of(Signal.FUSED, score));
  }

  @Test
  void aDocumentTakesTheRankOfItsBestChunk() {
    List<Candidate> chunks = List.of(chunk("d1", 0, 0.9), chunk("d2", 0, 0.8), chunk("d1", 1, 0.7), chunk("d3", 2, 0.6),
        chunk("d2", 1, 0.5));
    assertThat(DocRankings.fromChunks(chunks)).containsExactly("d1", "d2", "d3");
  }

  @Test
  void noChunksNoDocuments() {
    assertThat(DocRankings.fromChunks(List.of())).isEmpty();
  }
}
