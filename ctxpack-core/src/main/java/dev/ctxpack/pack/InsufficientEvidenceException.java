package dev.ctxpack.pack;

import dev.ctxpack.model.ContextPackage;
import java.util.Locale;

/**
 * A request with {@link OnInsufficient#FAIL} whose evidence does not clear its relevance line: the
 * judgement, with the candidates that came closest, is {@link #evidence()}.
 */
public final class InsufficientEvidenceException extends RuntimeException {
  private final transient ContextPackage.Evidence evidence;

  public InsufficientEvidenceException(ContextPackage.Evidence evidence) {
    super(message(evidence));
    this.evidence = evidence;
  }

  public ContextPackage.Evidence evidence() {
    return evidence;
  }

  private static String message(ContextPackage.Evidence e) {
    StringBuilder sb = new StringBuilder("insufficient evidence: no sentence clears the relevance line ")
        .append(String.format(Locale.ROOT, "%.2f", e.line()));
    if (e.closest().isEmpty()) return sb.append(" (no candidate was found)").toString();
    sb.append("; closest:");
    for (ContextPackage.Closest c : e.closest()) {
      sb.append(' ').append(c.docId()).append(" [").append(c.start()).append(", ").append(c.end()).append(") ")
          .append(String.format(Locale.ROOT, "%.4f", c.score()));
    }
    return sb.toString();
  }
}
