package dev.ctxpack.retrieve;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.chunk.SentenceWindow;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Widens each retrieved chunk to the {@code window} sentences around it ({@link SentenceWindow}), for
 * indexes cut one sentence per chunk ({@code --chunker sentence-window}): the sentence matched, its
 * neighbours are read. The document's stored text comes from {@link SearchableIndex#document}; the widened
 * chunk keeps its id, scores and section, and gets the widened span, its verbatim text and exact
 * token count. Each widening is a trace line {@code {"stage": "retrieve", "action": "expand", "rule":
 * "sentence-window:N", "ids": [chunk], "reason": "<docId> [start, end) -> [start, end)"}}. A chunk
 * whose document is gone is kept as it was.
 */
public final class SentenceWindowRetriever implements Retriever {
  private final Retriever inner;
  private final SearchableIndex index;
  private final Tokenizer tokenizer;
  private final int window;

  public SentenceWindowRetriever(Retriever inner, SearchableIndex index, Tokenizer tokenizer, int window) {
    this.inner = Objects.requireNonNull(inner, "inner");
    this.index = Objects.requireNonNull(index, "index");
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    if (window < 1) throw new IllegalArgumentException("window must be >= 1, was " + window);
    this.window = window;
  }

  @Override
  public List<Candidate> retrieve(String query, RetrievalOptions options, Trace trace) throws IOException {
    return expand(inner.retrieve(query, options, trace), trace);
  }

  /** {@code candidates} with each chunk widened; the shared step of search and pack. */
  public List<Candidate> expand(List<Candidate> candidates, Trace trace) throws IOException {
    Map<String, Optional<Document>> docs = new HashMap<>();
    List<Candidate> out = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      Chunk chunk = c.chunk();
      Optional<Document> doc = docs.get(chunk.docId());
      if (doc == null) {
        doc = index.document(chunk.docId());
        docs.put(chunk.docId(), doc);
      }
      if (doc.isEmpty() || chunk.span().end() > doc.get().text().length()) {
        out.add(c);
        continue;
      }
      String text = doc.get().text();
      Span wide = SentenceWindow.expand(text, doc.get().language(), chunk.span(), window);
      if (wide.equals(chunk.span())) {
        out.add(c);
        continue;
      }
      String wideText = wide.of(text);
      int tokens = tokenizer.count(wideText);
      trace.add(Stage.RETRIEVE, Action.EXPAND, "sentence-window:" + window, List.of(chunk.id()), chunk.id(),
          0, chunk.docId() + " [" + chunk.span().start() + ", " + chunk.span().end() + ") -> ["
              + wide.start() + ", " + wide.end() + ")");
      out.add(new Candidate(new Chunk(chunk.id(), chunk.docId(), wide, wideText, chunk.section(), chunk.page(), tokens),
          c.doc(), c.scores()));
    }
    return out;
  }
}
