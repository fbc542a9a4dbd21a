package dev.ctxpack.compress;

import java.util.List;
import java.util.Objects;

/**
 * The result of compressing one request: the kept text of each passage that kept any (in input
 * order), every dropped span with its reason, and the tokens before and after. {@code coverage}:
 * when the request's best sentence fell under the gate and its passage's coverage of the query was
 * read ({@link CompressOptions.Cover}), that passage and its coverage; null otherwise.
 */
public record Compression(List<Compressed> passages, List<Dropped> dropped, int tokensIn, int tokensOut, Coverage coverage) {

  /** The coverage in [0, 1] of the query by passage {@code id}, the one holding the request's best sentence. */
  public record Coverage(String id, double share) {}

  public Compression {
    passages = List.copyOf(passages);
    dropped = List.copyOf(dropped);
  }

  /** A compression whose gate did not read any coverage. */
  public Compression(List<Compressed> passages, List<Dropped> dropped, int tokensIn, int tokensOut) {
    this(passages, dropped, tokensIn, tokensOut, null);
  }

  /** A kept span: {@code [start, end)} of part {@code part} of the input passage. */
  public record Span(int part, int start, int end) {
    public Span {
      if (part < 0 || start < 0 || end < start) {
        throw new IllegalArgumentException("bad span: part " + part + " [" + start + ", " + end + ")");
      }
    }
  }

  /**
   * What is kept of one passage: {@code text} is its kept spans in source order joined by {@link
   * dev.ctxpack.model.Passage#GAP}; {@code tokens} what that text counts.
   */
  public record Compressed(String id, String text, List<Span> spans, int tokens) {
    public Compressed {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
      spans = List.copyOf(spans);
    }
  }

  /**
   * A dropped sentence (or the rest of a sentence cut at a clause): where, why, its score, and the
   * tokens it would have taken (its text counted alone).
   */
  public record Dropped(String id, Span span, DropReason reason, double score, int tokens) {
    public Dropped {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(span, "span");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
