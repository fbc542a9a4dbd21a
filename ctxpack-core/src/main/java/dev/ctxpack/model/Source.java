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
    List<Redaction> redactions) {
  public Source {
    spans = List.copyOf(spans);
    passage = passage == null ? "" : passage;
    pieces = List.copyOf(pieces);
    dropped = List.copyOf(dropped);
    redactions = redactions == null ? List.of() : List.copyOf(redactions);
  }

  public Source(String label, String docId, String title, String uri, String section, int page, String date,
      List<DocSpan> spans, String text, String passage, List<Passage.Piece> pieces, List<Dropped> dropped) {
    this(label, docId, title, uri, section, page, date, spans, text, passage, pieces, dropped, List.of());
  }

  public Source(String label, String docId, String title, String uri, String section, int page, String date,
      List<DocSpan> spans, String text) {
    this(label, docId, title, uri, section, page, date, spans, text, "", List.of(), List.of());
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
