package dev.ctxpack.lucene;

import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.TextNormalizer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * The {@link MemoryStore} of ctxpack: a Lucene directory of its own (by default {@code
 * <index>/memory}, {@link #beside}), so the document index never holds, counts or returns a memory.
 * One Lucene document per memory: id, user, kind, text (NFC, LF), language, ISO-8601 creation
 * instant, a sequence number (the order of adds) and the text's vector from the embedder (none
 * without one).
 *
 * <p><b>Ids</b> are derived from the content: {@code m} and 16 hex digits of SHA-256 of user, kind
 * and the text's identity form, so adding the same memory twice returns the one stored (with its
 * first creation time) and the same adds give the same ids on any machine.
 *
 * <p><b>Recall</b> reads only the user's memories (a term filter on the user id) and ranks them with
 * statistics of that user's memories alone ({@link MemoryRanking}: BM25 in the memory's language and
 * the embedder's cosine, fused by reciprocal rank; the cosine only for a query in a language the
 * embedder was trained for), so no user reads, or can time or score against, another's memories,
 * and a user's recall does not change when another user adds memories. Ties go to the older
 * memory: the same memories and query give the same list.
 *
 * <p><b>Durability</b>: {@link #add} and {@link #delete} return after a Lucene commit. Writes are
 * serialised by a lock (the text is embedded before it is taken), so concurrent adds are safe; the
 * writer is opened on the first write and holds Lucene's write lock until {@link #close}: a second
 * process writing the same directory gets a clear error. Reads see other processes' commits within
 * a second.
 */
public final class LuceneMemoryStore implements MemoryStore {
  /** The directory name of the store inside an index directory. */
  public static final String DIRECTORY = "memory";
  /** Longest memory text, in characters. */
  public static final int MAX_TEXT_CHARS = 20_000;
  /** Longest user id, in characters. */
  public static final int MAX_USER_CHARS = 256;
  /** Most memories of each kind one recall may return. */
  public static final int MAX_K = 1_000;

  static final String F_KEY = "key";
  static final String F_ID = "id";
  static final String F_USER = "user";
  static final String F_KIND = "kind";
  static final String F_TEXT = "text";
  static final String F_LANGUAGE = "language";
  static final String F_CREATED = "created";
  static final String F_SEQ = "seq";
  static final String F_VECTOR = "vector";
  /** The text's analysed terms, space-separated, so recall does not analyse every memory again. */
  static final String F_TERMS = "terms";
  static final String COMMIT_SEQ = "seq";
  static final String COMMIT_EMBEDDER = "embedder";

  private final Path path;
  /** Opened on first use: a store that was only read leaves no directory behind. */
  private Directory directory;
  private final Embedder embedder;
  private final Clock clock;
  private final MemoryRanking.Scoring scoring;
  private final MemoryRanking ranking = new MemoryRanking(Analyzers.perLanguage());
  private final LanguageDetector languages = new LanguageDetector();
  private final ReentrantLock writeLock = new ReentrantLock();
  private IndexWriter writer;
  private long seq = -1;
  private SearcherManager searchers;
  private volatile long checkedAt = System.nanoTime();

  private LuceneMemoryStore(Path path, Embedder embedder, Clock clock, MemoryRanking.Scoring scoring) throws IOException {
    this.path = path;
    this.embedder = embedder;
    this.clock = clock;
    this.scoring = scoring;
  }

  /** The default place of the memories of the index at {@code index}: {@code <index>/memory}. */
  public static Path beside(Path index) {
    return index.resolve(DIRECTORY);
  }

  /**
   * Opens the store at {@code dir} (created on the first add). {@code embedder} gives the episodes'
   * and facts' vectors; null for lexical recall only. Fails if the store holds vectors of another
   * embedder.
   */
  public static LuceneMemoryStore open(Path dir, Embedder embedder) throws IOException {
    return open(dir, embedder, Clock.systemUTC(), "hybrid");
  }

  /** As {@link #open(Path, Embedder)}, with the clock of creation times and the scoring (hybrid, bm25 or dense). */
  public static LuceneMemoryStore open(Path dir, Embedder embedder, Clock clock, String scoring) throws IOException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(clock, "clock");
    MemoryRanking.Scoring s;
    try {
      s = MemoryRanking.Scoring.valueOf(scoring.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown memory scoring '" + scoring + "': use hybrid, bm25 or dense");
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) throw new IOException(dir + " is not a directory");
    LuceneMemoryStore store = new LuceneMemoryStore(dir, embedder, clock, s);
    try {
      store.checkEmbedder();
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  public Path path() {
    return path;
  }

  private void checkEmbedder() throws IOException {
    Directory dir = existing();
    if (embedder == null || dir == null || !DirectoryReader.indexExists(dir)) return;
    try (DirectoryReader r = DirectoryReader.open(dir)) {
      String have = r.getIndexCommit().getUserData().get(COMMIT_EMBEDDER);
      if (have != null && !have.isEmpty() && !have.equals(embedder.id())) {
        throw new IllegalArgumentException("the memories at " + path + " hold vectors of " + have + " but the embedder is "
            + embedder.id() + ": use the same --embedder as when they were added");
      }
    }
  }

  // ---- writes -------------------------------------------------------------------------------

  @Override
  public Memory add(String user, Memory.Kind kind, String text) throws IOException {
    checkUser(user);
    Objects.requireNonNull(kind, "kind");
    if (text == null || text.isBlank()) throw new IllegalArgumentException("memory text must not be empty");
    if (text.length() > MAX_TEXT_CHARS) {
      throw new IllegalArgumentException("memory text has " + text.length() + " characters; at most " + MAX_TEXT_CHARS);
    }
    String stored = TextNormalizer.storageForm(text).strip();
    String id = idOf(user, kind, stored);
    Language language = languages.detect(stored);
    float[] vector = embedder == null ? null : embedder.embed(stored);
    String terms = String.join(" ", ranking.terms(language, stored));
    writeLock.lock();
    try {
      Memory existing = find(user, id);
      if (existing != null) return existing;
      IndexWriter w = writer();
      long next = ++seq;
      String created = clock.instant().toString();
      Document d = new Document();
      d.add(new StringField(F_KEY, key(user, id), Field.Store.NO));
      d.add(new StringField(F_ID, id, Field.Store.YES));
      d.add(new StringField(F_USER, user, Field.Store.YES));
      d.add(new StringField(F_KIND, kind.key(), Field.Store.YES));
      d.add(new StoredField(F_TEXT, stored));
      d.add(new StoredField(F_LANGUAGE, language.code()));
      d.add(new StoredField(F_CREATED, created));
      d.add(new StoredField(F_SEQ, next));
      if (vector != null) d.add(new StoredField(F_VECTOR, encode(vector)));
      d.add(new StoredField(F_TERMS, terms));
      try {
        w.updateDocument(new Term(F_KEY, key(user, id)), d);
        commit(w);
      } catch (IOException | RuntimeException e) {
        abandon();
        throw e;
      }
      return new Memory(id, user, kind, stored, created, 0);
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public boolean delete(String user, String id) throws IOException {
    checkUser(user);
    if (id == null || id.isBlank()) throw new IllegalArgumentException("memory id must not be empty");
    writeLock.lock();
    try {
      if (find(user, id) == null) return false;
      IndexWriter w = writer();
      try {
        w.deleteDocuments(new Term(F_KEY, key(user, id)));
        commit(w);
      } catch (IOException | RuntimeException e) {
        abandon();
        throw e;
      }
      return true;
    } finally {
      writeLock.unlock();
    }
  }

  private void commit(IndexWriter w) throws IOException {
    Map<String, String> data = new HashMap<>();
    data.put(COMMIT_SEQ, Long.toString(seq));
    if (embedder != null) data.put(COMMIT_EMBEDDER, embedder.id());
    w.setLiveCommitData(data.entrySet());
    w.commit();
    SearcherManager sm = searchers();
    if (sm != null) sm.maybeRefreshBlocking();
  }

  private IndexWriter writer() throws IOException {
    if (writer == null || !writer.isOpen()) {
      IndexWriterConfig cfg = new IndexWriterConfig(Analyzers.wrapper(Analyzers.perLanguage()));
      cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
      cfg.setCommitOnClose(false);
      try {
        Files.createDirectories(path);
        writer = new IndexWriter(directory(), cfg);
      } catch (LockObtainFailedException e) {
        throw new IOException("the memories at " + path + " are being written by another process (e.g. ctxpack serve):"
            + " add them through that process (POST /v1/memories), or stop it", e);
      }
      seq = -1;
      Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
      if (live != null) {
        for (Map.Entry<String, String> en : live) if (en.getKey().equals(COMMIT_SEQ)) seq = Long.parseLong(en.getValue());
      }
    }
    return writer;
  }

  /** After a failed write: the writer is rolled back to the last commit and reopened on the next write. */
  private void abandon() {
    try {
      if (writer != null && writer.isOpen()) writer.rollback();
    } catch (IOException ignored) {
      // Closed either way; the directory holds the last commit.
    }
    writer = null;
  }

  // ---- reads --------------------------------------------------------------------------------

  @Override
  public List<Memory> list(String user) throws IOException {
    checkUser(user);
    List<Stored> all = memories(user);
    List<Memory> out = new ArrayList<>(all.size());
    for (Stored s : all) out.add(s.memory());
    return out;
  }

  @Override
  public List<Memory> recall(String user, String query, int k) throws IOException {
    checkUser(user);
    if (k < 1 || k > MAX_K) throw new IllegalArgumentException("k must be in [1, " + MAX_K + "], was " + k);
    String q = query == null ? "" : query;
    List<Stored> all = memories(user);
    List<Stored> facts = new ArrayList<>();
    List<Stored> episodes = new ArrayList<>();
    for (Stored s : all) (s.memory().kind() == Memory.Kind.FACT ? facts : episodes).add(s);
    float[] qv = null;
    if (embedder != null && !q.isBlank() && SentenceVectors.supports(embedder, languages.detect(q))) qv = embedder.embed(q);
    List<Memory> out = new ArrayList<>();
    List<Memory> rankedFacts = ranked(q, qv, facts, false);
    // Facts are what a session starts with: all of them, oldest first, when they are few enough.
    if (facts.size() <= k) {
      Map<String, Double> score = new HashMap<>();
      for (Memory m : rankedFacts) score.put(m.id(), m.score());
      for (Stored s : facts) out.add(s.memory().withScore(score.getOrDefault(s.memory().id(), 0.0)));
    } else {
      out.addAll(rankedFacts.subList(0, k));
    }
    List<Memory> rankedEpisodes = ranked(q, qv, episodes, true);
    out.addAll(rankedEpisodes.subList(0, Math.min(k, rankedEpisodes.size())));
    return out;
  }

  /** {@code items} best first (ties: older first); with {@code evidenceOnly}, only those with a score above 0. */
  private List<Memory> ranked(String q, float[] qv, List<Stored> items, boolean evidenceOnly) {
    List<MemoryRanking.Item> in = new ArrayList<>(items.size());
    for (Stored s : items) in.add(new MemoryRanking.Item(s.language(), s.memory().text(), s.terms(), s.vector()));
    double[] score = q.isBlank() ? new double[items.size()] : ranking.score(q, qv, in, scoring);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) if (!evidenceOnly || score[i] > 0) order.add(i);
    order.sort(Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingLong(i -> items.get(i).seq()));
    List<Memory> out = new ArrayList<>(order.size());
    for (int i : order) out.add(items.get(i).memory().withScore(score[i]));
    return out;
  }

  /** One stored memory with what ranking needs. */
  private record Stored(Memory memory, long seq, Language language, List<String> terms, float[] vector) {}

  /** The user's memories, oldest first. */
  private List<Stored> memories(String user) throws IOException {
    SearcherManager sm = searchers();
    if (sm == null) return List.of();
    long now = System.nanoTime();
    if (now - checkedAt > 1_000_000_000L) {
      checkedAt = now;
      sm.maybeRefresh();
    }
    IndexSearcher s = sm.acquire();
    try {
      TermQuery byUser = new TermQuery(new Term(F_USER, user));
      int count = s.count(byUser);
      if (count == 0) return List.of();
      ScoreDoc[] hits = s.search(byUser, count).scoreDocs;
      StoredFields fields = s.storedFields();
      List<Stored> out = new ArrayList<>(hits.length);
      for (ScoreDoc h : hits) {
        Document d = fields.document(h.doc);
        if (!user.equals(d.get(F_USER))) continue;
        var vec = d.getBinaryValue(F_VECTOR);
        Memory m = new Memory(d.get(F_ID), user, Memory.Kind.parse(d.get(F_KIND)), d.get(F_TEXT), d.get(F_CREATED), 0);
        String terms = d.get(F_TERMS);
        out.add(new Stored(m, d.getField(F_SEQ).numericValue().longValue(), Language.fromCode(d.get(F_LANGUAGE)),
            terms == null ? null : terms.isEmpty() ? List.of() : List.of(terms.split(" ")),
            vec == null ? null : decode(vec.bytes, vec.offset, vec.length)));
      }
      out.sort(Comparator.comparingLong(Stored::seq));
      return out;
    } finally {
      sm.release(s);
    }
  }

  private Memory find(String user, String id) throws IOException {
    for (Stored s : memories(user)) if (s.memory().id().equals(id)) return s.memory();
    return null;
  }

  private synchronized SearcherManager searchers() throws IOException {
    if (searchers == null) {
      Directory dir = existing();
      if (dir == null || !DirectoryReader.indexExists(dir)) return null;
      searchers = new SearcherManager(dir, null);
    }
    return searchers;
  }

  /** The Lucene directory, opened (and the folder made) on first call. */
  private synchronized Directory directory() throws IOException {
    if (directory == null) directory = FSDirectory.open(path);
    return directory;
  }

  /** The Lucene directory if the folder exists, else null (nothing has been written). */
  private synchronized Directory existing() throws IOException {
    return directory != null || Files.isDirectory(path) ? directory() : null;
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** The id of {@code user}'s memory of {@code kind} with {@code text}: {@code m} + 16 hex digits. */
  public static String idOf(String user, Memory.Kind kind, String text) {
    String identity = TextNormalizer.identityForm(TextNormalizer.storageForm(text).strip());
    return "m" + TextNormalizer.sha256Hex(user + "\u0000" + kind.key() + "\u0000" + identity).substring(0, 16);
  }

  private static String key(String user, String id) {
    return user + "\u0000" + id;
  }

  static void checkUser(String user) {
    if (user == null || user.isBlank()) throw new IllegalArgumentException("user must not be empty");
    if (user.length() > MAX_USER_CHARS) {
      throw new IllegalArgumentException("user id has " + user.length() + " characters; at most " + MAX_USER_CHARS);
    }
    for (int i = 0; i < user.length(); i++) {
      if (Character.isISOControl(user.charAt(i))) {
        throw new IllegalArgumentException("user id must not contain control characters (at " + i + ")");
      }
    }
  }

  private static byte[] encode(float[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) b.putFloat(x);
    return b.array();
  }

  private static float[] decode(byte[] bytes, int offset, int length) {
    ByteBuffer b = ByteBuffer.wrap(bytes, offset, length).order(ByteOrder.LITTLE_ENDIAN);
    float[] v = new float[length / Float.BYTES];
    for (int i = 0; i < v.length; i++) v[i] = b.getFloat();
    return v;
  }

  @Override
  public void close() throws IOException {
    writeLock.lock();
    try {
      IOException first = null;
      try {
        if (searchers != null) searchers.close();
      } catch (IOException e) {
        first = e;
      }
      try {
        if (writer != null && writer.isOpen()) writer.rollback(); // nothing uncommitted: every write commits
      } catch (IOException e) {
        if (first == null) first = e;
      }
      try {
        synchronized (this) {
          if (directory != null) directory.close();
        }
      } catch (IOException e) {
        if (first == null) first = e;
      }
      if (first != null) throw first;
    } finally {
      writeLock.unlock();
    }
  }
}
