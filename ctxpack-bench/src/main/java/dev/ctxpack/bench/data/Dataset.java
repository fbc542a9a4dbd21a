package dev.ctxpack.bench.data;

import dev.ctxpack.eval.Judgments;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An evaluation data set in memory: the corpus in file order, the queries in file order (id to
 * text) and the judgments per query id.
 */
public record Dataset(String name, List<CorpusDoc> corpus, Map<String, String> queries, Map<String, Judgments> qrels) {
  public Dataset {
    corpus = List.copyOf(corpus);
    queries = Collections.unmodifiableMap(new LinkedHashMap<>(queries));
    qrels = Collections.unmodifiableMap(new TreeMap<>(qrels));
  }

  /** The queries that have at least one relevant judgment, in file order: the ones evaluated. */
  public Map<String, String> judgedQueries() {
    Map<String, String> out = new LinkedHashMap<>();
    queries.forEach((id, text) -> {
      Judgments j = qrels.get(id);
      if (j != null && j.hasRelevant()) out.put(id, text);
    });
    return out;
  }

  /** Documents with something to index; empty records (Cranfield has two) are left out. */
  public List<CorpusDoc> indexableCorpus() {
    return corpus.stream().filter(d -> !d.isEmpty()).toList();
  }
}
