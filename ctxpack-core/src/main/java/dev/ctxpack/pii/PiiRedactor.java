package dev.ctxpack.pii;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Finds and replaces PII with typed placeholders. {@link #find} runs the recognisers of the
 * configured types and settles overlaps (the earliest match wins, then the longest, then the type
 * declared first in {@link PiiType}); {@link #session} numbers placeholders for one request.
 *
 * <pre>{@code
 * PiiRedactor.Session s = new PiiRedactor(RedactionOptions.all()).session();
 * s.redact("CPF 123.456.789-09, e-mail ana@x.org").text(); // "CPF [CPF_1], e-mail [EMAIL_1]"
 * s.redact("again 12345678909").text();                    // "again [CPF_1]": same number, same placeholder
 * }</pre>
 *
 * Recognition is conservative: numbers must pass their check digits (Luhn, mod 97, CPF and CNPJ
 * digits), phone numbers must have one of a few known layouts, and a number glued to other digits,
 * letters or a currency sign is left alone. Thread-safe; a session is not.
 */
public final class PiiRedactor {
  private final RedactionOptions options;

  public PiiRedactor(RedactionOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  public RedactionOptions options() {
    return options;
  }

  /** The values to redact in {@code text}, in text order, not overlapping. */
  public List<PiiMatch> find(String text) {
    List<PiiMatch> all = new ArrayList<>();
    for (PiiType t : PiiType.values()) if (options.types().contains(t)) Scanners.scan(t, text, all);
    all.sort(Comparator.comparingInt(PiiMatch::start)
        .thenComparing(Comparator.comparingInt((PiiMatch m) -> m.end()).reversed())
        .thenComparing(m -> m.type().ordinal()));
    List<PiiMatch> out = new ArrayList<>(all.size());
    int last = 0;
    for (PiiMatch m : all) {
      if (m.start() < last) continue;
      out.add(m);
      last = m.end();
    }
    return out;
  }

  /** A numbering of placeholders for one request: texts redacted through it share it. */
  public Session session() {
    return new Session();
  }

  /** Numbers placeholders per type in order of first appearance; the same value keeps its placeholder. */
  public final class Session {
    private final Map<PiiType, Map<String, String>> seen = new EnumMap<>(PiiType.class);

    private Session() {}

    public Redacted redact(String text) {
      List<PiiMatch> found = find(text);
      if (found.isEmpty()) return new Redacted(text, text, List.of());
      StringBuilder sb = new StringBuilder(text.length());
      List<Redaction> redactions = new ArrayList<>(found.size());
      int at = 0;
      for (PiiMatch m : found) {
        sb.append(text, at, m.start());
        Map<String, String> byValue = seen.computeIfAbsent(m.type(), t -> new HashMap<>());
        String placeholder = byValue.computeIfAbsent(m.value(),
            v -> "[" + m.type().label() + "_" + (byValue.size() + 1) + "]");
        int rs = sb.length();
        sb.append(placeholder);
        redactions.add(new Redaction(m.type(), placeholder, m.start(), m.end(), rs, sb.length()));
        at = m.end();
      }
      sb.append(text, at, text.length());
      return new Redacted(text, sb.toString(), redactions);
    }
  }
}
