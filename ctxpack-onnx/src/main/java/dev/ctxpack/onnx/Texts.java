package dev.ctxpack.onnx;

import java.util.List;

/** Input checks shared by every embedder in this package, so they all reject the same inputs. */
final class Texts {
  private Texts() {}

  /**
   * Checks that {@code texts} and every element are non-null and hold something besides whitespace
   * and control characters. Models cannot embed such text (langchain4j refuses it; OpenAI answers
   * 400), so the caller learns which element is at fault before any work starts.
   */
  static void requireNonBlank(List<String> texts) {
    if (texts == null) throw new IllegalArgumentException("texts must not be null");
    for (int i = 0; i < texts.size(); i++) {
      String t = texts.get(i);
      if (t == null) {
        throw new IllegalArgumentException("texts[" + i + "] is null; pass non-blank text only");
      }
      if (t.isBlank() || t.trim().isEmpty()) {
        throw new IllegalArgumentException(
            "texts[" + i + "] is blank (only whitespace or control characters); embedders need"
                + " text, so drop or replace it first");
      }
    }
  }
}
