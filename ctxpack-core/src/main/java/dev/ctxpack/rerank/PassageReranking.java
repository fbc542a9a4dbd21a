package dev.ctxpack.rerank;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link Reranker} over passages rather than candidates: each passage is scored by its lead
 * candidate (the one whose text leads it), keeps its merged sources, and takes the rerank score as
 * its own; the passages come back in the reranker's order, with one trace line naming the new top
 * ten. Thread-safe if the reranker is.
 */
public final class PassageReranking {
  private final Reranker reranker;

  public PassageReranking(Reranker reranker) {
    this.reranker = Objects.requireNonNull(reranker, "reranker");
  }

  public Reranker reranker() {
    return reranker;
  }

  public List<Passage> rerank(String query, List<Passage> passages, Trace trace) throws IOException {
    Map<String, Passage> byLead = new LinkedHashMap<>();
    List<Candidate> leads = new ArrayList<>(passages.size());
    for (Passage p : passages) {
      byLead.put(p.primary().chunk().id(), p);
      leads.add(p.primary());
    }
    List<Candidate> reranked = reranker.rerank(query, leads);
    List<Passage> out = new ArrayList<>(reranked.size());
    for (Candidate c : reranked) {
      Passage p = byLead.get(c.chunk().id());
      List<Candidate> sources = new ArrayList<>(p.sources());
      sources.set(0, c);
      out.add(new Passage(p.id(), p.text(), p.pieces(), sources, c.score()));
    }
    trace.add(Stage.RERANK, Action.RERANK, reranker.id(), out.stream().limit(10).map(Passage::id).toList(), "", 0,
        out.size() + " passages reranked by " + reranker.id() + "; ids lists the new top 10");
    return out;
  }
}
