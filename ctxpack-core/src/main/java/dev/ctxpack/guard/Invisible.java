package dev.ctxpack.guard;

/**
 * Invisible characters the guard strips, by kind: {@code tag} (U+E0000–E007F, which can spell a
 * hidden ASCII message), {@code zeroWidth} (U+200B–U+200D, U+2060–U+2064, U+FEFF), {@code bidi}
 * (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and {@code other} (soft hyphen U+00AD, combining
 * grapheme joiner U+034F, Mongolian vowel separator U+180E, supplementary variation selectors
 * U+E0100–E01EF). None of them is visible to a reader; all of them can hide or reorder what a
 * model reads.
 */
public final class Invisible {
  public static final String TAG = "tag";
  public static final String ZERO_WIDTH = "zeroWidth";
  public static final String BIDI = "bidi";
  public static final String OTHER = "other";

  private Invisible() {}

  /** The kind of {@code cp}, or null when it is not stripped. */
  public static String kind(int cp) {
    if (cp < 0x00AD) return null;
    if (cp >= 0xE0000 && cp <= 0xE007F) return TAG;
    if ((cp >= 0x200B && cp <= 0x200D) || (cp >= 0x2060 && cp <= 0x2064) || cp == 0xFEFF) return ZERO_WIDTH;
    if (cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) return BIDI;
    if (cp == 0x00AD || cp == 0x034F || cp == 0x180E || (cp >= 0xE0100 && cp <= 0xE01EF)) return OTHER;
    return null;
  }
}
