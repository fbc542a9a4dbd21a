package dev.ctxpack.ingest;

import dev.ctxpack.text.TextNormalizer;

/**
 * Text in the form documents are stored in ({@link TextNormalizer#storageForm}), with char offsets
 * into the text as built (section and page starts) carried over to the stored form. Loaders build
 * their text piece by piece, each piece already in storage form, so the whole is almost always
 * unchanged; when it is not (a combining mark that opens a piece), each offset becomes the length
 * of the stored form of the text before it.
 */
final class StorageText {
  private StorageText() {}

  /** The stored form of {@code text}; {@code offsets} are rewritten in place to point into it. */
  static String of(String text, int[] offsets) {
    String stored = TextNormalizer.storageForm(text);
    if (stored.equals(text)) return text;
    for (int i = 0; i < offsets.length; i++) {
      int at = Math.min(offsets[i], text.length());
      offsets[i] = Math.min(stored.length(), TextNormalizer.storageForm(text.substring(0, at)).length());
    }
    return stored;
  }
}
