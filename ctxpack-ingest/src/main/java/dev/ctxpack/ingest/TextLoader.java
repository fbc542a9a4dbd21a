package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Plain text: one document per file, titled by the file name; bytes decoded by {@link TextDecoding}. */
public final class TextLoader implements Loader {
  @Override
  public List<String> extensions() {
    return List.of(".txt", ".text");
  }

  @Override
  public List<LoadedDocument> load(Path file) throws IngestException {
    return load(file, Files2.readBytes(file));
  }

  @Override
  public List<LoadedDocument> load(Path file, byte[] content) throws IngestException {
    TextDecoding.Decoded text = Files2.decodeText(file, content);
    return List.of(new LoadedDocument(null, file.toUri().toString(), Files2.baseName(file), text.text(), Map.of(),
        List.of(), List.of(), text.replacedChars()));
  }
}
