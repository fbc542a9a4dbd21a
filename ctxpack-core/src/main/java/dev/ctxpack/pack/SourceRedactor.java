package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Trace;
import dev.ctxpack.pii.PiiMatch;
import dev.ctxpack.pii.PiiRedactor;
import dev.ctxpack.pii.Redacted;
import dev.ctxpack.pii.Redaction;
import dev.ctxpack.pii.RedactionOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * PII redaction of the packer's sources: each piece of a source's text is redacted on its own (so a
 * value never straddles two documents), the pieces joined again by {@link Passage#GAP}, and each
 * placeholder's original value located in its document; the title, URI and section are redacted
 * too, through the same session. When redaction is off, sources pass
 * through unchanged.
 */
final class SourceRedactor {
  private final PiiRedactor redactor;

  private SourceRedactor(PiiRedactor redactor) {
    this.redactor = redactor;
  }

  static SourceRedactor of(RedactionOptions o) {
    return new SourceRedactor(o.on() ? new PiiRedactor(o) : null);
  }

  boolean on() {
    return redactor != null;
  }

  /** One source redacted on its own (for costing a passage before labels are final). */
  Source one(Source s) {
    return redactor == null ? s : redact(s, redactor.session());
  }

  /** The sources in prompt order, numbered through one session: the same value, the same placeholder. */
  List<Source> all(List<Source> sources) {
    if (redactor == null) return sources;
    PiiRedactor.Session session = redactor.session();
    List<Source> out = new ArrayList<>(sources.size());
    for (Source s : sources) out.add(redact(s, session));
    return out;
  }

  /** One decision per source with its counts per type (never the values). */
  void record(List<Source> sources, Trace trace) {
    if (redactor == null) return;
    for (Source s : sources) {
      Map<String, Long> byType = new java.util.TreeMap<>(s.redactions().stream()
          .collect(Collectors.groupingBy(Source.Redaction::type, Collectors.counting())));
      trace.add(Stage.REDACT, Action.REDACT, "pii:" + redactor.options().describe(), List.of(s.label()), "", 0,
          byType.isEmpty() ? "no PII found"
              : byType.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")));
    }
  }

  /**
   * The trace as the package shows it: reasons with any PII replaced by its kind ({@code [EMAIL]}),
   * and the dedup guard's number and date lists withheld (they quote figures of passages, a
   * fragment of a card or CPF among them, that the redactor would not recognise on their own).
   */
  Trace scrub(Trace trace) {
    if (redactor == null) return trace;
    Trace out = new Trace();
    for (Decision d : trace.decisions()) {
      String reason = d.reason();
      int differs = reason.indexOf(" differs: ");
      if ((d.rule().endsWith("guard:number") || d.rule().endsWith("guard:date")) && differs >= 0) {
        reason = reason.substring(0, differs) + " differs (values withheld: PII redaction is on)";
      }
      List<PiiMatch> found = redactor.find(reason);
      if (!found.isEmpty()) {
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (PiiMatch m : found) {
          sb.append(reason, at, m.start()).append('[').append(m.type().label()).append(']');
          at = m.end();
        }
        reason = sb.append(reason.substring(at)).toString();
      }
      out.add(reason.equals(d.reason()) ? d
          : new Decision(d.stage(), d.action(), d.rule(), d.ids(), d.into(), d.tokensSaved(), reason, d.similarity()));
    }
    return out;
  }

  private Source redact(Source s, PiiRedactor.Session session) {
    List<Source.Redaction> found = new ArrayList<>();
    String text;
    if (!s.pieces().isEmpty() && Passage.join(s.pieces()).equals(s.text())) {
      StringBuilder sb = new StringBuilder(s.text().length());
      for (int i = 0; i < s.pieces().size(); i++) {
        Passage.Piece p = s.pieces().get(i);
        if (i > 0) sb.append(Passage.GAP);
        Redacted r = session.redact(p.text());
        sb.append(r.text());
        for (Redaction x : r.redactions()) {
          found.add(new Source.Redaction(x.type().key(), x.placeholder(), p.docId(), p.span().start() + x.start(),
              p.span().start() + x.end()));
        }
      }
      text = sb.toString();
    } else {
      Redacted r = session.redact(s.text());
      text = r.text();
      int base = s.spans().isEmpty() ? 0 : s.spans().get(0).start();
      for (Redaction x : r.redactions()) {
        found.add(new Source.Redaction(x.type().key(), x.placeholder(), s.docId(), base + x.start(), base + x.end()));
      }
    }
    // Cut sentences are shown verbatim for audit: keep only those that hold no PII.
    List<Source.Dropped> dropped = s.dropped().stream().filter(d -> redactor.find(d.text()).isEmpty()).toList();
    // The title, URI and section reach the fence's attributes and the JSON too: redacted through the same
    // session (after the text, so the text's placeholders are numbered as before), not located in the text.
    return new Source(s.label(), s.docId(), session.redact(s.title()).text(), session.redact(s.uri()).text(),
        session.redact(s.section()).text(), s.page(), s.date(), s.spans(), text, s.passage(), s.pieces(), dropped,
        found, s.guard());
  }
}
