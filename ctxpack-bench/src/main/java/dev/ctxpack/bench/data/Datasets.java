package dev.ctxpack.bench.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The data sets the runner knows, by name, under the shared data directory. */
public final class Datasets {
  public static final List<String> NAMES = List.of("scifact", "cranfield", "faquad");

  private Datasets() {}

  public static Dataset load(String name, Path dataDir) throws IOException {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "scifact" -> BeirLoader.load("scifact", existing(dataDir.resolve("scifact/beir_test")), "test");
      case "cranfield" -> CranfieldLoader.load(existing(dataDir.resolve("cranfield")));
      case "faquad" -> SquadLoader.load("faquad", existing(dataDir.resolve("faquad")).resolve("train.json"));
      default -> throw new IllegalArgumentException("unknown data set '" + name + "': use one of " + NAMES);
    };
  }

  /**
   * The original corpus file when the pipeline can ingest it as it is (BEIR's corpus.jsonl), else
   * null: the caller writes the parsed documents as JSON Lines.
   */
  public static Path ingestibleCorpus(String name, Path dataDir) {
    return name.equalsIgnoreCase("scifact") ? dataDir.resolve("scifact/beir_test/corpus.jsonl") : null;
  }

  private static Path existing(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) throw new IOException("no data set at " + dir + ": pass --data DIR (the shared data folder)");
    return dir;
  }
}
