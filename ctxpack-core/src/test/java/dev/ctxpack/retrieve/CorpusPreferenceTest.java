package dev.ctxpack.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.index.Index;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Boilerplate down-weighting and the preference for originals over their marked near-duplicates. */
class CorpusPreferenceTest {
  static final String SENTENCE = "Nanotechnologies are emerging platforms that could be useful in measuring, understanding, and"
      + " manipulating stem cells. Examples include magnetic nanoparticles and quantum dots for stem cell labeling and"
      + " in vivo tracking; nanoparticles, carbon nanotubes, and polyplexes for the intracellular delivery of"
      + " genes/oligonucleotides and protein/peptides; and engineered nanometer-scale scaffolds for stem cell"
      + " differentiation and transplantation. This review examines the use of nanotechnologies for stem cell tracking,"
      + " differentiation, and transplantation. We further discuss their utility and the potential concerns regarding"
      + " their cytotoxicity.";
  static final String NOTICE = "This abstract is distributed under the Open Data Commons Attribution License.";

  private static Candidate c(String id, String doc, String text, double bm25, double fused) {
    Chunk chunk = new Chunk(id, doc, new Span(0, text.length()), text, "", 0, 10);
    return new Candidate(chunk, new DocInfo(doc, "", "", null, null), Scores.of(Signal.BM25, bm25).with(Signal.FUSED, fused));
  }

  @Test
  void boilerplateIsDownWeightedAndTheOriginalTakesTheBetterScore() {
    Candidate copy = c("copy#0", "copy", SENTENCE, 9.0, 0.9);
    Candidate notice = c("orig#1", "orig", NOTICE, 8.0, 0.8);
    Candidate original = c("orig#0", "orig", SENTENCE.replace("could be", "may be"), 7.0, 0.7);
    Map<String, Index.ChunkMarks> marks = Map.of(
        "copy#0", new Index.ChunkMarks("copy", "orig", 0.93, 1),
        "orig#1", new Index.ChunkMarks("orig", "", 0, 12),
        "orig#0", new Index.ChunkMarks("orig", "", 0, 1));
    Trace trace = new Trace();
    List<Candidate> out = CorpusPreference.defaults().apply(List.of(copy, notice, original), marks, trace);

    assertThat(out).extracting(x -> x.chunk().id()).containsExactly("orig#0", "copy#0", "orig#1");
    assertThat(out.get(0).scores()).isEqualTo(copy.scores());
    assertThat(out.get(1).scores()).isEqualTo(original.scores());
    assertThat(out.get(2).scores().getOr(Signal.BM25, 0)).isEqualTo(4.0);
    assertThat(out.get(2).score()).isEqualTo(0.4);
    assertThat(trace.decisions()).extracting(d -> d.rule()).containsExactly("corpus:boilerplate", "corpus:near-duplicate-of");
    assertThat(trace.decisions().get(1).into()).isEqualTo("orig#0");
    assertThat(trace.decisions().get(0).reason()).contains("12 documents");
  }

  @Test
  void aMarkedChunkThatDoesNotRepeatTheOriginalKeepsItsScore() {
    Candidate copy = c("copy#3", "copy", NOTICE, 9.0, 0.9);
    Candidate original = c("orig#0", "orig", SENTENCE, 7.0, 0.7);
    Map<String, Index.ChunkMarks> marks = Map.of("copy#3", new Index.ChunkMarks("copy", "orig", 0.85, 1));
    Trace trace = new Trace();
    List<Candidate> out = CorpusPreference.defaults().apply(List.of(copy, original), marks, trace);
    assertThat(out).containsExactly(copy, original);
    assertThat(trace.decisions()).isEmpty();
  }

  @Test
  void badSettingsAreNamed() {
    assertThatThrownBy(() -> new CorpusPreference(1, 0.5)).hasMessageContaining("minDocuments must be >= 2, was 1");
    assertThatThrownBy(() -> new CorpusPreference(5, 0)).hasMessageContaining("factor must be in (0, 1], was 0.0");
  }
}
