package dev.ctxpack.bench.pipeline;

import java.io.IOException;
import java.util.List;

/** One retrieval method under evaluation: a query in, document ids out, best first. */
public interface Ranker {

  /** The row label in reports, e.g. {@code ctxpack hybrid}. */
  String name();

  /**
   * Ranks documents for {@code query}, fetching {@code depth} candidates per signal; the result may
   * hold fewer than {@code depth} documents (several chunks of one document collapse into one).
   */
  List<String> rank(String query, int depth) throws IOException;

  /** The ranking function of a {@link Ranker}. */
  @FunctionalInterface
  interface RankFunction {
    List<String> rank(String query, int depth) throws IOException;
  }

  /** A ranker labelled {@code name} that ranks with {@code fn}. */
  static Ranker of(String name, RankFunction fn) {
    return new Ranker() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public List<String> rank(String query, int depth) throws IOException {
        return fn.rank(query, depth);
      }
    };
  }
}
