package dev.ctxpack.verify;

import java.util.Locale;

/** What the cited sources say about a claim. */
public enum Verdict {
  /** A cited source states the claim: its key terms, numbers, dates and names, without negating it. */
  SUPPORTED,
  /** A cited source states part of the claim; another part (a clause, a name, a number) is in none of them. */
  PARTIAL,
  /** No cited source states the claim (or every citation names a source that was not given). */
  UNSUPPORTED,
  /** A cited sentence states the claim's subject with a negation the claim lacks, or another number or date. */
  CONTRADICTED,
  /** A factual claim that cites nothing. */
  UNCITED;

  /** The lower-case name used in JSON ({@code supported}, {@code partial}...). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
