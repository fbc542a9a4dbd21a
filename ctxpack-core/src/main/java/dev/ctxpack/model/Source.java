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
    GuardReport guard) {
  public Source {
    spans = List.copyOf(spans);
    passage = passage == null ? "" : passage;
    pieces = List.copyOf(pieces);
    dropped = List.copyOf(dropped);
    guard = guard == null ? GuardReport.NONE : guard;
  }

  public Source(String label, String docId, String title, String uri, String section, int page, String date,
      List<DocSpan> spans, String text, String passage, List<Passage.Piece> pieces, List<Dropped> dropped) {
    this(label, docId, title, uri, section, page, date, spans, text, passage, pieces, dropped, GuardReport.NONE);
  }

  /** This source with the injection guard's report. */
  public Source withGuard(GuardReport g) {
    return new Source(label, docId, title, uri, section, page, date, spans, text, passage, pieces, dropped, g);
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
