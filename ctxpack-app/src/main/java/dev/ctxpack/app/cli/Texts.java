package dev.ctxpack.app.cli;

import dev.ctxpack.assemble.Assembly;
import dev.ctxpack.assemble.Component;
import dev.ctxpack.assemble.Replay;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.ingest.clean.Removal;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.pack.PlanExecutor;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The text formats for people (docs/API.md, "Text formats"): a package's plan, budget report and
 * plan run; a chunk; a compression; a dedup result; an assembled window and a replay. Compact and
 * readable; the JSON is what scripts read.
 */
final class Texts {
  /** Passage texts longer than this are cut (with {@code …}) where a text shows many passages. */
  static final int SHOWN_CHARS = 200;

  private Texts() {}

  /** A plan for people: each step's header (kind, what it sees, its tokens and output bound), then its prompt. */
  static String plan(ContextPackage p) {
    StringBuilder sb = new StringBuilder();
    for (PlanStep s : p.plan()) {
      sb.append("=== step ").append(s.step()).append(" of ").append(p.plan().size()).append(": ").append(s.kind())
          .append(" · sees ").append(String.join(", ", s.sees())).append(" · ").append(s.tokens()).append(" tokens");
      if (s.maxOutput() > 0) sb.append(" · output at most ").append(s.maxOutput());
      sb.append(" ===\n").append(s.prompt());
      if (!s.prompt().endsWith("\n")) sb.append('\n');
    }
    return sb.toString();
  }

  /** One line per step run, and the totals, for stderr. */
  static String execution(PlanExecutor.Execution e) {
    StringBuilder sb = new StringBuilder();
    for (PlanExecutor.StepRun r : e.steps()) {
      sb.append("step ").append(r.step()).append(" (").append(r.kind()).append(", ").append(r.by()).append("): ")
          .append(r.tokensIn()).append(" tokens in, ").append(r.tokensOut()).append(" out")
          .append(r.truncated() ? " (cut to its bound)" : "").append('\n');
    }
    sb.append(e.llm() == null ? "offline: the final prompt above is ready to send; " : e.llm() + ": ")
        .append(e.calls()).append(" calls, ").append(e.tokensIn()).append(" tokens in, ").append(e.tokensOut()).append(" out");
    return sb.toString();
  }

  /**
   * {@code partial: shard shard1 has no live replica: ...} when {@code trace} says the request was
   * answered without part of a distributed index, the trace line's own reason.
   */
  static java.util.Optional<String> partial(List<dev.ctxpack.model.Decision> trace) {
    return trace.stream().filter(dev.ctxpack.index.ReadCoverage::isReport).findFirst().map(d -> "partial: " + d.reason());
  }

  /** The budget report as text lines for people. */
  static String budget(ContextPackage p) {
    StringBuilder sb = new StringBuilder();
    sb.append("budget: ").append(p.budget().used()).append(" of ").append(p.budget().limit()).append(" tokens used, ")
        .append(p.budget().left()).append(" left");
    if (p.budget().reserve() > 0) sb.append(", ").append(p.budget().reserve()).append(" reserved for generation");
    sb.append('\n');
    p.budget().byComponent().forEach((k, v) -> sb.append("  ").append(String.format("%-13s", k)).append(v).append('\n'));
    if (p.plan().size() > 1) {
      sb.append("plan: ").append(p.strategy()).append(", ").append(p.plan().size()).append(" calls (used: the largest call)\n");
    }
    if (p.fallback() != null) sb.append("fallback: ").append(p.fallback().reason()).append('\n');
    partial(p.trace()).ifPresent(line -> sb.append(line).append('\n'));
    if (p.evidence().insufficient()) {
      sb.append("evidence: insufficient (nothing clears the relevance line ")
          .append(String.format(java.util.Locale.ROOT, "%.2f", p.evidence().line())).append("; ").append(p.evidence().action())
          .append(")\n");
      for (ContextPackage.Closest c : p.evidence().closest()) {
        sb.append("  closest ").append(String.format(java.util.Locale.ROOT, "%.4f", c.score())).append(' ').append(c.docId())
            .append(" [").append(c.start()).append(", ").append(c.end()).append(") ").append(oneLine(c.text())).append('\n');
      }
    }
    sb.append("sources: ").append(p.sources().size());
    long drops = p.trace().stream().filter(d -> d.action() == Action.DROP).count();
    sb.append(", decisions: ").append(p.trace().size()).append(" (").append(drops).append(" drops)");
    return sb.toString();
  }

