package dev.ctxpack.ingest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;

/** Reading text files with errors that name the file and say what was wrong. */
final class Files2 {
  private Files2() {}

  /** Reads UTF-8 (strict); a file that is not valid UTF-8 is read as Windows-1252 instead. */
  static String readText(Path file) throws IngestException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IngestException(file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new IngestException(file + ": permission denied");
    } catch (IOException e) {
      throw new IngestException(file + ": cannot read: " + e.getMessage(), e);
    }
    for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
      if (bytes[i] == 0) throw new IngestException(file + ": binary content (NUL byte at offset " + i + "), not text");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return new String(bytes, java.nio.charset.Charset.forName("windows-1252"));
    }
  }

  static String baseName(Path file) {
    String n = file.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return dot > 0 ? n.substring(0, dot) : n;
  }
}
