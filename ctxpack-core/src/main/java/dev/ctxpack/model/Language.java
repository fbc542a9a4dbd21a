package dev.ctxpack.model;

import java.util.Locale;

/** Languages ctxpack interprets. {@link #UNKNOWN} falls back to language-neutral processing. */
public enum Language {
  EN("en"),
  PT("pt"),
  UNKNOWN("und");

  private final String code;

  Language(String code) {
    this.code = code;
  }

  /** ISO 639-1 code, or {@code und} for unknown. */
  public String code() {
    return code;
  }

  /** Parses {@code en}, {@code pt}, {@code pt-BR}, {@code und}... case-insensitively. */
  public static Language fromCode(String code) {
    if (code == null || code.isBlank()) return UNKNOWN;
    String c = code.trim().toLowerCase(Locale.ROOT);
    if (c.equals("en") || c.startsWith("en-") || c.startsWith("en_") || c.equals("english")) return EN;
    if (c.equals("pt") || c.startsWith("pt-") || c.startsWith("pt_") || c.equals("portuguese")) return PT;
    if (c.equals("und") || c.equals("unknown")) return UNKNOWN;
    throw new IllegalArgumentException("unsupported language '" + code + "': use en, pt or und");
  }
}
