package dev.ctxpack.text;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Locale;

/** Normalisation and hashing used for identity: stable IDs and exact-duplicate detection. */
public final class TextNormalizer {
  private TextNormalizer() {}

  /**
   * The identity form of a text: Unicode NFKC, case-folded, every run of whitespace one space,
   * trimmed. Two texts with the same identity form are exact duplicates.
   */
  public static String identityForm(String text) {
    return collapseWhitespace(fold(text));
  }

  /** Unicode NFKC and lower case; plain ASCII and already normalised text skip the normaliser. */
  public static String fold(String text) {
    boolean ascii = true;
    for (int i = 0; i < text.length() && ascii; i++) ascii = text.charAt(i) < 0x80;
    boolean normal = ascii || Normalizer.isNormalized(text, Normalizer.Form.NFKC);
    return (normal ? text : Normalizer.normalize(text, Normalizer.Form.NFKC)).toLowerCase(Locale.ROOT);
  }

  /** Every run of whitespace one space, trimmed: {@link #identityForm} of a {@link #fold folded} text. */
  public static String collapseWhitespace(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    boolean space = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (collapsible(c)) {
        space = sb.length() > 0;
      } else {
        if (space) sb.append(' ');
        space = false;
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * {@code text} as a map key equal to another exactly when their {@link #collapseWhitespace} forms
   * are equal, and hashed as that form's String is, without the form being built: what the exact
   * level of dedup compares.
   */
  public static Object collapsedKey(String text) {
    return new Collapsed(text);
  }

  private static boolean collapsible(char c) {
    if (c > ' ' && c < 0x7F) return false; // printable ASCII, the common case
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  /** A text read as its {@link #collapseWhitespace} form, character by character. */
  private static final class Collapsed {
    private final String text;
    private final int hash;

    Collapsed(String text) {
      this.text = text;
      int h = 0;
      Cursor c = new Cursor(text);
      for (int x = c.next(); x >= 0; x = c.next()) h = 31 * h + x;
      this.hash = h;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) return true;
      if (!(o instanceof Collapsed other) || other.hash != hash) return false;
      Cursor a = new Cursor(text);
      Cursor b = new Cursor(other.text);
      while (true) {
        int x = a.next();
        if (x != b.next()) return false;
        if (x < 0) return true;
      }
    }

    @Override
    public String toString() {
      return collapseWhitespace(text);
    }
  }

  /** The characters of a text's {@link #collapseWhitespace} form, in order, then -1. */
  private static final class Cursor {
    private final String text;
    private int at;
    private int held = -1;
    private boolean started;

    Cursor(String text) {
      this.text = text;
    }

    int next() {
      if (held >= 0) {
        int c = held;
        held = -1;
        return c;
      }
      boolean space = false;
      while (at < text.length()) {
        char c = text.charAt(at++);
        if (collapsible(c)) {
          space = started;
          continue;
        }
        started = true;
        if (space) {
          held = c;
          return ' ';
        }
        return c;
      }
      return -1;
    }
  }

  /** SHA-256 of the UTF-8 bytes, as lowercase hex. */
  public static String sha256Hex(String text) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JDK", e);
    }
  }

  /** The hash of the identity form: equal for exact duplicates. */
  public static String contentHash(String text) {
    return sha256Hex(identityForm(text));
  }

  /** A stable document id derived from content: {@code d} followed by 16 hex digits. */
  public static String contentId(String text) {
    return "d" + contentHash(text).substring(0, 16);
  }

  /** Unicode NFC and line endings unified to {@code \n}: the form documents are stored in. */
  public static String storageForm(String text) {
    String t = text.indexOf('\r') >= 0 ? text.replace("\r\n", "\n").replace('\r', '\n') : text;
    if (t.startsWith("\uFEFF")) t = t.substring(1);
    return Normalizer.isNormalized(t, Normalizer.Form.NFC) ? t : Normalizer.normalize(t, Normalizer.Form.NFC);
  }
}
