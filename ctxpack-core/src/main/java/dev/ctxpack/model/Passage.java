package dev.ctxpack.model;

import java.util.List;
import java.util.Objects;

/**
 * What survives dedup: verbatim {@code text} and its provenance. {@code sources.get(0)} is the
 * candidate whose text is shown; every other element is a copy merged into it, cited alongside.
 */
public record Passage(String id, String text, List<Candidate> sources, double score) {
  public Passage {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    sources = List.copyOf(sources);
    if (sources.isEmpty()) throw new IllegalArgumentException("passage " + id + " has no sources");
  }

  public static Passage of(Candidate c) {
    return new Passage(c.chunk().id(), c.chunk().text(), List.of(c), c.score());
  }

  public Candidate primary() {
    return sources.get(0);
  }

  public List<Span> spans() {
    return sources.stream().map(c -> c.chunk().span()).toList();
  }
}
