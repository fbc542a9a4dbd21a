package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.SentenceChunker;
import dev.ctxpack.dedup.Boilerplate;
import dev.ctxpack.dedup.MinHasher;
import dev.ctxpack.index.CorpusMarks;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The corpus marks of documents and chunks survive a commit and are read back by the corpus queries. */
class CorpusMarksStorageTest {
  static final String NOTICE = "Este texto faz parte do acervo digital da universidade e pode ser reproduzido para fins acadêmicos.";
  static final String[] BODIES = {
    "A UFMS mantém campi em nove cidades do estado.",
    "O Pantanal motiva estudos e pesquisas ecológicas na instituição.",
    "O vestibular é realizado uma vez por ano.",
  };
  @TempDir Path dir;
  final SentenceChunker chunker = new SentenceChunker(Tokenizers.defaultTokenizer(), 64);
  final MinHasher hasher = MinHasher.defaults();

  private IndexEntry entry(String id, String text, CorpusMarks marks) {
    Document d = new Document(id, "", "Doc " + id, Language.PT, Map.of(), text);
    List<Chunk> chunks = chunker.chunk(d);
    return new IndexEntry(d, "/src/" + id + ".txt", "h" + id, chunks, List.of(), null, List.of(), marks);
  }

  @Test
  void signaturesBandsMarksRecurrenceAndDuplicateRecords() throws Exception {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      int[] sig = hasher.signature(BODIES[0]);
      index.write(List.of(
          entry("a", BODIES[0] + " " + NOTICE, new CorpusMarks(sig, List.of("0:aa", "1:bb"), "", 0, 1_700_000_000_000L)),
          entry("b", BODIES[1] + " " + NOTICE, new CorpusMarks(hasher.signature(BODIES[1]), List.of("0:cc"), "a", 0.85, 0)),
          entry("c", BODIES[2] + " " + NOTICE, CorpusMarks.NONE)), List.of());
      try (Index.Batch b = index.begin()) {
        b.recordDuplicate(new DuplicateRecord("/src/copy-of-a.txt", "a", "a"));
        b.recordDuplicate(new DuplicateRecord("/src/copy-of-a.txt", "a", "a")); // the same record again replaces it
        b.recordDuplicate(new DuplicateRecord("/src/copy-of-c.txt", "c", "c"));
        b.commit();
      }

      List<Index.SignedDoc> sharing = index.documentsSharingBands(List.of("1:bb", "9:zz"));
      assertThat(sharing).extracting(Index.SignedDoc::id).containsExactly("a");
      assertThat(sharing.get(0).signature()).isEqualTo(sig);
      assertThat(index.documentsSharingBands(List.of("0:cc"))).extracting(Index.SignedDoc::id).containsExactly("b");

      Map<String, Index.ChunkMarks> marks = index.chunkMarks(List.of("b#0", "b#1", "a#0", "nope"));
      assertThat(marks).containsOnlyKeys("b#0", "b#1", "a#0");
      assertThat(marks.get("b#0").nearDuplicateOf()).isEqualTo("a");
      assertThat(marks.get("b#0").similarity()).isEqualTo(0.85);
      assertThat(marks.get("b#0").recurrence()).isEqualTo(1);
      assertThat(marks.get("b#1").recurrence()).isEqualTo(3);
      assertThat(marks.get("a#0").nearDuplicateOf()).isEmpty();

      assertThat(index.recurringChunks(3)).singleElement().satisfies(r -> {
        assertThat(r.text()).isEqualTo(NOTICE);
        assertThat(r.key()).isEqualTo(Boilerplate.key(NOTICE.toUpperCase()));
        assertThat(r.docIds()).containsExactly("a", "b", "c");
      });
      assertThat(index.recurringChunks(4)).isEmpty();

      List<Index.CorpusDoc> docs = index.corpusDocuments();
      assertThat(docs).extracting(Index.CorpusDoc::id).containsExactly("a", "b", "c");
      assertThat(docs.get(0).fileTime()).isEqualTo(1_700_000_000_000L);
      assertThat(docs.get(1).nearDuplicateOf()).isEqualTo("a");
      assertThat(docs.get(2).chunks()).isEqualTo(2);
      assertThat(index.stats().documents()).isEqualTo(3);

      assertThat(index.duplicates()).extracting(DuplicateRecord::path).containsExactly("/src/copy-of-a.txt", "/src/copy-of-c.txt");
      // Replacing or removing the original takes its duplicate records with it.
      index.write(List.of(entry("c", BODIES[2], CorpusMarks.NONE)), List.of());
      index.remove(List.of("a"));
      assertThat(index.duplicates()).isEmpty();
      // Only b holds the notice now; the deleted versions still in the term dictionary do not count.
      assertThat(index.recurringChunks(2)).isEmpty();
      assertThat(index.chunkMarks(List.of("b#1")).get("b#1").recurrence()).isEqualTo(1);
    }
  }
}
