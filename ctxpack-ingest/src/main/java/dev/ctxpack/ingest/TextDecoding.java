package dev.ctxpack.ingest;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes to text for the text-like loaders, counting the replacement characters it had to insert.
 *
 * <ol>
 *   <li>A byte order mark decides: UTF-8, UTF-16BE or UTF-16LE (the mark itself is dropped).
 *   <li>UTF-8, whatever the file declares, when the bytes plainly are: valid UTF-8 that holds any
 *       non-ASCII character, or UTF-8 damaged in a few places (more than twice as many well-formed
 *       multi-byte sequences as invalid bytes: a Latin-1 file has practically none, {@code ação}
 *       being {@code 61 E7 E3 6F}). Each invalid sequence becomes one U+FFFD that is counted, and
 *       every valid character is kept: one bad byte does not turn each {@code ação} into {@code
 *       aÃ§Ã£o}.
 *   <li>A charset the file declares (an HTML {@code <meta charset>}) other than UTF-8 is used when
 *       Java knows it; ISO-8859-1 and US-ASCII are read as Windows-1252, as browsers do.
 *   <li>Otherwise valid UTF-8 is UTF-8.
 *   <li>Otherwise the bytes are either UTF-8 with a few bad bytes or a legacy 8-bit file. The file
 *       is read as Windows-1252 (a superset of ISO-8859-1, common for Portuguese text) when it has
 *       fewer well-formed multi-byte UTF-8 sequences than invalid bytes, and as UTF-8 otherwise,
 *       each invalid sequence becoming one counted U+FFFD. A declared UTF-8 does not change this
 *       choice: a page labelled UTF-8 without a single UTF-8 sequence in it is a mislabelled Latin-1
 *       page. Text read so is {@linkplain Decoded#guessedLegacy() marked}: whether it is text at
 *       all is then judged by {@link TextCheck}.
 * </ol>
 */
final class TextDecoding {
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private TextDecoding() {}

  /**
   * Decoded text, the charset it was read in, how many U+FFFD replaced invalid input, and whether
   * the charset is the Windows-1252 guess for bytes that are not UTF-8 and declared nothing else.
   */
  record Decoded(String text, Charset charset, int replacedChars, boolean guessedLegacy) {
    Decoded(String text, Charset charset, int replacedChars) {
      this(text, charset, replacedChars, false);
    }
  }

  static Decoded decode(byte[] bytes) {
    return decode(bytes, null);
  }

  /** Decodes {@code bytes}; {@code declared} (may be null) is the charset the content names for itself. */
  static Decoded decode(byte[] bytes, Charset declared) {
    int n = bytes.length;
    if (n >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
      return decodeWith(bytes, 3, StandardCharsets.UTF_8);
    }
    if (n >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) return decodeWith(bytes, 2, StandardCharsets.UTF_16BE);
    if (n >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) return decodeWith(bytes, 2, StandardCharsets.UTF_16LE);
    int[] counts = utf8Counts(bytes);
    long validMultiByte = counts[0];
    long invalid = counts[1];
    boolean declaredOther = declared != null && !declared.equals(StandardCharsets.UTF_8);
    // Plainly UTF-8 whatever the page declares: valid with non-ASCII in it, or damaged in a few places.
    boolean utf8 = invalid == 0 ? validMultiByte > 0 || !declaredOther : validMultiByte > 2 * invalid;
    if (!utf8 && declaredOther) {
      Charset cs = declared.equals(StandardCharsets.ISO_8859_1) || declared.equals(StandardCharsets.US_ASCII)
          ? WINDOWS_1252 : declared;
      return decodeWith(bytes, 0, cs);
    }
    if (invalid == 0) return new Decoded(new String(bytes, StandardCharsets.UTF_8), StandardCharsets.UTF_8, 0);
    // A page declared UTF-8 whose bytes have no UTF-8 in them is a mislabelled Latin-1 page.
    if (validMultiByte < invalid) {
      Decoded legacy = decodeWith(bytes, 0, WINDOWS_1252);
      return new Decoded(legacy.text(), legacy.charset(), legacy.replacedChars(), true);
    }
    return decodeWith(bytes, 0, StandardCharsets.UTF_8);
  }

  /** Decodes from {@code offset} with {@code cs}, replacing and counting malformed or unmappable input. */
  static Decoded decodeWith(byte[] bytes, int offset, Charset cs) {
    CharsetDecoder dec = cs.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, offset, bytes.length - offset);
    CharBuffer out = CharBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 16L,
        (long) Math.ceil((bytes.length - offset) * (double) dec.maxCharsPerByte()) + 16));
    int replaced = 0;
    while (true) {
      // Always through decode(…, true), even when nothing is left: flush() may only follow it.
      CoderResult r = dec.decode(in, out, true);
      if (r.isError()) {
        in.position(in.position() + r.length());
        out.put('\uFFFD');
        replaced++;
        continue;
      }
      if (r.isUnderflow()) {
        CoderResult f = dec.flush(out);
        if (f.isError()) {
          out.put('\uFFFD');
          replaced++;
        }
        break;
      }
      // Overflow cannot happen: out is sized for the worst case.
      throw new IllegalStateException("decoder overflow for " + cs);
    }
    out.flip();
    return new Decoded(out.toString(), cs, replaced);
  }

  /**
   * {@code [well-formed multi-byte UTF-8 sequences, invalid bytes]}: a byte is invalid when it
   * cannot start a sequence or its sequence is cut short, overlong, a surrogate or above U+10FFFF.
   */
  static int[] utf8Counts(byte[] b) {
    int valid = 0;
    int invalid = 0;
    int i = 0;
    int n = b.length;
    while (i < n) {
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int len;
      int min;
      if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        min = 0x80;
      } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        min = 0x800;
      } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        min = 0x10000;
      } else {
        invalid++;
        i++;
        continue;
      }
      int cp = c & (0xFF >> (len + 1));
      int k = 1;
      while (k < len && i + k < n && (b[i + k] & 0xC0) == 0x80) {
        cp = (cp << 6) | (b[i + k] & 0x3F);
        k++;
      }
      if (k == len && cp >= min && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
        valid++;
        i += len;
      } else {
        invalid++;
        i++;
      }
    }
    return new int[] {valid, invalid};
  }
}
