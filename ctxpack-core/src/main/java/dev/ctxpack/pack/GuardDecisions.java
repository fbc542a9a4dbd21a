package dev.ctxpack.pack;

import dev.ctxpack.guard.InjectionDetector;
import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.GuardReport;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/** The injection guard's part of a request: quarantine before selection, and a trace line per source for what it did. */
final class GuardDecisions {
  private GuardDecisions() {}

  /** Drops every passage with an instruction-like span, each recorded with its rules and where they matched. */
  static List<Passage> quarantine(InjectionGuard guard, List<Passage> passages, Tokenizer tok, Trace trace) {
    List<Passage> out = new ArrayList<>(passages.size());
    for (Passage p : passages) {
      List<InjectionDetector.Hit> hits = guard.detector().detect(p.text());
      if (hits.isEmpty()) {
        out.add(p);
        continue;
      }
      GuardReport g = guard.inspect(p.text(), p.pieces(), InjectionPolicy.FLAG);
      trace.add(Stage.GUARD, Action.QUARANTINE, g.rules().get(0), List.of(p.id()), "", tok.count(p.text()),
          "instruction-like text (" + String.join(", ", g.rules()) + "): " + where(g.flags()));
    }
    return out;
  }

  /** One decision per source for what the guard stripped, escaped and flagged. */
  static void record(List<Source> sources, Trace trace) {
    for (Source s : sources) {
      GuardReport g = s.guard();
      List<String> ids = List.of(s.label(), s.passage());
      if (g.strippedTotal() > 0) {
        trace.add(Stage.GUARD, Action.STRIP, "invisible", ids, "", 0, "stripped invisible characters " + g.stripped());
      }
      if (g.escapedTotal() > 0) trace.add(Stage.GUARD, Action.ESCAPE, "look-alike", ids, "", 0, "escaped " + g.escaped());
      for (String rule : g.rules()) {
        trace.add(Stage.GUARD, Action.FLAG, rule, ids, "", 0,
            where(g.flags().stream().filter(f -> f.rule().equals(rule)).toList()) + "; kept with a warning (policy " + g.policy() + ")");
      }
    }
  }

  private static String where(List<GuardReport.Flag> flags) {
    StringBuilder sb = new StringBuilder();
    for (GuardReport.Flag f : flags) {
      if (sb.length() > 0) sb.append("; ");
      String t = f.text().length() > 60 ? f.text().substring(0, 60) + "…" : f.text();
      sb.append(f.docId().isEmpty() ? "text" : f.docId()).append(" [").append(f.docId().isEmpty() ? f.start() : f.docStart())
          .append(", ").append(f.docId().isEmpty() ? f.end() : f.docEnd()).append(") \"").append(t).append('"');
    }
    return sb.toString();
  }
}
