package dev.ctxpack.order;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Implements every {@link OrderMode}. Ties are broken by passage id so the order is deterministic.
 * Every passage is one SOURCES block, rendered whole, so positions count whole blocks: no order
 * ever splits a passage.
 *
 * <ul>
 *   <li>{@code lost-in-the-middle} places passages ranked 1, 3, 5... from the start and 2, 4, 6...
 *       from the end, so the two strongest are first and last and the weakest sit in the middle.
 *       Positions are counted in blocks, not weighed by tokens: "Lost in the Middle" (Liu et al.,
 *       2023) measured accuracy by the index of the answer's document among documents of similar
 *       length, and with compression on the blocks are cut to what answers, so a token-weighted
 *       placement would move a strong block for a length difference with no measured effect
 *       (docs/BENCHMARKS.md, "Ordering", compares both positions).
 *   <li>{@code score}: best first.
 *   <li>{@code source}: grouped by document, documents by their best passage, passages by offset.
 *   <li>{@code topic}: grouped by topic ({@link TopicGroups}: vectors when every passage has one,
 *       else content terms), groups by their best passage, passages by score within a group.
 *   <li>{@code position}: reading order. Documents undated first, then by date (ISO dates sort as
 *       text), oldest first, then by URI, then by id; passages by their first offset in the
 *       document. Oldest first reads like the corpus's history, and puts the newest version of a
 *       document nearest the question, the position models read best after the first.
 * </ul>
 */
public final class DefaultOrderer implements Orderer {
  /**
   * Average-linkage cosine of passage vectors at which two groups are one topic (all-MiniLM-L6-v2,
   * 100-token windows): chosen on the fit half of SQuAD 2.0 dev articles (docs/BENCHMARKS.md, "Ordering").
   */
  public static final double TOPIC_VECTOR_COSINE = 0.40;
  /** The same for the TF-IDF cosine of content terms, chosen on the fit halves of SQuAD 2.0 dev and FaQuAD. */
  public static final double TOPIC_TERM_COSINE = 0.03;

  static final Comparator<Passage> BY_SCORE =
      Comparator.comparingDouble((Passage p) -> -p.score()).thenComparing(Passage::id);

  private final double vectorThreshold;
  private final double termThreshold;

  /** The default topic thresholds ({@link #TOPIC_VECTOR_COSINE}, {@link #TOPIC_TERM_COSINE}). */
  public DefaultOrderer() {
    this(TOPIC_VECTOR_COSINE, TOPIC_TERM_COSINE);
  }

  /** With the topic order's thresholds: groups merge while their average similarity is at least these. */
  public DefaultOrderer(double vectorThreshold, double termThreshold) {
    if (!(vectorThreshold >= -1 && vectorThreshold <= 1)) {
      throw new IllegalArgumentException("vector threshold must be in [-1, 1], was " + vectorThreshold);
    }
    if (!(termThreshold >= 0 && termThreshold <= 1)) {
      throw new IllegalArgumentException("term threshold must be in [0, 1], was " + termThreshold);
    }
    this.vectorThreshold = vectorThreshold;
    this.termThreshold = termThreshold;
  }

  @Override
  public List<Passage> order(List<Passage> selected, OrderMode mode, Trace trace) {
    return order(selected, mode, Map.of(), trace);
  }

  @Override
  public List<Passage> order(List<Passage> selected, OrderMode mode, Map<String, float[]> vectors, Trace trace) {
    List<Passage> byScore = new ArrayList<>(selected);
    byScore.sort(BY_SCORE);
    String how = "";
    List<Passage> out;
    switch (mode) {
      case SCORE -> out = byScore;
      case LOST_IN_THE_MIDDLE -> out = lostInTheMiddle(byScore);
      case SOURCE -> out = bySource(byScore);
      case POSITION -> {
        out = byPosition(byScore);
        how = ": documents undated first, then by date, URI and id; passages by offset";
      }
      case TOPIC -> {
        TopicGroups.Grouping g = TopicGroups.group(byScore, vectors == null ? Map.of() : vectors, vectorThreshold,
            termThreshold);
        out = new ArrayList<>(byScore.size());
        StringBuilder groups = new StringBuilder();
        for (List<Integer> group : g.groups()) {
          groups.append(groups.length() == 0 ? "" : " ").append('[');
          for (int i = 0; i < group.size(); i++) {
            Passage p = byScore.get(group.get(i));
            out.add(p);
            groups.append(i == 0 ? "" : ", ").append(p.id());
          }
          groups.append(']');
        }
        double t = g.similarity() == TopicGroups.Similarity.VECTORS ? vectorThreshold : termThreshold;
        how = ": " + g.groups().size() + " group(s) " + groups + " by " + g.similarity().description()
            + String.format(Locale.ROOT, ", average linkage >= %.2f", t);
      }
      default -> throw new IllegalStateException("unknown order " + mode);
    }
    trace.add(Stage.ORDER, Action.ORDER, mode.key(), out.stream().map(Passage::id).toList(), "", 0,
        "ordered " + out.size() + " passages by " + mode.key() + how);
    return List.copyOf(out);
  }

  private static List<Passage> lostInTheMiddle(List<Passage> byScore) {
    Passage[] slots = new Passage[byScore.size()];
    int front = 0;
    int back = byScore.size() - 1;
    for (int i = 0; i < byScore.size(); i++) {
      if (i % 2 == 0) slots[front++] = byScore.get(i);
      else slots[back--] = byScore.get(i);
    }
    return List.of(slots);
  }

  private static List<Passage> bySource(List<Passage> byScore) {
    Map<String, List<Passage>> groups = new LinkedHashMap<>();
    for (Passage p : byScore) {
      groups.computeIfAbsent(p.primary().doc().id(), d -> new ArrayList<>()).add(p);
    }
    List<Passage> out = new ArrayList<>();
    for (List<Passage> g : groups.values()) {
      g.sort(Comparator.comparingInt((Passage p) -> p.primary().chunk().span().start()).thenComparing(Passage::id));
      out.addAll(g);
    }
    return out;
  }

  /** Documents in corpus order: undated first, then by date, then URI, then id. */
  static final Comparator<DocInfo> CORPUS_ORDER = Comparator
      .comparing((DocInfo d) -> !d.date().isBlank())
      .thenComparing(d -> d.date().strip())
      .thenComparing(DocInfo::uri)
      .thenComparing(DocInfo::id);

  private static List<Passage> byPosition(List<Passage> byScore) {
    List<Passage> out = new ArrayList<>(byScore);
    out.sort(Comparator.comparing((Passage p) -> p.primary().doc(), CORPUS_ORDER)
        .thenComparingInt(DefaultOrderer::offset)
        .thenComparing(Passage::id));
    return out;
  }

  /** Where a passage starts in its lead document: its first piece there (compression may cut the chunk's start), else its chunk. */
  static int offset(Passage p) {
    String doc = p.primary().doc().id();
    int best = Integer.MAX_VALUE;
    for (Passage.Piece piece : p.pieces()) {
      if (piece.docId().equals(doc)) best = Math.min(best, piece.span().start());
    }
    return best == Integer.MAX_VALUE ? p.primary().chunk().span().start() : best;
  }
}
