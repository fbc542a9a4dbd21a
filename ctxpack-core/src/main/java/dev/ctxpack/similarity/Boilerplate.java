package dev.ctxpack.similarity;

import dev.ctxpack.text.TextNormalizer;

/**
 * Chunks whose text recurs across many documents of a corpus — footers, disclaimers, navigation,
 * licence notices — are boilerplate: ingestion stores each chunk's {@link #key} and retrieval
 * multiplies the scores of a chunk held by at least {@link #DEFAULT_MIN_DOCUMENTS} documents by
 * {@link #DEFAULT_FACTOR} (docs/API.md). Stateless.
 */
public final class Boilerplate {
  /** Documents that must hold a chunk's text for it to be boilerplate, by default. */
  public static final int DEFAULT_MIN_DOCUMENTS = 5;
  /** What a boilerplate chunk's retrieval scores are multiplied by, by default. */
  public static final double DEFAULT_FACTOR = 0.5;

  private Boilerplate() {}

  /**
   * The normalised key of a chunk text: 16 hex digits of the SHA-256 of its identity form ({@link
   * TextNormalizer#identityForm}: NFKC, case-folded, whitespace collapsed), so copies that differ
   * only in case or spacing share it.
   */
  public static String key(String chunkText) {
    return TextNormalizer.contentHash(chunkText).substring(0, 16);
  }
}
