package dev.ctxpack.assemble;

import java.io.IOException;
import java.util.List;

/** Ranks tools by relevance to a query. Thread-safe. */
public interface ToolRanker {
  /**
   * Every tool exactly once, most relevant first; equal scores keep the input order, so the same
   * input gives the same ranking.
   */
  List<Ranked> rank(String query, List<ToolSpec> tools) throws IOException;

  /** Names the ranker and its settings for the trace. */
  String id();

  /** A tool with its relevance score (higher is better; comparable only within one ranking). */
  record Ranked(ToolSpec tool, double score) {}

  /** Keeps the input order: for when ranking is not wanted or no ranker is configured. */
  static ToolRanker inOrder() {
    return new ToolRanker() {
      @Override
      public List<Ranked> rank(String query, List<ToolSpec> tools) {
        return tools.stream().map(t -> new Ranked(t, 0.0)).toList();
      }

      @Override
      public String id() {
        return "in-order";
      }
    };
  }
}
