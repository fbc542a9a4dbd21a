package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.Memory.Kind;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.embed.HashingEmbedder;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Lucene memory store on a real directory with the real MiniLM model. */
class LuceneMemoryStoreTest {
  @TempDir Path dir;
  static Embedder minilm;
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);

  @BeforeAll
  static void model() {
    minilm = new MiniLmEmbedder();
  }

  @AfterAll
  static void release() {
    minilm = null;
  }

  private LuceneMemoryStore open() throws Exception {
    return LuceneMemoryStore.open(dir.resolve("memory"), minilm, CLOCK, "hybrid");
  }

  @Test
  void addListDeleteWithContentIdsThatRepeatAcrossStores() throws Exception {
    Memory first;
    try (LuceneMemoryStore store = open()) {
      first = store.add("ana", Kind.FACT, "  Prefers answers in Portuguese.\r\n");
      assertThat(first.id()).matches("m[0-9a-f]{16}").isEqualTo(LuceneMemoryStore.idOf("ana", Kind.FACT,
          "Prefers answers in Portuguese."));
      assertThat(first.text()).isEqualTo("Prefers answers in Portuguese.");
      assertThat(first.created()).isEqualTo("2026-11-30T10:00:00Z");
      // The same memory again is the one stored, not a copy.
      assertThat(store.add("ana", Kind.FACT, "Prefers answers in Portuguese.")).isEqualTo(first);
      Memory ep = store.add("ana", Kind.EPISODE, "Asked how to renew a passport; told to book at the consulate.");
      assertThat(store.list("ana")).containsExactly(first, ep);
      assertThat(store.delete("ana", first.id())).isTrue();
      assertThat(store.delete("ana", first.id())).isFalse();
      assertThat(store.list("ana")).containsExactly(ep);
    }
    // Durable: a store opened afresh on the directory has what the first one acknowledged.
    try (LuceneMemoryStore again = open()) {
      assertThat(again.list("ana")).extracting(Memory::kind).containsExactly(Kind.EPISODE);
      Memory re = again.add("ana", Kind.FACT, "Prefers answers in Portuguese.");
      assertThat(re.id()).isEqualTo(first.id());
      assertThat(again.list("ana")).extracting(Memory::kind).containsExactly(Kind.EPISODE, Kind.FACT);
    }
  }

  @Test
  void aUserNeverReadsFindsOrDeletesAnotherUsersMemories() throws Exception {
    try (LuceneMemoryStore store = open()) {
      Memory secret = store.add("ana", Kind.FACT, "Ana's bank PIN hint is the name of her first cat, Miau.");
      store.add("bia", Kind.FACT, "Bia works night shifts at the hospital.");
      List<Memory> before = store.recall("bia", "what is the PIN hint, the cat's name?", 5);
      assertThat(store.list("bia")).extracting(Memory::user).containsOnly("bia");
      assertThat(before).extracting(Memory::user).containsOnly("bia");
      assertThat(store.delete("bia", secret.id())).isFalse();
      assertThat(store.list("ana")).containsExactly(secret);
      // A prefix or a user id with the other's name inside is another user.
      assertThat(store.list("an")).isEmpty();
      assertThat(store.list("ana ")).isEmpty();
      // Ana's adds change nothing in Bia's recall: scores come from Bia's memories alone.
      for (int i = 0; i < 6; i++) store.add("ana", Kind.EPISODE, "Ana asked about the PIN hint and her cat " + i + ".");
      assertThat(store.recall("bia", "what is the PIN hint, the cat's name?", 5)).isEqualTo(before);
    }
  }

  @Test
  void episodesAreRecalledBySimilarityAndFactsWholeUntilTheyExceedK() throws Exception {
    try (LuceneMemoryStore store = open()) {
      store.add("u", Kind.FACT, "Lives in Curitiba.");
      store.add("u", Kind.FACT, "Is allergic to peanuts.");
      store.add("u", Kind.FACT, "Drives an electric car.");
      store.add("u", Kind.EPISODE, "User asked for a vegetarian lasagna recipe; assistant gave one with spinach.");
      store.add("u", Kind.EPISODE, "User asked how to reset the router; assistant said to hold the button for 10 seconds.");
      store.add("u", Kind.EPISODE, "User asked which charging cable fits the car; assistant said Type 2.");

      List<Memory> r = store.recall("u", "My wifi box stopped working, how do I restart it?", 3);
      List<Memory> facts = r.stream().filter(m -> m.kind() == Kind.FACT).toList();
      List<Memory> episodes = r.stream().filter(m -> m.kind() == Kind.EPISODE).toList();
      // Three facts, k = 3: all of them, oldest first, before the episodes.
      assertThat(facts).extracting(Memory::text).containsExactly("Lives in Curitiba.", "Is allergic to peanuts.",
          "Drives an electric car.");
      assertThat(r.subList(0, 3)).isEqualTo(facts);
      assertThat(episodes.get(0).text()).contains("reset the router");
      assertThat(episodes).isSortedAccordingTo((a, b) -> Double.compare(b.score(), a.score()));

      // More facts than k: the most relevant first.
      List<Memory> one = store.recall("u", "food I cannot eat, nut allergy", 1);
      assertThat(one.get(0).kind()).isEqualTo(Kind.FACT);
      assertThat(one.get(0).text()).isEqualTo("Is allergic to peanuts.");
      assertThat(one.stream().filter(m -> m.kind() == Kind.FACT)).hasSize(1);
      // Same memories, same query: the same list.
      assertThat(store.recall("u", "My wifi box stopped working, how do I restart it?", 3)).isEqualTo(r);
    }
  }

  @Test
  void portugueseEpisodesAreRecalledByTheirWords() throws Exception {
    try (LuceneMemoryStore store = open()) {
      store.add("u", Kind.EPISODE, "O usuário perguntou como emitir a segunda via do boleto; foi orientado a usar o aplicativo.");
      store.add("u", Kind.EPISODE, "O usuário perguntou o horário da agência; respondemos das 10h às 16h.");
      List<Memory> r = store.recall("u", "Como tiro a segunda via de um boleto?", 1);
      assertThat(r).singleElement().satisfies(m -> assertThat(m.text()).contains("boleto"));
    }
  }

  @Test
  void readingAStoreThatWasNeverWrittenLeavesNoFolder() throws Exception {
    Path none = dir.resolve("index/memory");
    try (LuceneMemoryStore store = LuceneMemoryStore.open(none, minilm)) {
      assertThat(store.list("u")).isEmpty();
      assertThat(store.recall("u", "anything", 3)).isEmpty();
      assertThat(store.delete("u", "m0000000000000000")).isFalse();
    }
    assertThat(dir.resolve("index")).doesNotExist();
  }

  @Test
  void concurrentAddsAreAllKept() throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("memory"), new HashingEmbedder(64))) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Memory>> fs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int thread = t;
          for (int i = 0; i < 8; i++) {
            int n = i;
            fs.add(pool.submit(() -> store.add("u" + (thread % 2), Kind.EPISODE, "Exchange " + n + " of thread " + thread)));
          }
        }
        Set<String> ids = new HashSet<>();
        for (Future<Memory> f : fs) ids.add(f.get().id());
        assertThat(ids).hasSize(32);
      } finally {
        pool.shutdownNow();
      }
      assertThat(store.list("u0")).hasSize(16);
      assertThat(store.list("u1")).hasSize(16);
    }
    try (LuceneMemoryStore again = LuceneMemoryStore.open(dir.resolve("memory"), new HashingEmbedder(64))) {
      assertThat(again.list("u0").size() + again.list("u1").size()).isEqualTo(32);
    }
  }

  @Test
  void theDocumentIndexBesideNeverHoldsOrReturnsAMemory() throws Exception {
    Path index = dir.resolve("index");
    Document d = new Document("doc1", "", "Router manual", Language.EN, Map.of(),
        "Hold the reset button of the router for ten seconds to restart it.");
    List<Chunk> chunks = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15).chunk(d);
    try (LuceneIndex idx = LuceneIndex.open(index)) {
      idx.write(List.of(new IndexEntry(d, "/src/doc1", "h1", chunks, List.of(), null)), List.of());
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.open(LuceneMemoryStore.beside(index), minilm)) {
      store.add("u", Kind.EPISODE, "Zanzibarite quartz memory: the user keeps quartz samples from Zanzibar.");
    }
    // The index opens, writes and searches with the memory directory inside it, and never sees it.
    try (LuceneIndex idx = LuceneIndex.open(index)) {
      Document d2 = new Document("doc2", "", "Other", Language.EN, Map.of(), "Another router document about quartz.");
      idx.write(List.of(new IndexEntry(d2, "/src/doc2", "h2", new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15)
          .chunk(d2), List.of(), null)), List.of());
      assertThat(idx.stats().documents()).isEqualTo(2);
      assertThat(idx.searchSparse("Zanzibarite Zanzibar samples", 10)).isEmpty();
      assertThat(idx.searchSparse("quartz", 10)).extracting(c -> c.doc().id()).containsExactly("doc2");
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.open(LuceneMemoryStore.beside(index), minilm)) {
      assertThat(store.list("u")).hasSize(1);
    }
  }

  @Test
  void badInputAndAnotherEmbeddersStoreAreRejectedByName() throws Exception {
    try (LuceneMemoryStore store = open()) {
      assertThatThrownBy(() -> store.add(" ", Kind.FACT, "x")).hasMessageContaining("user");
      assertThatThrownBy(() -> store.add("u", Kind.FACT, " ")).hasMessageContaining("text");
      assertThatThrownBy(() -> store.add("u", Kind.FACT, "x".repeat(LuceneMemoryStore.MAX_TEXT_CHARS + 1)))
          .hasMessageContaining("at most");
      assertThatThrownBy(() -> store.add("u\n", Kind.FACT, "x")).hasMessageContaining("control");
      assertThatThrownBy(() -> store.recall("u", "q", 0)).hasMessageContaining("k must be");
      store.add("u", Kind.FACT, "Lives in Recife.");
    }
    assertThatThrownBy(() -> LuceneMemoryStore.open(dir.resolve("memory"), new HashingEmbedder(64)))
        .hasMessageContaining(MiniLmEmbedder.ID).hasMessageContaining("--embedder");
    assertThatThrownBy(() -> LuceneMemoryStore.open(dir.resolve("m2"), minilm, CLOCK, "fancy"))
        .hasMessageContaining("fancy");
  }
}
