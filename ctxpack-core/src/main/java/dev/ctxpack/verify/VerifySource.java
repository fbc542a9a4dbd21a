package dev.ctxpack.verify;

import java.util.Objects;

/** A source the answer could cite: its label as given to the model ({@code S1}) and its verbatim text. */
public record VerifySource(String id, String text) {
  public VerifySource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    if (id.isBlank()) throw new IllegalArgumentException("source id must not be blank");
  }
}
