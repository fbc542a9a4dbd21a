package dev.ctxpack.ingest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;

/** Reading text files with errors that name the file and say what was wrong. */
final class Files2 {
  private Files2() {}

  /** Every byte of {@code file}, or an error naming it. */
  static byte[] readBytes(Path file) throws IngestException {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw cannotRead(file, e);
    }
  }

  /** What a failed read of {@code file} is reported as: missing, not permitted, or the error's message. */
  static IngestException cannotRead(Path file, IOException e) {
    if (e instanceof NoSuchFileException) return new IngestException(file + ": no such file");
    if (e instanceof AccessDeniedException) return new IngestException(file + ": permission denied");
    return new IngestException(file + ": cannot read: " + e.getMessage(), e);
  }

  /**
   * The text of {@code content} as {@link TextDecoding} decodes it; binary content and bytes that
   * decode to no text ({@link TextCheck}) are refused.
   */
  static TextDecoding.Decoded decodeText(Path file, byte[] content) throws IngestException {
    String binary = Binary.why(content);
    if (binary != null) throw new Rejected(Rejected.Reason.BINARY, file + ": binary content (" + binary + "), not text");
    return TextCheck.require(file, TextDecoding.decode(content));
  }

  static String baseName(Path file) {
    String n = file.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return dot > 0 ? n.substring(0, dot) : n;
  }
}
