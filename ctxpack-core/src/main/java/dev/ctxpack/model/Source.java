package dev.ctxpack.model;

import java.util.List;
import java.util.Objects;

/**
 * A source as shown to the model: its label ({@code S1}, {@code S2}...), what identifies it and the
 * verbatim text. {@code spans} locate the text (and any merged copies) in their documents.
 *
 * <p>For audit, it also says how the text came to be: {@code passage} is the id the trace names it
 * by (its compress and dedup decisions), {@code pieces} the verbatim spans its {@code text} is made
 * of (joined by {@link Passage#GAP}), and {@code dropped} the sentences compression cut from it,
 * each with its reason. A source built without them (the short constructor) has them empty.
 *
 * <p>With PII redaction on, {@code text} is the redacted text (what the prompt holds) and {@code
 * redactions} says where each placeholder's original value lies in its document; {@code spans} and
 * {@code pieces} keep their document offsets, and {@code dropped} keeps only the cut sentences that
 * hold no PII.
 *
 * <p>{@code guard} is what the injection guard did to it ({@code dev.ctxpack.guard}; {@link
 * GuardReport#NONE} when it did not run): {@code text} stays verbatim, the fence holds the guard's
 * {@code promptText}.
 */
public record Source(
    String label,
    String docId,
    String title,
    String uri,
    String section,
    int page,
    String date,
    List<DocSpan> spans,
    String text,
    String passage,
    List<Passage.Piece> pieces,
    List<Dropped> dropped,
    List<Redaction> redactions,
    GuardReport guard) {
  public Source {
    spans = List.copyOf(spans);
    passage = passage == null ? "" : passage;
    pieces = List.copyOf(pieces);
    dropped = List.copyOf(dropped);
    redactions = redactions == null ? List.of() : List.copyOf(redactions);
    guard = guard == null ? GuardReport.NONE : guard;
  }

  public Source(String label, String docId, String title, String uri, String section, int page, String date,
      List<DocSpan> spans, String text, String passage, List<Passage.Piece> pieces, List<Dropped> dropped) {
    this(label, docId, title, uri, section, page, date, spans, text, passage, pieces, dropped, List.of(), GuardReport.NONE);
  }

  /** This source with the injection guard's report. */
  public Source withGuard(GuardReport g) {
    return new Source(label, docId, title, uri, section, page, date, spans, text, passage, pieces, dropped, redactions, g);
  }

  public Source(String label, String docId, String title, String uri, String section, int page, String date,
      List<DocSpan> spans, String text) {
    this(label, docId, title, uri, section, page, date, spans, text, "", List.of(), List.of());
  }

  /** A position in a document. */
  public record Location(String docId, int offset) {}

  /**
   * Where offset {@code offset} of {@code text} (an evidence span, a citation's quote) lies in its
   * document, through {@code pieces} and, with PII redaction, {@code redactions}: an offset inside a
   * placeholder maps to the start of the original value, one inside a {@link Passage#GAP} to the end
   * of the piece before it, and {@code text.length()} to the end of the last piece.
   *
   * @throws IllegalStateException when the source has no pieces (built with the short constructor)
   */
  public Location locate(int offset) {
    if (offset < 0 || offset > text.length()) {
      throw new IllegalArgumentException("offset " + offset + " is outside the text of " + label + " (length " + text.length() + ")");
    }
    if (pieces.isEmpty()) throw new IllegalStateException("source " + label + " has no pieces to locate offsets in");
    int pos = 0;
    int ri = 0;
    for (int i = 0; i < pieces.size(); i++) {
      Passage.Piece p = pieces.get(i);
      if (i > 0) {
        Passage.Piece prev = pieces.get(i - 1);
        if (offset < pos + Passage.GAP.length()) return new Location(prev.docId(), prev.span().end());
        pos += Passage.GAP.length();
      }
      int at = p.span().start();
      while (ri < redactions.size() && redactions.get(ri).docId().equals(p.docId())
          && redactions.get(ri).start() >= at && redactions.get(ri).end() <= p.span().end()) {
        Redaction r = redactions.get(ri++);
        if (offset < pos + r.start() - at) return new Location(p.docId(), at + offset - pos);
        pos += r.start() - at;
        if (offset < pos + r.placeholder().length()) return new Location(p.docId(), r.start());
        pos += r.placeholder().length();
        at = r.end();
      }
      if (offset < pos + p.span().end() - at) return new Location(p.docId(), at + offset - pos);
      pos += p.span().end() - at;
    }
    Passage.Piece last = pieces.get(pieces.size() - 1);
    return new Location(last.docId(), last.span().end());
  }

  /** A span of a named document; {@code chunkId} is the chunk it came from ({@code ""} when not known). */
  public record DocSpan(String docId, int start, int end, String chunkId) {
    public DocSpan {
      chunkId = chunkId == null ? "" : chunkId;
    }

    public DocSpan(String docId, int start, int end) {
      this(docId, start, end, "");
    }
  }

  /**
   * A value PII redaction replaced: {@code type} is its kind's key ({@code email}, {@code cpf}...),
   * {@code placeholder} what stands for it in {@code text} ({@code [CPF_1]}), {@code [start, end)}
   * the original value's offsets in document {@code docId}. Never the value itself.
   */
  public record Redaction(String type, String placeholder, String docId, int start, int end) {
    public Redaction {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(placeholder, "placeholder");
      Objects.requireNonNull(docId, "docId");
    }
  }

  /**
   * A span compression did not keep: {@code text} is the document's text at {@code [start, end)},
   * {@code reason} the drop reason's key ({@code off-topic}, {@code budget}, {@code boilerplate}...).
   */
  public record Dropped(String docId, int start, int end, String text, String reason, double score) {
    public Dropped {
      Objects.requireNonNull(docId, "docId");
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(reason, "reason");
      if (text.length() != end - start) {
        throw new IllegalArgumentException("dropped span of " + docId + ": text length " + text.length()
            + " does not match [" + start + ", " + end + ")");
      }
    }
  }
}
