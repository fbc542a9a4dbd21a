package dev.ctxpack.pack;

import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.DropReason;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The relevance line of {@code pack} ({@link PackOptions.Relevance}): what is said when no evidence
 * clears it. The line itself is applied by compression (sentences below it are dropped as {@code
 * below-relevance}); this class names the candidates that came closest, writes the note that tells
 * the model to abstain, and records the judgement in the trace.
 */
final class RelevanceLine {
  /** How many of the closest sentences an insufficient package lists. */
  static final int CLOSEST = 3;

  /** Reasons that say a sentence was judged on its relevance (not noise or a repeat). */
  private static final Set<DropReason> JUDGED = EnumSet.of(DropReason.BELOW_RELEVANCE, DropReason.OFF_TOPIC, DropReason.BUDGET);

  private RelevanceLine() {}

  /** The {@value #CLOSEST} best-scored sentences compression judged and dropped, best first. */
  static List<ContextPackage.Closest> closest(Compression c, Map<String, Passage> byId) {
    List<ContextPackage.Closest> all = new ArrayList<>();
    for (Compression.Dropped d : c.dropped()) {
      if (!JUDGED.contains(d.reason()) || !Double.isFinite(d.score())) continue;
      Passage p = byId.get(d.id());
      Passage.Piece piece = p.pieces().get(d.span().part());
      int start = piece.span().start() + d.span().start();
      int end = piece.span().start() + d.span().end();
      all.add(new ContextPackage.Closest(d.id(), piece.docId(), start, end, d.score(),
          piece.text().substring(d.span().start(), d.span().end()).strip()));
    }
    all.sort(Comparator.comparingDouble(ContextPackage.Closest::score).reversed()
        .thenComparing(ContextPackage.Closest::docId).thenComparingInt(ContextPackage.Closest::start));
    return List.copyOf(all.subList(0, Math.min(CLOSEST, all.size())));
  }

  /**
   * The note put where the SOURCES would be when none is sent: the model is to give the template's
   * abstention phrase and say what information would answer the question.
   */
  static String note(Language language, String abstention) {
    if (language == Language.PT) {
      return "(Nenhuma fonte encontrada para esta pergunta tem relevância suficiente para ser enviada. Responda exatamente: \""
          + abstention + "\" e diga que informação responderia à pergunta e onde ela poderia ser encontrada.)\n";
    }
    return "(No source found for this question is relevant enough to send. Reply exactly: \"" + abstention
        + "\" and say what information would answer the question and where it could be found.)\n";
  }

  /**
   * Records that the request's best sentence fell under {@code line} (but not under its {@link
   * PackOptions.Relevance#COVERED_SHARE}) and the coverage of the query by that sentence's passage
   * was read: the gate opened ({@code relevance:covered}, a keep) or stayed shut ({@code
   * relevance:uncovered}, a skip; the insufficient verdict follows).
   */
  static void covered(Trace trace, Compression.Coverage c, double line, double min) {
    boolean open = c.share() >= min;
    String why = String.format(Locale.ROOT, "the best candidate sentence is under the relevance line %.2f but at least %.3f,"
        + " and its passage covers %.2f of the query's weighted terms (%s %.2f): %s", line,
        PackOptions.Relevance.COVERED_SHARE * line, c.share(), open ? "at least" : "under", min,
        open ? "its evidence is sent" : "the line decides");
    trace.add(Stage.COMPRESS, open ? Action.KEEP : Action.SKIP, open ? "relevance:covered" : "relevance:uncovered",
        List.of(c.id()), "", 0, why);
  }

  /** Records that nothing cleared {@code line}, what the request does about it, and the closest candidates. */
  static void record(Trace trace, double line, OnInsufficient action, List<ContextPackage.Closest> closest, int candidates) {
    String best = closest.isEmpty() ? "no candidate sentence"
        : "the best candidate sentence scored " + String.format(Locale.ROOT, "%.4f", closest.get(0).score());
    String then = switch (action) {
      case ABSTAIN -> "no source is sent and the prompt asks the model to abstain";
      case BEST_EFFORT -> "the best evidence is sent anyway (best-effort), filling the budget as without a line";
      case FAIL -> "the request fails";
    };
    trace.add(Stage.PACK, Action.SKIP, "relevance:insufficient", closest.stream().map(ContextPackage.Closest::passage).distinct()
        .toList(), action.key(), 0, "no sentence of the " + candidates + " selected passages clears the relevance line "
        + String.format(Locale.ROOT, "%.2f", line) + " (" + best + "): " + then);
  }
}
