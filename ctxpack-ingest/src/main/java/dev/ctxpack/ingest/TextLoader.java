package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Plain text: one document per file, titled by the file name. */
public final class TextLoader implements Loader {
  @Override
  public List<String> extensions() {
    return List.of(".txt", ".text");
  }

  @Override
  public List<LoadedDocument> load(Path file) throws IngestException {
    String text = Files2.readText(file);
    return List.of(new LoadedDocument(null, file.toUri().toString(), Files2.baseName(file), text, Map.of(), List.of()));
  }
}
