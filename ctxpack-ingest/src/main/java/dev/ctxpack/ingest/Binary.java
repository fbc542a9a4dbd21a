package dev.ctxpack.ingest;

/**
 * Tells binary content from text by its first 8 kB: a NUL byte (unless a UTF-16 byte order mark
 * says the NULs are text), the signature of a common binary format, or control characters (other
 * than tab, line feed, form feed, carriage return and escape) making up more than 10 % of the bytes.
 */
final class Binary {
  private Binary() {}

  static final int SNIFF_BYTES = 8192;
  private static final double MAX_CONTROL_SHARE = 0.10;

  private record Magic(String name, int[] bytes) {}

  private static final Magic[] MAGIC = {
      magic("a PDF file", "%PDF-"),
      magic("a ZIP archive (or an Office/EPUB/JAR file)", 'P', 'K', 3, 4),
      magic("a gzip archive", 0x1F, 0x8B),
      magic("a bzip2 archive", "BZh"),
      magic("an xz archive", 0xFD, '7', 'z', 'X', 'Z'),
      magic("a 7-Zip archive", '7', 'z', 0xBC, 0xAF),
      magic("a PNG image", 0x89, 'P', 'N', 'G'),
      magic("a JPEG image", 0xFF, 0xD8, 0xFF),
      magic("a GIF image", "GIF8"),
      magic("an ELF executable", 0x7F, 'E', 'L', 'F'),
      magic("a Java class file", 0xCA, 0xFE, 0xBA, 0xBE),
      magic("an OLE document (old Office format)", 0xD0, 0xCF, 0x11, 0xE0),
      magic("an Ogg file", "OggS"),
      magic("an MP3 file", "ID3"),
  };

  /** Why {@code content} is binary, or null when it looks like text. */
  static String why(byte[] content) {
    int n = Math.min(content.length, SNIFF_BYTES);
    if (n >= 2 && ((content[0] & 0xFF) == 0xFE && (content[1] & 0xFF) == 0xFF
        || (content[0] & 0xFF) == 0xFF && (content[1] & 0xFF) == 0xFE)) {
      return null;
    }
    for (Magic m : MAGIC) {
      if (starts(content, m.bytes())) return "looks like " + m.name();
    }
    int control = 0;
    for (int i = 0; i < n; i++) {
      int b = content[i] & 0xFF;
      if (b == 0) return "NUL byte at offset " + i;
      if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x1B || b == 0x7F) control++;
    }
    if (n > 0 && control > n * MAX_CONTROL_SHARE) {
      return String.format(java.util.Locale.ROOT, "%.0f%% control characters in the first %d bytes",
          100.0 * control / n, n);
    }
    return null;
  }

  private static boolean starts(byte[] content, int[] magic) {
    if (content.length < magic.length) return false;
    for (int i = 0; i < magic.length; i++) if ((content[i] & 0xFF) != magic[i]) return false;
    return true;
  }

  private static Magic magic(String name, String ascii) {
    return new Magic(name, ascii.chars().toArray());
  }

  private static Magic magic(String name, int... bytes) {
    return new Magic(name, bytes);
  }
}
