package dev.ctxpack.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.similarity.Boilerplate;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Index} backend must keep (in the manner of Lucene's {@code
 * BaseDirectoryTestCase}): a subclass says how to create a fresh index and how to open it again,
 * and inherits every check. Entries are built from the model's records with fixed vectors, so no
 * embedding model is needed.
 *
 * <ul>
 *   <li>what is written reads back whole: documents, stored records, counts, chunks at their offsets;
 *   <li>writing unchanged content again changes nothing; a replaced document leaves nothing of its
 *       old version (chunks, window vectors, sentence vectors); a removed one is gone from every read;
 *   <li>BM25 analyses each document by its language; dense search ranks chunks by their best window;
 *       ties are broken by chunk id;
 *   <li>a principal's view ({@link SearchableIndex#readableBy}) reads only what it may read, and
 *       scores as an index holding only that would;
 *   <li>sentence vectors come back per chunk, in order, within quantisation tolerance;
 *   <li>corpus marks, recurrence counts, recorded exact duplicates and recurring chunk texts are
 *       kept, counted over live documents, and go with their document;
 *   <li>the index records its embedder and refuses vectors of another;
 *   <li>only committed batches are ever visible, also after the index is opened again, and a
 *       failure in a batch leaves the index as it was.
 * </ul>
 *
 * <p>A subclass in another module depends on ctxpack-core's test jar ({@code
 * <type>test-jar</type>}).
 */
public abstract class IndexContract {
  /** The embedder id of every vector the suite writes. */
  protected static final String EMBEDDER = "contract-emb";

  private final List<Index> open = new ArrayList<>();

  /**
   * A new, empty index called {@code name}; names are unique within one test, which may create
   * several.
   */
  protected abstract Index create(String name) throws IOException;

  /**
   * The index {@code name} created earlier in this test, opened again as another process would open
   * it: after it was closed, or while it is still open (a reader beside a writer).
   */
  protected abstract Index reopen(String name) throws IOException;

  private Index created(String name) throws IOException {
    Index index = create(name);
    open.add(index);
    return index;
  }

  private Index reopened(String name) throws IOException {
    Index index = reopen(name);
    open.add(index);
    return index;
  }

  private void close(Index index) throws IOException {
    open.remove(index);
    index.close();
  }

  @AfterEach
  void closeIndexes() throws IOException {
    for (Index index : List.copyOf(open)) close(index);
  }

  // ---- fixtures ------------------------------------------------------------------------------

  /**
   * A document whose chunks are {@code chunks}, one per line; each chunk's sentences end at {@code
   * ". "} inside it. Its title names no word a query of the suite looks for.
   */
  protected static Document doc(String id, Language language, Map<String, String> metadata, String... chunks) {
    return new Document(id, "file:///docs/" + id + ".txt", title(id), language, metadata, String.join("\n", chunks));
  }

  private static String title(String id) {
    return "Record " + Integer.toHexString(id.hashCode());
  }

  /** The chunks of a {@link #doc}: one per line, with its offsets, a section, a page and its word count. */
  protected static List<Chunk> chunks(Document d) {
    List<Chunk> out = new ArrayList<>();
    int at = 0;
    for (String line : d.text().split("\n", -1)) {
      out.add(new Chunk(d.id() + "#" + out.size(), d.id(), new Span(at, at + line.length()), line,
          "Part " + (out.size() + 1), out.size() + 1, line.split(" ").length));
      at += line.length() + 1;
    }
    return out;
  }

  /** The document offsets of the sentences of {@code chunk}: each ends at a period followed by a space. */
  protected static List<Span> sentences(Chunk chunk) {
    List<Span> out = new ArrayList<>();
    String t = chunk.text();
    int from = 0;
    for (int i = t.indexOf(". "); i >= 0; i = t.indexOf(". ", i + 1)) {
      out.add(new Span(chunk.span().start() + from, chunk.span().start() + i + 1));
      from = i + 2;
    }
    out.add(new Span(chunk.span().start() + from, chunk.span().end()));
    return out;
  }

  /** An entry without vectors or marks, from {@code /src/<id>.txt}. */
  protected static IndexEntry plain(Document d) {
    return new IndexEntry(d, "/src/" + d.id() + ".txt", "h-" + d.text().hashCode(), chunks(d), List.of(), null);
  }

  /**
   * An entry whose every chunk has one window vector {@code v} (over the whole chunk) and every
   * sentence the sentence vector {@code v}, with corpus marks {@code marks}.
   */
  protected static IndexEntry vectors(Document d, float[] v, CorpusMarks marks) {
    List<Chunk> cs = chunks(d);
    List<ChunkVector> windows = new ArrayList<>();
    List<ChunkVector> sentences = new ArrayList<>();
    for (int i = 0; i < cs.size(); i++) {
      windows.add(new ChunkVector(i, cs.get(i).span(), v.clone()));
      for (Span s : sentences(cs.get(i))) sentences.add(new ChunkVector(i, s, v.clone()));
    }
    return new IndexEntry(d, "/src/" + d.id() + ".txt", "h-" + d.text().hashCode(), cs, windows, EMBEDDER, sentences, marks);
  }

  protected static IndexEntry vectors(Document d, float[] v) {
    return vectors(d, v, CorpusMarks.NONE);
  }

  /** An entry with a random unit window vector per chunk and a random unit vector per sentence, of {@code dim}. */
  protected static IndexEntry randomVectors(Document d, long seed, int dim) {
    Random r = new Random(seed);
    List<Chunk> cs = chunks(d);
    List<ChunkVector> windows = new ArrayList<>();
    List<ChunkVector> sentences = new ArrayList<>();
    for (int i = 0; i < cs.size(); i++) {
      windows.add(new ChunkVector(i, cs.get(i).span(), randomUnit(r, dim)));
      for (Span s : sentences(cs.get(i))) sentences.add(new ChunkVector(i, s, randomUnit(r, dim)));
    }
    return new IndexEntry(d, "/src/" + d.id() + ".txt", "h-" + seed, cs, windows, EMBEDDER, sentences);
  }

