package dev.ctxpack.app.cli;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.onnx.UserCache;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

/**
 * The demo's index: built from the bundled samples once and kept in the user cache under a key of
 * everything that decides its content (the sample files, the embedder, ctxpack's version and the
 * build of the jar it runs from), so a second {@code ctxpack demo} answers without ingesting. The
 * index is built in a temporary folder and renamed into place, and counted as cached only once a
 * marker beside it says it is whole; a cache that cannot be used (not writable, held by another
 * demo) falls back to a temporary index, as before.
 */
final class DemoIndex {
  /** {@code shipped}: unpacked from the index the jar ships rather than ingested here. */
  record Opened(Index index, boolean reused, boolean cached, long documents, long chunks, double seconds,
      boolean shipped) {}

  private DemoIndex() {}

  /** Ingests the samples under {@code corpus} into the index at {@code spec}. */
  static Opened build(IndexSpec spec, Path corpus, Embedder embedder, PrintWriter err) throws IOException {
    Index index = Indexes.open(spec);
    try {
      IngestOptions io = IngestOptions.of(new TokenChunker(dev.ctxpack.token.Tokenizers.defaultTokenizer(), 300, 0.15), embedder);
      IngestSummary s = new Ingestor(index, Loaders.defaults(), io, new Progress(err, Progress.terminal()))
          .ingest(List.of(corpus.resolve("scifact-sample.jsonl"), corpus.resolve("faquad-sample.jsonl")));
      return new Opened(index, false, false, s.added() + s.updated() + s.unchanged(), s.chunks(), s.seconds(),
          false);
    } catch (IOException | RuntimeException e) {
      index.close();
      throw e;
    }
  }

  /** The cached index when it is whole (and {@code fresh} is false), else a newly built and cached one. */
  static Opened cachedOrBuilt(Path work, Path corpus, Embedder embedder, boolean fresh, PrintWriter err)
      throws IOException {
    Path root = UserCache.directory().resolve("demo");
    String key;
    try {
      key = key(corpus, embedder);
    } catch (IOException | UncheckedIOException e) {
      return build(IndexSpec.ofPath(work.resolve("index")), corpus, embedder, err);
    }
    Path dir = root.resolve(key);
    Path marker = root.resolve(key + ".done");
    if (!fresh && Files.isRegularFile(marker)) {
      try {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
          p.load(in);
        }
        Index index = Indexes.open(IndexSpec.ofPath(dir));
        return new Opened(index, true, true, Long.parseLong(p.getProperty("documents")),
            Long.parseLong(p.getProperty("chunks")), 0, false);
      } catch (IOException | RuntimeException e) {
        // held by another demo, or damaged: build a temporary one
        return build(IndexSpec.ofPath(work.resolve("index")), corpus, embedder, err);
      }
    }
    Path tmp;
    try {
      Files.createDirectories(root);
      tmp = Files.createTempDirectory(root, ".build-");
    } catch (IOException e) {
      return build(IndexSpec.ofPath(work.resolve("index")), corpus, embedder, err);
    }
    try {
      Opened built = fresh ? null : unpackShipped(tmp.resolve("index"), corpus, embedder);
      boolean shipped = built != null;
      if (!shipped) {
        built = build(IndexSpec.ofPath(tmp.resolve("index")), corpus, embedder, err);
        built.index().close();
      }
      Files.deleteIfExists(marker);
      DemoCommand.deleteTree(dir);
      Files.move(tmp.resolve("index"), dir, StandardCopyOption.ATOMIC_MOVE);
      Properties p = new Properties();
      p.setProperty("documents", Long.toString(built.documents()));
      p.setProperty("chunks", Long.toString(built.chunks()));
      Path part = root.resolve(key + ".done.part");
      try (var w = Files.newBufferedWriter(part, StandardCharsets.UTF_8)) {
        p.store(w, "ctxpack demo index: whole");
      }
      Files.move(part, marker, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return new Opened(Indexes.open(IndexSpec.ofPath(dir)), false, true, built.documents(), built.chunks(),
          built.seconds(), shipped);
    } catch (IOException e) {
      return build(IndexSpec.ofPath(work.resolve("index")), corpus, embedder, err);
    } finally {
      DemoCommand.deleteTree(tmp);
    }
  }

  /**
   * The index the jar ships, unpacked into {@code target}, when it was built from these samples with
   * this embedder and version (the index is closed; its documents and chunks are the manifest's); null
   * when there is none or it does not match, so the caller ingests.
   */
  private static Opened unpackShipped(Path target, Path corpus, Embedder embedder) throws IOException {
    DemoIndexBundle.Manifest m = DemoIndexBundle.manifest();
    if (m == null || !DemoIndexBundle.embedderName(embedder).equals(m.embedder())
        || !contentKey(corpus, embedder).equals(m.content())) {
      return null;
    }
    long t0 = System.nanoTime();
    try {
      DemoIndexBundle.unpack(target);
    } catch (IOException e) { // a damaged bundle: ingest instead
      DemoCommand.deleteTree(target);
      return null;
    }
    return new Opened(null, false, false, m.documents(), m.chunks(), (System.nanoTime() - t0) / 1e9, true);
  }

  /** A digest of what decides the index's content: the samples, the embedder and ctxpack's version. */
  static String contentKey(Path corpus, Embedder embedder) throws IOException {
    MessageDigest md = sha256();
    for (String name : DemoCommand.SAMPLES) md.update(Files.readAllBytes(corpus.resolve(name)));
    md.update(("\0" + DemoIndexBundle.embedderName(embedder)).getBytes(StandardCharsets.UTF_8));
    String version = DemoIndex.class.getPackage().getImplementationVersion();
    md.update(("\0" + version).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(md.digest(), 0, 12);
  }

  /** The cache key: {@link #contentKey} and the build of the jar it runs from. */
  static String key(Path corpus, Embedder embedder) throws IOException {
    MessageDigest md = sha256();
    md.update(contentKey(corpus, embedder).getBytes(StandardCharsets.UTF_8));
    var source = DemoIndex.class.getProtectionDomain().getCodeSource();
    if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
      Path jar = Path.of(java.net.URI.create(source.getLocation().toString()));
      if (Files.isRegularFile(jar)) { // a rebuilt jar is another build of ctxpack
        md.update(("\0" + Files.size(jar) + "/" + Files.getLastModifiedTime(jar).toMillis()).getBytes(
            StandardCharsets.UTF_8));
      }
    }
    return HexFormat.of().formatHex(md.digest(), 0, 12);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
