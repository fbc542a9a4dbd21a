package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * The demo index shipped inside the jar: the build ingests the bundled samples with the default
 * embedder once ({@link #main}, run by the app module's {@code process-classes} phase) and stores the
 * index as {@value #ZIP} beside {@value #PROPERTIES}, which names the embedder and a digest of the
 * samples and ctxpack's version it was built from. A first {@code ctxpack demo} unpacks it into the
 * user cache instead of ingesting, when the embedder and the digest match; otherwise (another
 * embedder, {@code --no-embed}, {@code --fresh}, a jar built without it) the demo ingests as before.
 */
final class DemoIndexBundle {
  static final String ZIP = "demo-index.zip";
  static final String PROPERTIES = "demo-index.properties";
  private static final String RESOURCE_DIR = "/dev/ctxpack/app/samples/";
  /** Entries of a Lucene directory are flat file names; nothing else is unpacked. */
  private static final java.util.regex.Pattern ENTRY = java.util.regex.Pattern.compile("[A-Za-z0-9_.\\-]+");

  private DemoIndexBundle() {}

  /** What the bundle says of itself, or null when the jar has none. */
  record Manifest(String content, String embedder, long documents, long chunks) {}

  static Manifest manifest() throws IOException {
    try (InputStream in = DemoIndexBundle.class.getResourceAsStream(RESOURCE_DIR + PROPERTIES)) {
      if (in == null) return null;
      Properties p = new Properties();
      p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
      return new Manifest(p.getProperty("content"), p.getProperty("embedder"),
          Long.parseLong(p.getProperty("documents")), Long.parseLong(p.getProperty("chunks")));
    } catch (RuntimeException e) {
      throw new IOException("the demo index shipped in the jar has a damaged " + PROPERTIES + ": " + e, e);
    }
  }

  /** Unpacks the shipped index into {@code target}, a directory that must not exist yet. */
  static void unpack(Path target) throws IOException {
    try (InputStream raw = DemoIndexBundle.class.getResourceAsStream(RESOURCE_DIR + ZIP)) {
      if (raw == null) throw new IOException("the demo index " + ZIP + " is missing from the jar");
      unpack(raw, target);
    }
  }

  /** Unpacks a zip of flat file names into {@code target}; any other entry is refused before it is written. */
  static void unpack(InputStream raw, Path target) throws IOException {
    Files.createDirectory(target);
    try (ZipInputStream zip = new ZipInputStream(raw)) {
      for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
        if (e.isDirectory() || !ENTRY.matcher(e.getName()).matches() || e.getName().startsWith(".")) {
          throw new IOException("unexpected entry '" + e.getName() + "' in the shipped demo index");
        }
        Files.copy(zip, target.resolve(e.getName()));
      }
    }
  }

  /** {@code args[0]}: the class output directory, where the bundle is written under the samples. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) throw new IllegalArgumentException("usage: DemoIndexBundle CLASSES_DIR");
    Path outDir = Path.of(args[0]).resolve(RESOURCE_DIR.substring(1));
    Path work = Files.createTempDirectory("ctxpack-demo-bundle");
    try {
      Path corpus = Files.createDirectories(work.resolve("corpus"));
      for (String name : DemoCommand.SAMPLES) Files.copy(outDir.resolve(name), corpus.resolve(name));
      Embedder embedder = Components.embedder("minilm");
      PrintWriter err = new PrintWriter(System.err, true);
      DemoIndex.Opened built = DemoIndex.build(IndexSpec.ofPath(work.resolve("index")), corpus, embedder, err);
      built.index().close();
      Path zipPart = outDir.resolve(ZIP + ".part");
      try (OutputStream o = Files.newOutputStream(zipPart); ZipOutputStream zip = new ZipOutputStream(o)) {
        List<Path> files;
        try (Stream<Path> s = Files.list(work.resolve("index"))) {
          files = s.filter(f -> !f.getFileName().toString().equals("write.lock")).sorted().toList();
        }
        for (Path f : files) {
          ZipEntry e = new ZipEntry(f.getFileName().toString());
          e.setTime(0L); // the same files give the same zip
          zip.putNextEntry(e);
          Files.copy(f, zip);
          zip.closeEntry();
        }
      }
      Properties p = new Properties();
      p.setProperty("content", DemoIndex.contentKey(corpus, embedder));
      p.setProperty("embedder", embedderName(embedder));
      p.setProperty("documents", Long.toString(built.documents()));
      p.setProperty("chunks", Long.toString(built.chunks()));
      Path propsPart = outDir.resolve(PROPERTIES + ".part");
      try (var w = Files.newBufferedWriter(propsPart, StandardCharsets.UTF_8)) {
        p.store(w, null);
      }
      // Properties.store writes a date comment line first: drop it so the same build gives the same file
      List<String> lines = Files.readAllLines(propsPart, StandardCharsets.UTF_8).stream()
          .filter(l -> !l.startsWith("#")).sorted().toList();
      Files.write(propsPart, lines, StandardCharsets.UTF_8);
      Files.move(zipPart, outDir.resolve(ZIP), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      Files.move(propsPart, outDir.resolve(PROPERTIES), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      System.err.printf("ctxpack: demo index shipped in the jar: %d documents, %d chunks, %.1fs%n",
          built.documents(), built.chunks(), built.seconds());
    } finally {
      try {
        DemoCommand.deleteTree(work);
      } catch (IOException | UncheckedIOException ignored) {
        // a temporary folder left behind does not fail the build
      }
    }
  }

  static String embedderName(Embedder embedder) {
    return embedder == null ? "bm25-only" : embedder.id() + "/" + embedder.dimension();
  }
}