  protected static float[] unit(float... v) {
    return Embedder.normalize(v);
  }

  private static float[] randomUnit(Random r, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) v[i] = (float) r.nextGaussian();
    return Embedder.normalize(v);
  }

  private static List<String> chunkIds(IndexEntry e) {
    return e.chunks().stream().map(Chunk::id).toList();
  }

  private static Set<String> docIds(List<Candidate> cs) {
    Set<String> out = new TreeSet<>();
    for (Candidate c : cs) out.add(c.doc().id());
    return out;
  }

  private static final Map<String, String> DATED = Map.of("date", "2025-01-02", "author", "Ana");
  private static final Document CATS = doc("en-cats", Language.EN, DATED,
      "Cats are running across the gardens every morning.", "They chase the birds. Then they sleep in the sun.");
  private static final Document MARKETS = doc("en-markets", Language.EN, Map.of(),
      "Stock markets fell sharply after the announcement.");
  private static final Document AVALIACOES = doc("pt-avaliacoes", Language.PT, Map.of(),
      "As avaliações dos cursos de graduação são publicadas em março.", "O resultado sai no portal.");
  private static final Document CLIMA = doc("pt-clima", Language.PT, Map.of(),
      "O clima do cerrado é quente e seco durante o inverno.");

  // ---- writes and reads ----------------------------------------------------------------------

  @Test
  public void writtenEntriesReadBackWhole() throws IOException {
    Index index = created("main");
    IndexEntry cats = vectors(CATS, unit(1, 0, 0));
    IndexEntry pt = plain(AVALIACOES);
    index.write(List.of(cats, pt), List.of());

    assertThat(index.document("en-cats")).contains(CATS);
    assertThat(index.document("pt-avaliacoes")).contains(AVALIACOES);
    assertThat(index.document("nope")).isEmpty();
    assertThat(index.find("en-cats")).contains(new WritableIndex.StoredDoc("en-cats", CATS.uri(), CATS.title(),
        "/src/en-cats.txt", cats.contentHash(), 2));
    assertThat(index.find("nope")).isEmpty();
    assertThat(index.stats()).isEqualTo(new SearchableIndex.Stats(2, 4, 2, Optional.of(EMBEDDER), 3));

    // Chunks come back as written: text, offsets, section, page, tokens, and their document.
    Candidate top = index.searchSparse("running gardens", 10).get(0);
    assertThat(top.chunk()).isEqualTo(cats.chunks().get(0));
    assertThat(top.doc()).isEqualTo(CATS.info());
    assertThat(index.searchDense(unit(1, 0, 0), 10)).extracting(Candidate::chunk).containsExactlyInAnyOrderElementsOf(cats.chunks());
    for (String q : List.of("birds sun", "avaliações resultado portal", "cats morning")) {
      for (Candidate c : index.searchSparse(q, 10)) {
        String text = index.document(c.doc().id()).orElseThrow().text();
        assertThat(text.substring(c.chunk().span().start(), c.chunk().span().end())).as(q).isEqualTo(c.chunk().text());
      }
    }
  }

  @Test
  public void storedDocumentsAreFoundBySourcePathPrefix() throws IOException {
    Index index = created("main");
    index.write(List.of(plain(CATS), plain(CLIMA)), List.of());
    assertThat(index.findBySourcePath("/src/")).extracting(WritableIndex.StoredDoc::id).containsExactly("en-cats", "pt-clima");
    assertThat(index.findBySourcePath("/src/pt-clima.txt")).extracting(WritableIndex.StoredDoc::id).containsExactly("pt-clima");
    assertThat(index.findBySourcePath("/elsewhere/")).isEmpty();
  }

  @Test
  public void findAllIsFindForManyDocumentsAtOnce() throws IOException {
    Index index = created("main");
    index.write(List.of(plain(CATS), plain(CLIMA), plain(MARKETS)), List.of());
    Map<String, WritableIndex.StoredDoc> found = index.findAll(List.of("pt-clima", "nope", "en-cats", "pt-clima"));
    assertThat(found).containsOnlyKeys("pt-clima", "en-cats");
    assertThat(found.get("en-cats")).isEqualTo(index.find("en-cats").orElseThrow());
    assertThat(found.get("pt-clima")).isEqualTo(index.find("pt-clima").orElseThrow());
    assertThat(index.findAll(List.of())).isEmpty();
    index.remove(List.of("en-cats"));
    assertThat(index.findAll(List.of("en-cats", "en-markets"))).containsOnlyKeys("en-markets");
  }

  @Test
  public void aReportingViewOfAWholeIndexReadsAsTheIndexAndReportsNothingMissing() throws IOException {
    Index index = created("main");
    index.write(List.of(vectors(CATS, unit(1, 0, 0)), plain(CLIMA), plain(MARKETS)), List.of());
    ReadCoverage coverage = new ReadCoverage();
    SearchableIndex view = index.reportingTo(coverage);
    assertThat(view.searchSparse("running gardens", 10)).isEqualTo(index.searchSparse("running gardens", 10));
    assertThat(view.searchDense(unit(1, 0, 0), 5)).isEqualTo(index.searchDense(unit(1, 0, 0), 5));
    assertThat(view.chunkMarks(List.of("en-cats#0"))).isEqualTo(index.chunkMarks(List.of("en-cats#0")));
    assertThat(view.stats()).isEqualTo(index.stats());
    SearchableIndex narrowed = index.readableBy(Access.labels(List.of("eng"))).reportingTo(coverage);
    assertThat(narrowed.searchSparse("running gardens", 10))
        .isEqualTo(index.readableBy(Access.labels(List.of("eng"))).searchSparse("running gardens", 10));
    assertThat(coverage.partial()).isFalse();
    assertThat(coverage.missingShards()).isEmpty();
  }

  @Test
  public void aRequestViewGivesTheCorpusMarksOfWhatItFoundAsTheIndexDoes() throws IOException {
    Index index = accessCorpus();
    SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
    for (SearchableIndex base : List.of(index, eng)) {
      SearchableIndex request = base.reportingTo(new ReadCoverage());
      List<String> ids = new ArrayList<>();
      request.searchSparse("salary handbook engineers", 50).forEach(c -> ids.add(c.chunk().id()));
      request.searchDense(unit(1, 0, 0), 50).forEach(c -> ids.add(c.chunk().id()));
      ids.add("secret#0");
      ids.add("nope#0");
      assertThat(request.chunkMarks(ids)).isEqualTo(base.chunkMarks(ids));
    }
    // What the marks say is the view's: a mark naming an unreadable document is not shown.
    SearchableIndex request = eng.reportingTo(new ReadCoverage());
    request.searchSparse("salary handbook engineers", 50);
    assertThat(request.chunkMarks(List.of("eng#0")).get("eng#0").nearDuplicateOf()).isEmpty();
    assertThat(request.chunkMarks(List.of("eng#1")).get("eng#1").recurrence()).isEqualTo(2);
  }

  @Test
  public void writingUnchangedContentAgainChangesNothing() throws IOException {
    Index index = created("main");
    IndexEntry cats = vectors(CATS, unit(1, 0, 0));
    index.write(List.of(cats, plain(CLIMA)), List.of());
    WritableIndex.StoredDoc first = index.find("en-cats").orElseThrow();
    SearchableIndex.Stats stats = index.stats();

    index.write(List.of(vectors(CATS, unit(1, 0, 0))), List.of());
    assertThat(index.find("en-cats")).contains(first);
    assertThat(first.contentHash()).isEqualTo(cats.contentHash());
    assertThat(first.chunks()).isEqualTo(cats.chunks().size());
    assertThat(index.stats()).isEqualTo(stats);
    assertThat(index.searchSparse("running gardens", 10)).extracting(c -> c.chunk().id()).containsOnlyOnce("en-cats#0");
    assertThat(index.searchDense(unit(1, 0, 0), 10)).hasSize(2);
  }

  @Test
  public void aReplacedDocumentLeavesNothingOfItsOldVersion() throws IOException {
    Index index = created("main");
    Document v1 = doc("d", Language.EN, Map.of("version", "1"),
        "Old words about lighthouses. More lighthouses here.", "Lighthouse keepers.", "Foghorns and lenses.");
    IndexEntry old = randomVectors(v1, 1, 8);
    index.write(List.of(old, plain(MARKETS)), List.of());
    assertThat(index.stats().chunks()).isEqualTo(4);

    Document v2 = doc("d", Language.EN, Map.of("version", "2"), "New text about windmills.");
    IndexEntry now = randomVectors(v2, 2, 8);
    index.write(List.of(now), List.of());

    assertThat(index.document("d")).contains(v2);
    assertThat(index.find("d").orElseThrow().contentHash()).isEqualTo(now.contentHash());
    assertThat(index.stats()).isEqualTo(new SearchableIndex.Stats(2, 2, 1, Optional.of(EMBEDDER), 8));
    assertThat(index.searchSparse("lighthouses foghorns keepers", 10)).isEmpty();
    assertThat(index.searchSparse("windmills", 10)).extracting(c -> c.chunk().text()).containsExactly("New text about windmills.");
    // Only the new version's vectors are read: d#0 has the new window, d#1 and d#2 are gone.
    Map<String, float[]> vs = index.chunkVectors(chunkIds(old));
    assertThat(vs).containsOnlyKeys("d#0");
    assertThat(vs.get("d#0")).containsExactly(now.vectors().get(0).vector(), Offset.offset(1e-5f));
    var sv = index.sentenceVectors(chunkIds(old));
    assertThat(sv).containsOnlyKeys("d#0");
    assertThat(sv.get("d#0")).hasSize(1);
    assertThat(Embedder.dot(sv.get("d#0").get(0).vector(), now.sentenceVectors().get(0).vector())).isGreaterThan(0.99);
    List<Candidate> dense = index.searchDense(old.vectors().get(2).vector(), 10);
    assertThat(dense).extracting(c -> c.chunk().id()).containsExactly("d#0");
    assertThat(dense.get(0).chunk().text()).isEqualTo("New text about windmills.");
  }

  @Test
  public void removeCountsTheDocumentsThatExistedAndEveryReadForgetsThem() throws IOException {
    Index index = created("main");
    IndexEntry keep = vectors(CATS, unit(1, 0, 0));
    IndexEntry gone = vectors(MARKETS, unit(0, 1, 0), new CorpusMarks(new int[] {1, 2, 3}, List.of("0:aa"), "", 0, 5));
    index.write(List.of(keep, gone), List.of());
    try (WritableIndex.Batch b = index.begin()) {
      b.recordDuplicate(new DuplicateRecord("/src/copy-of-markets.txt", "en-markets", "en-markets"));
      b.commit();
    }

    assertThat(index.remove(List.of("en-markets", "nope", "en-markets"))).isEqualTo(1);
    assertThat(index.remove(List.of("en-markets", "nope"))).isZero();
    assertThat(index.remove(List.of())).isZero();

    assertThat(index.find("en-markets")).isEmpty();
    assertThat(index.document("en-markets")).isEmpty();
    assertThat(index.findBySourcePath("/src/")).extracting(WritableIndex.StoredDoc::id).containsExactly("en-cats");
    assertThat(index.searchSparse("stock markets announcement", 10)).isEmpty();
    assertThat(docIds(index.searchDense(unit(0, 1, 0), 10))).containsExactly("en-cats");
    assertThat(index.chunkVectors(chunkIds(gone))).isEmpty();
    assertThat(index.sentenceVectors(chunkIds(gone))).isEmpty();
    assertThat(index.chunkMarks(chunkIds(gone))).isEmpty();
    assertThat(index.documentsSharingBands(List.of("0:aa"))).isEmpty();
    assertThat(index.corpusDocuments()).extracting(CorpusCatalog.CorpusDoc::id).containsExactly("en-cats");
    assertThat(index.duplicates()).isEmpty();
    assertThat(index.stats()).isEqualTo(new SearchableIndex.Stats(1, 2, 2, Optional.of(EMBEDDER), 3));
  }

  // ---- search --------------------------------------------------------------------------------

  @Test
  public void bm25AnalysesEachDocumentByItsLanguage() throws IOException {
    Index index = created("main");
    index.write(List.of(plain(CATS), plain(MARKETS), plain(AVALIACOES), plain(CLIMA)), List.of());
    // Inflected forms meet their stems: English "runs"/"running", "garden"/"gardens".
    List<Candidate> en = index.searchSparse("a cat runs in the garden", 5);
    assertThat(en).isNotEmpty();
    assertThat(en.get(0).chunk().id()).isEqualTo("en-cats#0");
    assertThat(en.get(0).scores().get(Signal.BM25)).isPresent();
    // Portuguese "avaliação" meets "avaliações", which neither English nor a plain analyzer would stem alike.
    List<Candidate> pt = index.searchSparse("avaliação", 5);
    assertThat(pt).extracting(c -> c.chunk().id()).containsExactly("pt-avaliacoes#0");
    assertThat(pt.get(0).doc().language()).isEqualTo(Language.PT);
    assertThat(index.searchSparse("invernos", 5)).extracting(c -> c.doc().id()).containsExactly("pt-clima");
    List<Candidate> both = index.searchSparse("cats clima", 10);
    assertThat(docIds(both)).containsExactly("en-cats", "pt-clima");
    for (int i = 1; i < both.size(); i++) {
      assertThat(both.get(i).score()).isLessThanOrEqualTo(both.get(i - 1).score());
    }
  }

  @Test
  public void anyTextIsASparseQueryAndOnlyStopWordsFindNothing() throws IOException {
    Index index = created("main");
    assertThat(index.searchSparse("gardens", 5)).isEmpty();
    index.write(List.of(plain(CATS)), List.of());
    assertThat(index.searchSparse("the of and", 5)).isEmpty();
    assertThat(index.searchSparse("gardens AND (\"unbalanced [ * ? ~ ^ : \\ -", 5)).extracting(c -> c.chunk().id())
        .containsExactly("en-cats#0");
    assertThat(index.searchSparse("gardens " + "word ".repeat(5000), 5)).hasSize(1);
    assertThatThrownBy(() -> index.searchSparse("gardens", 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  public void denseSearchRanksChunksByTheCosineOfTheirBestWindow() throws IOException {
    Index index = created("main");
    assertThat(index.searchDense(unit(1, 0, 0), 5)).isEmpty();
    index.write(List.of(plain(CLIMA)), List.of());
    assertThat(index.searchDense(unit(1, 0, 0), 5)).isEmpty();

    String text = "Alpha part of the chunk. Beta part of the chunk.";
    Document w = new Document("w", "", "", Language.EN, Map.of(), text);
    Chunk whole = new Chunk("w#0", "w", new Span(0, text.length()), text, "", 0, 10);
    IndexEntry two = new IndexEntry(w, "", "h", List.of(whole), List.of(
        new ChunkVector(0, new Span(0, 24), unit(1, 0, 0)), new ChunkVector(0, new Span(25, text.length()), unit(0, 1, 0))),
        EMBEDDER);
    index.write(List.of(two, vectors(MARKETS, unit(0.8f, 0.6f, 0)), vectors(AVALIACOES, unit(0, 0, 1))), List.of());

    List<Candidate> byBeta = index.searchDense(unit(0, 1, 0), 10);
    assertThat(byBeta.get(0).chunk()).isEqualTo(whole);
    assertThat(byBeta.get(0).scores().getOr(Signal.DENSE, -9)).isCloseTo(1.0, Offset.offset(1e-5));
    assertThat(byBeta).extracting(c -> c.chunk().id()).containsOnlyOnce("w#0");
    assertThat(byBeta.get(1).doc().id()).isEqualTo("en-markets");
    assertThat(byBeta.get(1).scores().getOr(Signal.DENSE, -9)).isCloseTo(0.6, Offset.offset(1e-5));
    List<Candidate> byAlpha = index.searchDense(unit(1, 0, 0), 2);
    assertThat(byAlpha).extracting(c -> c.chunk().id()).containsExactly("w#0", "en-markets#0");
    assertThat(byAlpha.get(1).scores().getOr(Signal.DENSE, -9)).isCloseTo(0.8, Offset.offset(1e-5));
    assertThat(index.searchDense(unit(0, 0, 1), 1)).extracting(c -> c.doc().id()).containsExactly("pt-avaliacoes");
    assertThatThrownBy(() -> index.searchDense(unit(1, 0, 0), 0)).isInstanceOf(IllegalArgumentException.class);

    // A chunk's vector is the normalised mean of its windows; a chunk without any has none.
    Map<String, float[]> vs = index.chunkVectors(List.of("w#0", "en-markets#0", "pt-clima#0", "missing#3"));
    assertThat(vs).containsOnlyKeys("w#0", "en-markets#0");
    float h = (float) Math.sqrt(0.5);
    assertThat(vs.get("w#0")).containsExactly(new float[] {h, h, 0}, Offset.offset(1e-5f));
    assertThat(index.chunkVectors(List.of())).isEmpty();
  }

  @Test
  public void equalScoresAreOrderedByChunkIdAndTheSameQueryGivesTheSameResults() throws IOException {
    Index index = created("main");
    List<IndexEntry> same = new ArrayList<>();
    for (String id : List.of("d3", "d1", "d4", "d0", "d2")) {
      same.add(vectors(doc(id, Language.EN, Map.of(), "Identical words in every document."), unit(1, 1, 0)));
    }
    index.write(same, List.of());
    List<String> sorted = List.of("d0#0", "d1#0", "d2#0", "d3#0", "d4#0");
    for (int i = 0; i < 3; i++) {
      assertThat(index.searchSparse("identical words", 10)).extracting(c -> c.chunk().id()).containsExactlyElementsOf(sorted);
      assertThat(index.searchDense(unit(1, 1, 0), 10)).extracting(c -> c.chunk().id()).containsExactlyElementsOf(sorted);
    }
  }

  // ---- access --------------------------------------------------------------------------------

  private static Map<String, String> labelled(String... labels) {
    return labels.length == 0 ? Map.of() : Map.of(Access.METADATA_KEY, Access.join(List.of(labels)));
  }

  private static final String SHARED = "Every page of this handbook is confidential.";

  /** A secret document (label hr) that matches best on both signals, a public one, and one (eng, leads) marked a near copy of the secret. */
  private Index accessCorpus() throws IOException {
    Index index = created("main");
    index.write(List.of(
        vectors(doc("secret", Language.EN, labelled("hr"), "Salary bands salary bands salary bands for every engineer in 2026.",
            SHARED), unit(1, 0, 0)),
        vectors(doc("public", Language.EN, labelled(), "The handbook mentions salary reviews once a year.", SHARED),
            unit(0.6f, 0.8f, 0)),
        vectors(doc("eng", Language.EN, labelled("eng", "leads"), "Engineers are reviewed on salary and scope by their managers.",
            SHARED), unit(0.8f, 0.6f, 0), new CorpusMarks(null, List.of(), "secret", 0.9, 0))), List.of());
    return index;
  }

  @Test
  public void aViewReadsOnlyWhatItsAccessMayRead() throws IOException {
    Index index = accessCorpus();
    assertThat(index.searchSparse("salary bands", 1).get(0).doc().id()).isEqualTo("secret");
    assertThat(index.searchDense(unit(1, 0, 0), 1).get(0).doc().id()).isEqualTo("secret");

    SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
    // k = 1 still finds a readable chunk: the filter acts inside the search, not on its top k.
    assertThat(eng.searchSparse("salary bands", 1)).hasSize(1).allMatch(c -> !c.doc().id().equals("secret"));
    assertThat(eng.searchDense(unit(1, 0, 0), 1)).extracting(c -> c.doc().id()).containsExactly("eng");
    assertThat(docIds(eng.searchSparse("salary handbook", 50))).containsExactly("eng", "public");
    assertThat(docIds(eng.searchDense(unit(1, 0, 0), 50))).containsExactly("eng", "public");
    assertThat(eng.document("secret")).isEmpty();
    assertThat(eng.document("eng")).isPresent();
    List<String> secret = List.of("secret#0", "secret#1");
    assertThat(index.chunkVectors(secret)).hasSize(2);
    assertThat(eng.chunkVectors(secret)).isEmpty();
    assertThat(eng.sentenceVectors(secret)).isEmpty();
    assertThat(eng.chunkMarks(secret)).isEmpty();
    assertThat(eng.chunkVectors(List.of("eng#0", "eng#1"))).hasSize(2);
    assertThat(eng.stats()).isEqualTo(new SearchableIndex.Stats(2, 4, 4, Optional.of(EMBEDDER), 3));
    // A near-duplicate mark naming an unreadable document is not shown; recurrence counts readable documents.
    assertThat(index.chunkMarks(List.of("eng#0")).get("eng#0").nearDuplicateOf()).isEqualTo("secret");
    assertThat(eng.chunkMarks(List.of("eng#0")).get("eng#0").nearDuplicateOf()).isEmpty();
    assertThat(index.chunkMarks(List.of("eng#1")).get("eng#1").recurrence()).isEqualTo(3);
    assertThat(eng.chunkMarks(List.of("eng#1")).get("eng#1").recurrence()).isEqualTo(2);

    SearchableIndex nobody = index.readableBy(Access.labels(List.of()));
    assertThat(docIds(nobody.searchSparse("salary handbook engineers", 50))).containsExactly("public");
    assertThat(nobody.stats().documents()).isEqualTo(1);
    // A term only unreadable documents hold finds nothing, and fails nothing.
    assertThat(nobody.searchSparse("bands 2026", 50)).isEmpty();
    SearchableIndex hr = index.readableBy(Access.labels(List.of("hr", "other")));
    assertThat(docIds(hr.searchSparse("salary handbook engineers", 50))).containsExactly("public", "secret");
  }

  @Test
  public void accessToEverythingReadsEverything() throws IOException {
    Index index = accessCorpus();
    SearchableIndex all = index.readableBy(Access.ALL);
    assertThat(docIds(all.searchSparse("salary handbook", 50))).containsExactly("eng", "public", "secret");
    assertThat(docIds(all.searchDense(unit(1, 0, 0), 50))).containsExactly("eng", "public", "secret");
    assertThat(all.stats()).isEqualTo(index.stats());
    assertThat(all.document("secret")).isEqualTo(index.document("secret"));
    assertThat(all.chunkMarks(List.of("eng#0"))).isEqualTo(index.chunkMarks(List.of("eng#0")));
  }

  @Test
  public void bm25ScoresOfAViewAreThoseOfAnIndexHoldingOnlyTheReadableDocuments() throws IOException {
    String[] texts = {
        "Salary bands and salary reviews for engineers are decided in March each year.",
        "The salary of a manager depends on the size of the team and on the salary bands.",
        "Reviews happen twice a year for the search team and once for the others.",
        "Bands of wolves roam the northern forests in winter.",
        "The engineering handbook explains reviews, bands, levels and promotions in detail.",
    };
    List<IndexEntry> all = new ArrayList<>();
    List<IndexEntry> readable = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      // Every other document is labelled "eng"; the hidden ones hold the query's terms many times.
      IndexEntry open = plain(doc("open" + i, Language.EN, i % 2 == 0 ? labelled("eng") : labelled(), texts[i]));
      all.add(open);
      readable.add(open);
      all.add(plain(doc("hidden" + i, Language.EN, labelled("hr"), (texts[i] + " Salary bands reviews.").repeat(3))));
    }
    Index index = created("all");
    Index only = created("readable");
    index.write(all, List.of());
    only.write(readable, List.of());
    SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
    for (String q : List.of("salary bands", "reviews", "engineers handbook bands wolves")) {
      List<Candidate> viewed = eng.searchSparse(q, 50);
      List<Candidate> expected = only.searchSparse(q, 50);
      assertThat(viewed).extracting(c -> c.chunk().id()).as(q)
          .containsExactlyElementsOf(expected.stream().map(c -> c.chunk().id()).toList());
      for (int i = 0; i < viewed.size(); i++) {
        double a = viewed.get(i).scores().getOr(Signal.BM25, 0);
        double b = expected.get(i).scores().getOr(Signal.BM25, 0);
        assertThat(a).as(q).isCloseTo(b, Offset.offset(1e-4 * Math.max(1, b)));
      }
      // The whole index's statistics give other scores: the check above can fail.
      double whole = index.searchSparse(q, 50).stream().filter(c -> c.doc().id().startsWith("open"))
          .mapToDouble(c -> c.scores().getOr(Signal.BM25, 0)).max().orElse(0);
      assertThat(whole).as(q).isNotCloseTo(viewed.get(0).scores().getOr(Signal.BM25, 0), Offset.offset(1e-3));
    }
  }

  // ---- sentence vectors ----------------------------------------------------------------------

  @Test
  public void sentenceVectorsComeBackPerChunkInOrderWithinQuantisationTolerance() throws IOException {
    Index index = created("main");
    Document d = doc("minutes", Language.EN, Map.of(), "The committee met on Monday. It approved the budget. None objected.",
        "Construction starts in spring. It takes two years.", "The next meeting is in March.");
    IndexEntry with = randomVectors(d, 7, 16);
    IndexEntry without = new IndexEntry(MARKETS, "", "h", chunks(MARKETS),
        List.of(new ChunkVector(0, chunks(MARKETS).get(0).span(), randomUnit(new Random(8), 16))), EMBEDDER);
    index.write(List.of(with, without), List.of());

    List<String> ids = new ArrayList<>(chunkIds(with));
    ids.add("en-markets#0");
    ids.add("missing#0");
    ids.add(ids.get(0));
    Map<String, List<SearchableIndex.SentenceVector>> got = index.sentenceVectors(ids);
    assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(chunkIds(with));
    for (int c = 0; c < with.chunks().size(); c++) {
      int ordinal = c;
      List<ChunkVector> written = with.sentenceVectors().stream().filter(v -> v.chunk() == ordinal).toList();
      List<SearchableIndex.SentenceVector> read = got.get(with.chunks().get(c).id());
      assertThat(read).extracting(SearchableIndex.SentenceVector::span)
          .containsExactlyElementsOf(written.stream().map(ChunkVector::span).toList());
      assertThat(read).extracting(SearchableIndex.SentenceVector::docId).containsOnly("minutes");
      for (int i = 0; i < read.size(); i++) {
        float[] v = read.get(i).vector();
        assertThat(Embedder.dot(v, v)).isCloseTo(1.0, Offset.offset(1e-5));
        assertThat(Embedder.dot(v, written.get(i).vector())).isGreaterThan(0.99);
      }
    }
    assertThat(index.sentenceVectors(List.of())).isEmpty();
    // Sentence vectors are not windows: they are neither counted nor searched.
    assertThat(index.stats().vectors()).isEqualTo(with.vectors().size() + 1);
    assertThat(index.chunkVectors(List.of("minutes#0")).get("minutes#0"))
        .containsExactly(with.vectors().get(0).vector(), Offset.offset(1e-5f));
  }

  // ---- the corpus ----------------------------------------------------------------------------

  private static final String NOTICE = "Este texto faz parte do acervo digital da universidade e pode ser reproduzido.";
  private static final String NOTICE_SHOUTED = NOTICE.toUpperCase(java.util.Locale.ROOT);

  private static IndexEntry marked(String id, String body, String notice, CorpusMarks marks) {
    Document d = doc(id, Language.PT, Map.of("source", "acervo"), body, notice);
    return new IndexEntry(d, "/src/" + id + ".txt", "h" + id, chunks(d), List.of(), null, List.of(), marks);
  }

  @Test
  public void corpusMarksAreKeptAndRecurrenceIsCountedOverStoredDocuments() throws IOException {
    Index index = created("main");
    int[] sig = {11, 22, 33, 44};
    index.write(List.of(
        marked("a", "A UFMS mantém campi em nove cidades.", NOTICE, new CorpusMarks(sig, List.of("0:aa", "1:bb"), "", 0, 1_700_000_000_000L)),
        marked("b", "O Pantanal motiva estudos ecológicos.", NOTICE_SHOUTED,
            new CorpusMarks(new int[] {11, 22, 0, 0}, List.of("0:cc"), "a", 0.85, 0)),
        marked("c", "O vestibular é realizado uma vez por ano.", NOTICE, CorpusMarks.NONE)), List.of());

    List<WritableIndex.SignedDoc> sharing = index.documentsSharingBands(List.of("1:bb", "9:zz"));
    assertThat(sharing).extracting(WritableIndex.SignedDoc::id).containsExactly("a");
    assertThat(sharing.get(0).signature()).containsExactly(sig);
    assertThat(sharing.get(0).sourcePath()).isEqualTo("/src/a.txt");
    assertThat(index.documentsSharingBands(List.of("0:cc", "0:aa"))).extracting(WritableIndex.SignedDoc::id).containsExactly("a", "b");
    assertThat(index.documentsSharingBands(List.of())).isEmpty();

    Map<String, SearchableIndex.ChunkMarks> marks = index.chunkMarks(List.of("b#0", "b#1", "a#0", "nope#0"));
    assertThat(marks).containsOnlyKeys("b#0", "b#1", "a#0");
    assertThat(marks.get("b#0")).isEqualTo(new SearchableIndex.ChunkMarks("b", "a", 0.85, 1));
    // The notice in capitals is the same text once normalised ({@link Boilerplate#key}).
    assertThat(marks.get("b#1").recurrence()).isEqualTo(3);
    assertThat(marks.get("a#0")).isEqualTo(new SearchableIndex.ChunkMarks("a", "", 0, 1));

    List<CorpusCatalog.CorpusDoc> docs = index.corpusDocuments();
    assertThat(docs).extracting(CorpusCatalog.CorpusDoc::id).containsExactly("a", "b", "c");
    assertThat(docs.get(0)).isEqualTo(new CorpusCatalog.CorpusDoc("a", "file:///docs/a.txt", title("a"), "/src/a.txt",
        Map.of("source", "acervo"), "", 0, 1_700_000_000_000L, 2));
    assertThat(docs.get(1).nearDuplicateOf()).isEqualTo("a");
    assertThat(docs.get(1).similarity()).isEqualTo(0.85);

    assertThat(index.recurringChunks(3)).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo(Boilerplate.key(NOTICE));
      assertThat(r.text()).isEqualTo(NOTICE);
      assertThat(r.docIds()).containsExactly("a", "b", "c");
    });
    assertThat(index.recurringChunks(4)).isEmpty();
    assertThatThrownBy(() -> index.recurringChunks(1)).isInstanceOf(IllegalArgumentException.class);

    // Replaced and removed documents no longer count, though an index may still hold their old versions.
    index.write(List.of(marked("c", "O vestibular é realizado uma vez por ano.", "Sem aviso.", CorpusMarks.NONE)), List.of());
    index.remove(List.of("a"));
    assertThat(index.recurringChunks(2)).isEmpty();
    assertThat(index.chunkMarks(List.of("b#1")).get("b#1").recurrence()).isEqualTo(1);
    assertThat(index.documentsSharingBands(List.of("1:bb"))).isEmpty();
  }

  @Test
  public void recordedDuplicatesAreListedAndGoWithTheirOriginal() throws IOException {
    Index index = created("main");
    index.write(List.of(plain(CATS), plain(CLIMA), plain(MARKETS)), List.of());
    try (WritableIndex.Batch b = index.begin()) {
      b.recordDuplicate(new DuplicateRecord("/src/z-copy-of-cats.txt", "en-cats", "en-cats"));
      b.recordDuplicate(new DuplicateRecord("/src/z-copy-of-cats.txt", "en-cats", "en-cats")); // again: replaces it
      b.recordDuplicate(new DuplicateRecord("/src/a-clima-again.txt", "clima-2", "pt-clima"));
      b.recordDuplicate(new DuplicateRecord("/src/m-markets.txt", "en-markets", "en-markets"));
      b.commit();
    }
    assertThat(index.duplicates()).containsExactly(
        new DuplicateRecord("/src/a-clima-again.txt", "clima-2", "pt-clima"),
        new DuplicateRecord("/src/m-markets.txt", "en-markets", "en-markets"),
        new DuplicateRecord("/src/z-copy-of-cats.txt", "en-cats", "en-cats"));
    // Replacing or removing the original takes its records with it; a record is not a document.
    index.write(List.of(plain(doc("pt-clima", Language.PT, Map.of(), "O clima mudou."))), List.of());
    index.remove(List.of("en-cats"));
    assertThat(index.duplicates()).extracting(DuplicateRecord::path).containsExactly("/src/m-markets.txt");
    assertThat(index.stats().documents()).isEqualTo(2);
    assertThat(index.corpusDocuments()).extracting(CorpusCatalog.CorpusDoc::id).containsExactly("en-markets", "pt-clima");
  }

  // ---- the embedder --------------------------------------------------------------------------

  @Test
  public void theEmbedderIsRecordedAndVectorsOfAnotherAreRefused() throws IOException {
    Index index = created("main");
    assertThat(index.stats()).isEqualTo(new SearchableIndex.Stats(0, 0, 0, Optional.empty(), 0));
    index.write(List.of(plain(CLIMA)), List.of());
    assertThat(index.stats().embedderId()).isEmpty();
    index.write(List.of(vectors(CATS, unit(1, 0, 0))), List.of());
    assertThat(index.stats().embedderId()).contains(EMBEDDER);
    assertThat(index.stats().dimension()).isEqualTo(3);

    IndexEntry otherModel = new IndexEntry(MARKETS, "", "h", chunks(MARKETS),
        List.of(new ChunkVector(0, chunks(MARKETS).get(0).span(), unit(1, 0, 0))), "other-emb");
    assertThatThrownBy(() -> index.write(List.of(plain(AVALIACOES), otherModel), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(EMBEDDER).hasMessageContaining("other-emb");
    IndexEntry otherDimension = vectors(MARKETS, unit(1, 0, 0, 0));
    assertThatThrownBy(() -> index.write(List.of(otherDimension), List.of())).isInstanceOf(IllegalArgumentException.class);
    IndexEntry sentencesOnly = new IndexEntry(MARKETS, "", "h", chunks(MARKETS), List.of(), "other-emb",
        List.of(new ChunkVector(0, chunks(MARKETS).get(0).span(), unit(1, 0, 0))));
    assertThatThrownBy(() -> index.write(List.of(sentencesOnly), List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other-emb");
    assertThat(index.find("pt-avaliacoes")).isEmpty();
    assertThat(index.find("en-markets")).isEmpty();

    // Entries without vectors are always taken, and the record survives reopening.
    index.write(List.of(plain(MARKETS)), List.of());
    close(index);
    Index again = reopened("main");
    assertThat(again.stats()).isEqualTo(new SearchableIndex.Stats(3, 4, 2, Optional.of(EMBEDDER), 3));
    assertThatThrownBy(() -> again.write(List.of(otherModel), List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  // ---- batches and crashes -------------------------------------------------------------------

  @Test
  public void aBatchIsVisibleAtItsCommitOnlyAndCanBeReused() throws IOException {
    Index index = created("main");
    try (WritableIndex.Batch b = index.begin()) {
      b.put(plain(CATS));
      assertThat(index.find("en-cats")).isEmpty();
      assertThat(index.searchSparse("gardens", 5)).isEmpty();
      b.commit();
      assertThat(index.find("en-cats")).isPresent();
      assertThat(index.searchSparse("gardens", 5)).isNotEmpty();
      b.put(plain(CLIMA));
      b.delete("en-cats");
      b.commit();
    }
    assertThat(index.find("en-cats")).isEmpty();
    assertThat(index.find("pt-clima")).isPresent();
  }

  @Test
  public void compactingABulkLoadChangesNoReadAndNeedsACommitFirst() throws IOException {
    Index index = created("main");
    List<IndexEntry> entries = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      entries.add(randomVectors(doc("bulk-" + i, Language.EN, Map.of(), "Gardens and birds number " + i + ". Cats too.",
          "Markets fell " + i + " points."), 100 + i, 8));
    }
    try (WritableIndex.Batch b = index.begin()) {
      for (int i = 0; i < entries.size(); i++) {
        b.put(entries.get(i));
        if (i % 3 == 2) b.commit(); // several commits, as a large ingest makes
      }
      b.commit();
      float[] q = entries.get(5).vectors().get(0).vector();
      List<Candidate> sparse = index.searchSparse("gardens birds", 20);
      List<Candidate> dense = index.searchDense(q, 20);
      SearchableIndex.Stats stats = index.stats();
      b.compact();
      assertThat(index.stats()).isEqualTo(stats);
      assertThat(index.searchSparse("gardens birds", 20)).extracting(c -> c.chunk().id())
          .containsExactlyInAnyOrderElementsOf(sparse.stream().map(c -> c.chunk().id()).toList());
      assertThat(index.searchDense(q, 20).get(0).chunk().id()).isEqualTo(dense.get(0).chunk().id());
      assertThat(index.searchDense(q, 20)).hasSameSizeAs(dense);
      b.put(plain(CATS));
      assertThatThrownBy(b::compact).isInstanceOf(IllegalStateException.class).hasMessageContaining("commit");
      b.commit();
    }
    for (Index i : List.of(index, reopened("main"))) {
      assertThat(i.find("bulk-11")).isPresent();
      assertThat(i.find("en-cats")).isPresent();
    }
  }

  @Test
  public void aBatchClosedWithoutCommitLeavesNothing() throws IOException {
    Index index = created("main");
    index.write(List.of(vectors(CATS, unit(1, 0, 0))), List.of());
    SearchableIndex.Stats before = index.stats();
    try (WritableIndex.Batch b = index.begin()) {
      b.put(vectors(MARKETS, unit(0, 1, 0)));
      b.delete("en-cats");
      b.recordDuplicate(new DuplicateRecord("/src/copy.txt", "en-cats", "en-cats"));
    }
    for (Index i : List.of(index, reopened("main"))) {
      assertThat(i.find("en-markets")).isEmpty();
      assertThat(i.find("en-cats")).isPresent();
      assertThat(i.duplicates()).isEmpty();
      assertThat(i.stats()).isEqualTo(before);
      assertThat(i.searchDense(unit(0, 1, 0), 5)).extracting(c -> c.doc().id()).containsOnly("en-cats");
    }
    // The index takes the next batch.
    index.write(List.of(plain(MARKETS)), List.of());
    assertThat(index.find("en-markets")).isPresent();
  }

  @Test
  public void onlyCommittedDataIsVisibleToAnIndexOpenedAgain() throws IOException {
    Index index = created("main");
    WritableIndex.Batch b = index.begin();
    try {
      b.put(plain(CATS));
      b.commit();
      b.put(plain(MARKETS));
      b.delete("en-cats");
      // Opened again while the write is in flight, as a reader beside the writer would open it.
      Index reader = reopened("main");
      assertThat(reader.find("en-cats")).isPresent();
      assertThat(reader.find("en-markets")).isEmpty();
      close(reader);
      // The index stops with the batch uncommitted: nothing of the batch survives.
      close(index);
    } finally {
      try {
        b.close();
      } catch (IOException | RuntimeException alreadyGone) {
        // The index was closed under the batch: there is nothing left to discard.
      }
    }
    Index again = reopened("main");
    assertThat(again.find("en-cats")).isPresent();
    assertThat(again.find("en-markets")).isEmpty();
    assertThat(again.stats().documents()).isEqualTo(1);
    again.write(List.of(plain(MARKETS)), List.of());
    assertThat(again.find("en-markets")).isPresent();
  }

  @Test
  public void aFailureInABatchLeavesTheIndexAsItWas() throws IOException {
    Index index = created("main");
    index.write(List.of(vectors(CATS, unit(1, 0, 0))), List.of());
    SearchableIndex.Stats before = index.stats();
    try (WritableIndex.Batch b = index.begin()) {
      b.delete("en-cats");
      b.put(plain(CLIMA));
      assertThatThrownBy(() -> b.put(vectors(MARKETS, unit(1, 0, 0, 0)))).isInstanceOf(IllegalArgumentException.class);
      try {
        b.commit();
      } catch (IllegalStateException discarded) {
        // A backend may refuse to commit a failed batch; either way nothing of it is written.
      }
    }
    assertThat(index.find("en-cats")).isPresent();
    assertThat(index.find("pt-clima")).isEmpty();
    assertThat(index.stats()).isEqualTo(before);

    // putAll fails as a whole too, however many entries it writes at once.
    List<IndexEntry> many = new ArrayList<>();
    for (int i = 0; i < 80; i++) many.add(vectors(doc("m" + i, Language.EN, Map.of(), "Entry number " + i + "."), unit(1, i, 0)));
    many.add(vectors(doc("bad", Language.EN, Map.of(), "Bad vectors."), unit(1, 0)));
    try (WritableIndex.Batch b = index.begin()) {
      assertThatThrownBy(() -> b.putAll(many)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(index.find("m0")).isEmpty();
    assertThat(index.stats()).isEqualTo(before);
    try (WritableIndex.Batch b = index.begin()) {
      b.putAll(many.subList(0, 80));
      b.commit();
    }
    assertThat(index.stats().documents()).isEqualTo(81);
    assertThat(index.stats().vectors()).isEqualTo(82);
    assertThat(reopened("main").stats()).isEqualTo(index.stats());
  }
}