  /** One chunk: a header (id, offsets, tokens, section, page), its text indented, a blank line. */
  static String chunk(Chunk c) {
    StringBuilder sb = new StringBuilder();
    sb.append("chunk ").append(c.id()).append(" · ").append(c.span().start()).append('-').append(c.span().end())
        .append(" · ").append(c.tokens()).append(" tokens");
    if (!c.section().isEmpty()) sb.append(" · section ").append(c.section());
    if (c.page() > 0) sb.append(" · page ").append(c.page());
    sb.append('\n');
    indent(sb, c.text(), "  ");
    return sb.append('\n').toString();
  }

  /** What cleaning removed from a document: one line. */
  static String removal(String docId, Removal r) {
    return "removed from " + docId + " · " + r.start() + "-" + r.end() + " · " + r.reason().label() + ": " + oneLine(r.text());
  }

  /** A compression: the totals, each passage with its kept text and tokens, then each dropped sentence with its reason. */
  static String compression(Compression c, String scorer, List<CompressInput> in) {
    Map<String, CompressInput> inputs = in.stream().collect(Collectors.toMap(CompressInput::id, Function.identity()));
    StringBuilder sb = new StringBuilder();
    sb.append("compressed ").append(c.tokensIn()).append(" tokens to ").append(c.tokensOut()).append(" (scorer ")
        .append(scorer).append(")\n");
    for (Compression.Compressed p : c.passages()) {
      sb.append(p.id()).append(" · ").append(p.tokens()).append(" tokens");
      sb.append(p.text().isEmpty() ? " · nothing kept\n" : ": " + oneLine(p.text()) + "\n");
    }
    if (!c.dropped().isEmpty()) sb.append("dropped:\n");
    for (Compression.Dropped d : c.dropped()) {
      sb.append("  ").append(d.id()).append(' ').append(d.span().start()).append('-').append(d.span().end()).append(' ')
          .append(d.reason().key());
      if (Double.isFinite(d.score())) sb.append(String.format(Locale.ROOT, " (%.2f)", d.score()));
      CompressInput input = inputs.get(d.id());
      if (input != null && d.span().part() < input.parts().size()) {
        String text = input.parts().get(d.span().part()).text();
        if (d.span().end() <= text.length()) sb.append(": ").append(oneLine(text.substring(d.span().start(), d.span().end())));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /** A dedup result: the counts, each output passage with the ids it stands for, then one line per decision. */
  static String dedup(int in, List<Passage> out, List<Decision> decisions) {
    StringBuilder sb = new StringBuilder();
    sb.append(count(in, "passage")).append(" in, ").append(out.size()).append(" out, ").append(count(decisions.size(), "decision"))
        .append('\n');
    for (Passage p : out) {
      List<String> ids = p.sources().stream().map(c -> c.chunk().id()).toList();
      sb.append(p.id()).append(" · from ").append(String.join(", ", ids)).append('\n');
      sb.append("  ").append(shown(p.text())).append('\n');
    }
    if (!decisions.isEmpty()) sb.append("decisions:\n");
    for (Decision d : decisions) {
      sb.append("  ").append(d.level()).append(' ').append(d.action().key()).append(' ')
          .append(d.ids().isEmpty() ? "" : d.ids().get(0));
      if (!d.into().isEmpty()) sb.append(" -> ").append(d.into());
      if (d.hasSimilarity()) sb.append(String.format(Locale.ROOT, " (%.2f)", d.similarity()));
      if (d.tokensSaved() > 0) sb.append(", ").append(d.tokensSaved()).append(" tokens saved");
      sb.append(" [").append(d.rule()).append("]: ").append(oneLine(d.reason())).append('\n');
    }
    return sb.toString();
  }

  /** An assembled window: the budget by component, the waste flags, how the history was fitted, then the messages by role. */
  static String assembly(String model, Assembly a) {
    Assembly.WindowBudget b = a.budget();
    StringBuilder sb = new StringBuilder();
    sb.append(model).append(": ").append(b.used()).append(" of ").append(b.limit()).append(" tokens used, ")
        .append(b.limit() - b.used()).append(" left (window ").append(b.window()).append(", reserve ").append(b.reserve())
        .append(")\n");
    for (Component c : Component.values()) sb.append("  ").append(String.format("%-13s", c.key())).append(b.get(c)).append('\n');
    partial(a.trace()).ifPresent(line -> sb.append(line).append('\n'));
    for (Assembly.WasteFlag f : a.waste()) {
      sb.append(String.format(Locale.ROOT, "waste: %s takes %d tokens, %.1f%% of the window; %s%n", f.component().key(),
          f.tokens(), 100 * f.share(), f.shrink()));
    }
    Assembly.HistoryReport h = a.history();
    sb.append("history: ").append(h.given()).append(" turns given, ").append(h.sent()).append(" sent (").append(h.dropped())
        .append(" dropped, ").append(h.summarised()).append(" summarised, ").append(h.pruned()).append(" tool results pruned; ")
        .append(h.compactor()).append(")\n");
    if (!a.tools().isEmpty()) sb.append("tools: ").append(a.tools().stream().map(ToolSpec::name).collect(Collectors.joining(", "))).append('\n');
    a.evidence().ifPresent(p -> sb.append("evidence: ").append(count(p.sources().size(), "source")).append('\n'));
    sb.append("trace: ").append(count(a.trace().size(), "decision")).append('\n');
    for (Assembly.Message m : a.messages()) {
      Turn t = m.turn();
      sb.append("\n--- ").append(t.role());
      if (!t.name().isEmpty()) sb.append(' ').append(t.name());
      sb.append(" (").append(m.component().key()).append(')');
      if (!t.toolCallId().isEmpty()) sb.append(" answers ").append(t.toolCallId());
      sb.append('\n');
      if (!t.content().isEmpty()) indent(sb, t.content(), "");
      if (!t.toolCallsJson().isEmpty()) sb.append("calls: ").append(t.toolCallsJson()).append('\n');
    }
    return sb.toString();
  }

  /** A replay: the window, where the history was first cut, then one line per user turn. */
  static String replay(Replay.Result r) {
    StringBuilder sb = new StringBuilder();
    sb.append("window ").append(r.window()).append(", reserve ").append(r.reserve()).append(", limit ").append(r.limit())
        .append("; ").append(r.compressionStartsAt() > 0 ? "history first cut at turn " + r.compressionStartsAt()
            : "history sent whole at every turn").append('\n');
    for (Replay.Step s : r.steps()) {
      sb.append("turn ").append(s.turn()).append(" (message ").append(s.index()).append("): ").append(s.budget().used())
          .append(" used ·");
      for (Component c : Component.values()) sb.append(' ').append(c.key()).append(' ').append(s.budget().get(c));
      sb.append(" · history ").append(s.history().sent()).append(" of ").append(s.history().given()).append(" sent");
      if (s.history().compacted()) {
        sb.append(" (").append(s.history().dropped()).append(" dropped, ").append(s.history().summarised())
            .append(" summarised, ").append(s.history().pruned()).append(" pruned)");
      }
      sb.append(" · ").append(s.tools()).append(" tools · ").append(s.evidence() ? "evidence" : "no evidence").append('\n');
    }
    return sb.toString();
  }

  /** {@code text} on one line, cut to {@link #SHOWN_CHARS} characters. */
  static String shown(String text) {
    String t = oneLine(text);
    return t.length() > SHOWN_CHARS ? t.substring(0, SHOWN_CHARS) + "…" : t;
  }

  private static String oneLine(String text) {
    return text.strip().replaceAll("\\s+", " ");
  }

  private static void indent(StringBuilder sb, String text, String prefix) {
    for (String line : text.split("\n", -1)) sb.append(line.isEmpty() ? "" : prefix).append(line).append('\n');
  }

  /** {@code n} and the noun, plural unless {@code n} is 1: "1 decision", "2 decisions". */
  static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
