package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.CorpusMarks;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only the Lucene view does: {@link dev.ctxpack.index.Access#ALL} is the index itself, and
 * documents written before access terms were indexed are counted. What every view lets through is
 * {@link LuceneIndexContractTest}.
 */
class AccessFilterTest {
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15);

  /** A document labelled {@code labels} (none: readable by all), every chunk with vector {@code v}. */
  private IndexEntry entry(String id, String text, float[] v, CorpusMarks marks, String... labels) {
    Map<String, String> meta = labels.length == 0 ? Map.of() : Map.of(Access.METADATA_KEY, Access.join(List.of(labels)));
    Document d = new Document(id, "", "Doc " + id, Language.EN, meta, text);
    List<Chunk> chunks = chunker.chunk(d);
    List<float[]> vs = chunks.stream().map(c -> v.clone()).toList();
    return IndexEntry.withChunkVectors(d, "/src/" + id, "h" + id, chunks, vs, "test-emb").withCorpus(marks);
  }

  private static float[] unit(float... v) {
    return Embedder.normalize(v);
  }

  private LuceneIndex corpus() throws Exception {
    LuceneIndex index = LuceneIndex.open(dir);
    index.write(List.of(
        // The secret document matches the query best on both signals.
        entry("secret", "Salary bands salary bands salary bands for every engineer in 2026.", unit(1, 0, 0), CorpusMarks.NONE, "hr"),
        entry("public", "The handbook mentions salary reviews once a year.", unit(0.6f, 0.8f, 0), CorpusMarks.NONE),
        entry("eng", "Engineers are reviewed on salary and scope by their managers.", unit(0.8f, 0.6f, 0),
            new CorpusMarks(null, List.of(), "secret", 0.9, 0), "eng", "leads")), List.of());
    return index;
  }

  @Test
  void aViewIsNotNarrowedAgainAndEverythingIsTheIndexItself() throws Exception {
    try (LuceneIndex index = corpus()) {
      assertThat(index.readableBy(Access.ALL)).isSameAs(index);
      assertThat(index.documentsWithoutAccessTerms()).isZero();
      SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
      assertThatThrownBy(() -> eng.readableBy(Access.ALL)).isInstanceOf(UnsupportedOperationException.class);
      assertThat(index.find("secret")).isPresent();
    }
  }

  @Test
  void documentsWrittenBeforeAccessTermsAreCounted() throws Exception {
    corpus().close();
    // A record as an index of an earlier version holds it: no access terms.
    try (var dirs = org.apache.lucene.store.FSDirectory.open(dir);
        var w = new org.apache.lucene.index.IndexWriter(dirs, new org.apache.lucene.index.IndexWriterConfig())) {
      var d = new org.apache.lucene.document.Document();
      d.add(new org.apache.lucene.document.StringField(Fields.TYPE, Fields.TYPE_DOC, org.apache.lucene.document.Field.Store.YES));
      d.add(new org.apache.lucene.document.StringField(Fields.DOC_KEY, "legacy", org.apache.lucene.document.Field.Store.YES));
      w.addDocument(d);
      w.commit();
    }
    try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
      assertThat(index.documentsWithoutAccessTerms()).isEqualTo(1);
      assertThat(index.readableBy(Access.labels(List.of("eng"))).stats().documents()).isEqualTo(2);
    }
  }

  @Test
  void labelsAreChecked() {
    assertThatThrownBy(() -> Access.join(List.of("a,b"))).hasMessageContaining("comma");
    assertThatThrownBy(() -> Access.labels(List.of(" x"))).hasMessageContaining("spaces");
    assertThatThrownBy(() -> Access.labels(List.of(""))).hasMessageContaining("blank");
    assertThat(Access.parse("b, a ,,")).containsExactly("a", "b");
    assertThat(Access.labels(List.of("a")).mayRead(List.of())).isTrue();
    assertThat(Access.labels(List.of("a")).mayRead(List.of("b"))).isFalse();
    assertThat(Access.ALL.mayRead(List.of("b"))).isTrue();
  }
}
