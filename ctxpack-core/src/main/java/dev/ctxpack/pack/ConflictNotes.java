package dev.ctxpack.pack;

import dev.ctxpack.conflict.Conflict;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.SourceConflict;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The conflicts of a package as its sources show them: by label, as the lines after the SOURCES
 * block in the template's language, and as {@code conflict} decisions.
 */
final class ConflictNotes {
  private ConflictNotes() {}

  /** The conflicts among the rendered {@code sources}, by label (pairs whose passages were both kept). */
  static List<SourceConflict> label(List<Conflict> found, List<Source> sources) {
    Map<String, Source> byPassage = new HashMap<>();
    for (Source s : sources) byPassage.put(s.passage(), s);
    List<SourceConflict> out = new ArrayList<>();
    for (Conflict f : found) {
      Source a = byPassage.get(f.first());
      Source b = byPassage.get(f.second());
      if (a == null || b == null) continue;
      out.add(new SourceConflict(f.kind(), List.of(a.label(), b.label()), List.of(f.firstDate(), f.secondDate()),
          f.values(), f.detail()));
    }
    return out;
  }

  /** One line per conflict, in the template's language, each ending with a newline; empty when none. */
  static String note(List<SourceConflict> conflicts, Language language) {
    boolean pt = language == Language.PT;
    StringBuilder sb = new StringBuilder();
    for (SourceConflict c : conflicts) {
      sb.append(pt ? "As fontes divergem: " : "Sources disagree: ")
          .append(who(c.sources().get(0), c.dates().get(0), pt)).append(" vs ")
          .append(who(c.sources().get(1), c.dates().get(1), pt)).append(' ')
          .append(switch (c.kind()) {
            case "number" -> pt ? "em um número" : "on a number";
            case "date" -> pt ? "em uma data" : "on a date";
            default -> pt ? "como versões do mesmo documento" : "as versions of the same document";
          })
          .append(".\n");
    }
    return sb.toString();
  }

  private static String who(String label, String date, boolean pt) {
    return label + " (" + (date.isBlank() ? (pt ? "sem data" : "undated") : date) + ")";
  }

  /** One trace decision per conflict: stage {@code conflict}, action {@code flag}, the two labels. */
  static void record(List<SourceConflict> conflicts, Trace trace) {
    for (SourceConflict c : conflicts) {
      String values = c.values().isEmpty() ? "" : "; values " + c.values().get(0) + " vs " + c.values().get(1);
      trace.add(Stage.CONFLICT, Action.FLAG, c.rule(), c.sources(), "", 0,
          c.sources().get(0) + " (" + c.dates().get(0) + ") vs " + c.sources().get(1) + " (" + c.dates().get(1) + "): "
              + c.reason() + values);
    }
  }
}
