package dev.ctxpack.model;

import java.util.List;
import java.util.Objects;

/**
 * What survives dedup: verbatim text and its provenance. The text is made of {@code pieces}, each a
 * verbatim span of one document, joined by {@link #GAP} when there is more than one (a near copy's
 * extra sentence, a grouped paraphrase's distinct sentences). {@code sources.get(0)} is the
 * candidate whose text leads; every other element is a copy merged, stitched or grouped into it,
 * cited alongside.
 */
public record Passage(String id, String text, List<Piece> pieces, List<Candidate> sources, double score) {
  /** What joins two pieces in {@link #text()}. */
  public static final String GAP = " … ";

  /** A verbatim span of a document: {@code text} is the document's text at {@code span}. */
  public record Piece(String docId, Span span, String text) {
    public Piece {
      Objects.requireNonNull(docId, "docId");
      Objects.requireNonNull(span, "span");
      Objects.requireNonNull(text, "text");
      if (text.length() != span.length()) {
        throw new IllegalArgumentException("piece of " + docId + ": text length " + text.length()
            + " does not match span " + span);
      }
    }

    public static Piece of(Chunk c) {
      return new Piece(c.docId(), c.span(), c.text());
    }
  }

  public Passage {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    pieces = List.copyOf(pieces);
    sources = List.copyOf(sources);
    if (sources.isEmpty()) throw new IllegalArgumentException("passage " + id + " has no sources");
    if (pieces.isEmpty()) throw new IllegalArgumentException("passage " + id + " has no pieces");
    if (!text.equals(join(pieces))) {
      throw new IllegalArgumentException("passage " + id + ": text is not its pieces joined");
    }
  }

  /** A passage of the pieces joined by {@link #GAP}. */
  public static Passage of(String id, List<Piece> pieces, List<Candidate> sources, double score) {
    return new Passage(id, join(pieces), pieces, sources, score);
  }

  /** The passage of one candidate: its chunk's text. */
  public static Passage of(Candidate c) {
    return of(c.chunk().id(), List.of(Piece.of(c.chunk())), List.of(c), c.score());
  }

  public static String join(List<Piece> pieces) {
    if (pieces.size() == 1) return pieces.get(0).text();
    StringBuilder sb = new StringBuilder();
    for (Piece p : pieces) {
      if (sb.length() > 0) sb.append(GAP);
      sb.append(p.text());
    }
    return sb.toString();
  }

  public Candidate primary() {
    return sources.get(0);
  }

  /** The spans of every source chunk, in {@code sources} order. */
  public List<Span> spans() {
    return sources.stream().map(c -> c.chunk().span()).toList();
  }

  public Passage withScore(double newScore) {
    return new Passage(id, text, pieces, sources, newScore);
  }
}
