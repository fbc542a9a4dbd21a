package dev.ctxpack.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One corpus in the embedded index, a one-shard collection and a 2 × 2 collection: every search
 * returns the same chunks with the same scores in all three, for everyone and for a principal's
 * view. BM25 does not depend on which shard holds a chunk, nor on what the reader cannot see.
 */
class SolrScoringTest {
  private static final String[] EN = ("salary review team engineer handbook manager budget meeting garden bird cat"
      + " morning market stock announcement policy leave holiday office remote contract vendor invoice").split(" ");
  private static final String[] PT = ("avaliação curso graduação resultado portal clima cerrado inverno matrícula"
      + " renovação bolsa estudante professor campus biblioteca prazo edital inscrição").split(" ");
  private static final List<String> QUERIES = List.of("salary review", "engineer handbook budget", "garden bird morning",
      "stock market announcement", "remote office contract", "avaliação do curso", "renovação de matrícula prazo",
      "bolsa estudante", "clima do cerrado no inverno", "vendor invoice holiday", "the manager");

  @TempDir static Path dir;
  private static Index lucene;
  private static Index oneShard;
  private static Index twoByTwo;
  private static final List<IndexSpec> specs = new ArrayList<>();

  @BeforeAll
  static void writeOneCorpusThreeTimes() throws IOException {
    List<IndexEntry> entries = corpus(new Random(42), 120);
    lucene = Indexes.open(IndexSpec.ofPath(dir.resolve("lucene")));
    IndexSpec one = SolrTestCluster.newSpec("scoring1");
    SolrCollections.init(one, 1, 1, 0);
    IndexSpec two = SolrTestCluster.newSpec("scoring22");
    SolrCollections.init(two, 2, 2, 0);
    specs.addAll(List.of(one, two));
    oneShard = Indexes.openExisting(one);
    twoByTwo = Indexes.openExisting(two);
    for (Index i : List.of(lucene, oneShard, twoByTwo)) i.write(entries, List.of());
  }

  @AfterAll
  static void close() throws IOException {
    for (Index i : List.of(lucene, oneShard, twoByTwo)) i.close();
    for (IndexSpec s : specs) SolrCollections.delete(s);
  }

  /** Documents of 1 to 3 chunks of random words, English or Portuguese, every third labelled "hr", with 8-dim vectors. */
  static List<IndexEntry> corpus(Random r, int n) {
    List<IndexEntry> out = new ArrayList<>();
    for (int d = 0; d < n; d++) {
      boolean pt = d % 4 == 3;
      String[] words = pt ? PT : EN;
      List<String> texts = new ArrayList<>();
      for (int c = 0, chunks = 1 + r.nextInt(3); c < chunks; c++) {
        StringBuilder t = new StringBuilder();
        for (int w = 0, len = 5 + r.nextInt(30); w < len; w++) t.append(w == 0 ? "" : " ").append(words[r.nextInt(words.length)]);
        texts.add(t.append('.').toString());
      }
      String id = "d" + d;
      Map<String, String> meta = d % 3 == 0 ? Map.of("acl", "hr") : Map.of();
      Document doc = new Document(id, "file:///" + id, "Doc " + d, pt ? Language.PT : Language.EN, meta, String.join("\n", texts));
      List<Chunk> chunks = new ArrayList<>();
      List<ChunkVector> vectors = new ArrayList<>();
      int at = 0;
      for (String t : texts) {
        Chunk c = new Chunk(id + "#" + chunks.size(), id, new Span(at, at + t.length()), t, "", 0, t.split(" ").length);
        float[] v = new float[8];
        for (int i = 0; i < 8; i++) v[i] = (float) r.nextGaussian();
        vectors.add(new ChunkVector(chunks.size(), c.span(), Embedder.normalize(v)));
        chunks.add(c);
        at += t.length() + 1;
      }
      out.add(new IndexEntry(doc, "/src/" + id, "h" + d, chunks, vectors, "scoring-emb"));
    }
    return out;
  }

