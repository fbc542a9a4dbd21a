package dev.ctxpack.embed;

import java.util.Objects;

/**
 * A text's contextual token vectors as the embedder's model reads them (the model's last layer,
 * before pooling), each made unit length, with where each token lies in the text. {@code start[i]}
 * and {@code end[i]} are character offsets into the text ({@code -1} for the model's special
 * tokens); {@code content[i]} is true for a token holding a letter or a digit (not a special token,
 * not punctuation).
 */
public record TokenStates(float[][] vectors, int[] start, int[] end, boolean[] content) {
  public TokenStates {
    Objects.requireNonNull(vectors, "vectors");
    if (start.length != vectors.length || end.length != vectors.length || content.length != vectors.length) {
      throw new IllegalArgumentException("vectors, start, end and content must have one entry per token");
    }
  }

  /** The number of tokens. */
  public int size() {
    return vectors.length;
  }
}