  /**
   * The first {@code k} of {@code more} (a longer list of the embedded index's) by score, ties by
   * chunk id: the embedded index cuts its own top k among equal scores by Lucene's document order.
   */
  private static List<Candidate> top(List<Candidate> more, int k, Signal signal) {
    List<Candidate> sorted = new ArrayList<>(more);
    sorted.sort(java.util.Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(signal, 0)).thenComparing(c -> c.chunk().id()));
    return sorted.subList(0, Math.min(k, sorted.size()));
  }

  private static void assertSame(List<Candidate> expected, List<Candidate> got, Signal signal, String what) {
    assertThat(got).extracting(c -> c.chunk().id()).as(what).containsExactlyElementsOf(expected.stream().map(c -> c.chunk().id()).toList());
    for (int i = 0; i < got.size(); i++) {
      double e = expected.get(i).scores().getOr(signal, -1);
      assertThat(got.get(i).scores().getOr(signal, -2)).as(what + " #" + i).isCloseTo(e, offset(1e-4 * Math.max(1, e)));
      assertThat(got.get(i).chunk()).isEqualTo(expected.get(i).chunk());
      assertThat(got.get(i).doc()).isEqualTo(expected.get(i).doc());
    }
  }

  @Test
  void bm25IsTheEmbeddedIndexsOnOneShardAndOnTwo() throws IOException {
    int nonEmpty = 0;
    for (String q : QUERIES) {
      List<Candidate> expected = top(lucene.searchSparse(q, 80), 20, Signal.BM25);
      if (!expected.isEmpty()) nonEmpty++;
      assertSame(expected, oneShard.searchSparse(q, 20), Signal.BM25, "1 shard: " + q);
      assertSame(expected, twoByTwo.searchSparse(q, 20), Signal.BM25, "2 x 2: " + q);
    }
    assertThat(nonEmpty).isGreaterThanOrEqualTo(QUERIES.size() - 1);
  }

  @Test
  void aViewScoresAsTheEmbeddedIndexsViewOnEveryLayout() throws IOException {
    Access open = Access.labels(List.of());
    SearchableIndex expectedView = lucene.readableBy(open);
    for (String q : QUERIES) {
      List<Candidate> expected = top(expectedView.searchSparse(q, 80), 20, Signal.BM25);
      assertThat(expected).allMatch(c -> !c.doc().metadata().containsKey("acl"));
      assertSame(expected, oneShard.readableBy(open).searchSparse(q, 20), Signal.BM25, "view, 1 shard: " + q);
      assertSame(expected, twoByTwo.readableBy(open).searchSparse(q, 20), Signal.BM25, "view, 2 x 2: " + q);
    }
    assertThat(twoByTwo.readableBy(open).stats()).isEqualTo(expectedView.stats());
  }

  @Test
  void denseSearchAndChunkVectorsAreTheEmbeddedIndexs() throws IOException {
    Random r = new Random(7);
    for (int i = 0; i < 10; i++) {
      float[] q = new float[8];
      for (int d = 0; d < 8; d++) q[d] = (float) r.nextGaussian();
      q = Embedder.normalize(q);
      List<Candidate> expected = top(lucene.searchDense(q, 40), 10, Signal.DENSE);
      assertSame(expected, oneShard.searchDense(q, 10), Signal.DENSE, "dense, 1 shard");
      assertSame(expected, twoByTwo.searchDense(q, 10), Signal.DENSE, "dense, 2 x 2");
    }
    assertThat(twoByTwo.stats()).isEqualTo(lucene.stats());
    List<String> ids = List.of("d1#0", "d2#0", "d5#1", "nope#0");
    Map<String, float[]> expected = lucene.chunkVectors(ids);
    Map<String, float[]> got = twoByTwo.chunkVectors(ids);
    assertThat(got.keySet()).isEqualTo(expected.keySet());
    expected.forEach((id, v) -> assertThat(got.get(id)).containsExactly(v, offset(1e-5f)));
  }
}
