package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.index.ReadCoverage;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.GuardReport;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Source;
import java.util.List;
import java.util.Map;

/**
 * The JSON shapes of docs/API.md that more than one command or route writes: an ingest summary, a
 * chunk, search results, a package (sources, budget, plan, trace, conflicts), a plan run, a
 * decision, a batch error line.
 */
public final class Views {
  private Views() {}

  public static ObjectNode ingest(IngestSummary s) {
    ObjectNode o = Json.object();
    o.put("added", s.added());
    o.put("updated", s.updated());
    o.put("unchanged", s.unchanged());
    o.put("duplicates", s.duplicates());
    o.put("removed", s.removed());
    ArrayNode failed = o.putArray("failed");
    for (IngestSummary.Failure f : s.failed()) failed.addObject().put("path", f.path()).put("error", f.error());
    o.put("chunks", s.chunks());
    o.put("seconds", Math.round(s.seconds() * 1000) / 1000.0);
    o.put("replacedChars", s.replacedChars());
    ObjectNode cleaned = o.putObject("cleaned");
    s.cleaned().forEach(cleaned::put);
    ArrayNode dups = o.putArray("duplicatesOf");
    for (IngestSummary.DuplicateOf d : s.duplicatesOf()) {
      ObjectNode x = dups.addObject().put("path", d.path()).put("docId", d.docId()).put(d.near() ? "nearDuplicateOf" : "duplicateOf", d.of());
      if (d.near()) x.put("similarity", Math.round(d.similarity() * 1000) / 1000.0);
    }
    o.put("boilerplateChunks", s.boilerplateChunks());
    ObjectNode without = o.putObject("withoutVectors");
    s.withoutVectors().forEach(without::put);
    if (s.badLineCount() > 0) {
      // Only when --skip-bad-lines skipped a line, so the summary of every other ingestion is as it was.
      o.put("badLineCount", s.badLineCount());
      ArrayNode bad = o.putArray("badLines");
      for (IngestSummary.BadLine b : s.badLines()) bad.addObject().put("path", b.path()).put("line", b.line()).put("error", b.error());
    }
    return o;
  }

  public static ObjectNode chunk(Chunk c) {
    ObjectNode o = Json.object();
    o.put("docId", c.docId());
    o.put("chunkId", c.id());
    o.put("start", c.span().start());
    o.put("end", c.span().end());
    o.put("tokens", c.tokens());
    o.put("section", c.section());
    o.put("page", c.page());
    o.put("text", c.text());
    return o;
  }

  public static ObjectNode searchResults(String id, List<Candidate> results, List<Decision> trace) {
    ObjectNode o = Json.object();
    if (id != null) o.put("id", id);
    coverage(o, trace);
    ArrayNode arr = o.putArray("results");
    for (int i = 0; i < results.size(); i++) {
      Candidate c = results.get(i);
      ObjectNode r = arr.addObject();
      r.put("rank", i + 1);
      r.put("docId", c.doc().id());
      r.put("chunkId", c.chunk().id());
      r.put("score", round(c.score()));
      ObjectNode sc = r.putObject("scores");
      for (Map.Entry<Signal, Double> e : c.scores().asMap().entrySet()) sc.put(e.getKey().key(), round(e.getValue()));
      r.put("title", c.doc().title());
      r.put("text", c.chunk().text());
      r.put("start", c.chunk().span().start());
      r.put("end", c.chunk().span().end());
    }
    return o;
  }

  public static ObjectNode pack(String id, ContextPackage p) {
    ObjectNode o = Json.object();
    if (id != null) o.put("id", id);
    o.put("query", p.query());
    o.put("prompt", p.prompt());
    ArrayNode sources = o.putArray("sources");
    for (Source s : p.sources()) {
      ObjectNode so = sources.addObject();
      so.put("id", s.label());
      so.put("docId", s.docId());
      so.put("title", s.title());
      so.put("uri", s.uri());
      so.put("section", s.section());
      so.put("page", s.page());
      so.put("date", s.date());
      ArrayNode spans = so.putArray("spans");
      for (Source.DocSpan sp : s.spans()) {
        ObjectNode spo = spans.addObject().put("docId", sp.docId()).put("start", sp.start()).put("end", sp.end());
        if (!sp.chunkId().isEmpty()) spo.put("chunkId", sp.chunkId());
      }
      so.put("text", s.text());
      // For audit (the inspector): the passage id the trace names, the kept pieces, the cut sentences.
      if (!s.passage().isEmpty()) so.put("passage", s.passage());
      ArrayNode pieces = so.putArray("pieces");
      for (Passage.Piece pc : s.pieces()) pieces.addObject().put("docId", pc.docId()).put("start", pc.span().start()).put("end", pc.span().end());
      ArrayNode dropped = so.putArray("dropped");
      for (Source.Dropped d : s.dropped()) {
        dropped.addObject().put("docId", d.docId()).put("start", d.start()).put("end", d.end()).put("text", d.text())
            .put("reason", d.reason()).put("score", Double.isFinite(d.score()) ? round(d.score()) : 0.0);
      }
      if (!s.redactions().isEmpty()) { // PII redaction: where each placeholder's value lies, never the value
        ArrayNode red = so.putArray("redactions");
        for (Source.Redaction r : s.redactions()) {
          red.addObject().put("type", r.type()).put("placeholder", r.placeholder()).put("docId", r.docId())
              .put("start", r.start()).put("end", r.end());
        }
      }
      if (s.guard() != GuardReport.NONE) so.set("guard", guard(s.guard()));
    }
    ObjectNode b = o.putObject("budget");
    b.put("limit", p.budget().limit());
    b.put("used", p.budget().used());
    b.put("reserve", p.budget().reserve());
    b.put("left", p.budget().left());
    ObjectNode by = b.putObject("byComponent");
    p.budget().byComponent().forEach(by::put);
    ArrayNode plan = o.putArray("plan");
    for (PlanStep s : p.plan()) {
      ObjectNode so = plan.addObject();
      so.put("step", s.step());
      so.put("kind", s.kind());
      ArrayNode sees = so.putArray("sees");
      s.sees().forEach(sees::add);
      so.put("prompt", s.prompt());
      so.put("tokens", s.tokens());
      so.put("maxTokens", s.maxOutput());
    }
    o.put("strategy", p.strategy());
    if (p.fallback() != null) {
      o.putObject("fallback").put("from", p.fallback().from()).put("to", p.fallback().to())
          .put("relevantTokens", p.fallback().relevantTokens()).put("limit", p.fallback().limit())
          .put("reason", p.fallback().reason());
    }
    o.set("evidence", evidence(p.evidence()));
    coverage(o, p.trace());
    ArrayNode trace = o.putArray("trace");
    for (Decision d : p.trace()) trace.add(decision(d));
    ArrayNode conflicts = o.putArray("conflicts"); // sources that disagree, newer first when dated
    for (dev.ctxpack.model.SourceConflict c : p.conflicts()) {
      ObjectNode co = conflicts.addObject().put("kind", c.kind());
      c.sources().forEach(co.putArray("sources")::add);
      c.dates().forEach(co.putArray("dates")::add);
      c.values().forEach(co.putArray("values")::add);
      co.put("reason", c.reason());
    }
    return o;
  }

  /**
   * {@code "partial": true} and {@code "missingShards"} when {@code trace} says the request was
   * answered without part of a distributed index ({@link ReadCoverage}); nothing when it read it whole.
   */
  public static void coverage(ObjectNode o, List<Decision> trace) {
    List<String> missing = ReadCoverage.missingShards(trace);
    if (missing.isEmpty()) return;
    o.put("partial", true);
    missing.forEach(o.putArray("missingShards")::add);
  }

  /**
   * The relevance judgement: {@code {"status": "sufficient" | "insufficient" | "unchecked", "line",
   * "action", "closest": [{"passage", "docId", "start", "end", "score", "text"}]}}.
   */
  public static ObjectNode evidence(ContextPackage.Evidence e) {
    ObjectNode o = Json.object().put("status", e.status()).put("line", round(e.line()));
    if (!e.action().isEmpty()) o.put("action", e.action());
    ArrayNode closest = o.putArray("closest");
    for (ContextPackage.Closest c : e.closest()) {
      closest.addObject().put("passage", c.passage()).put("docId", c.docId()).put("start", c.start()).put("end", c.end())
          .put("score", round(c.score())).put("text", c.text());
    }
    return o;
  }

  /** A plan run: each step's output and counts, the final prompt, the answer (null offline). */
  public static ObjectNode execution(dev.ctxpack.pack.PlanExecutor.Execution e) {
    ObjectNode o = Json.object();
    if (e.llm() != null) o.put("llm", e.llm());
    else o.putNull("llm");
    ArrayNode steps = o.putArray("steps");
    for (dev.ctxpack.pack.PlanExecutor.StepRun r : e.steps()) {
      steps.addObject().put("step", r.step()).put("kind", r.kind()).put("by", r.by()).put("output", r.output())
          .put("tokensIn", r.tokensIn()).put("tokensOut", r.tokensOut()).put("truncated", r.truncated());
    }
    o.put("calls", e.calls());
    o.put("tokensIn", e.tokensIn());
    o.put("tokensOut", e.tokensOut());
    o.put("finalPrompt", e.finalPrompt());
    if (e.answer() != null) o.put("answer", e.answer());
    else o.putNull("answer");
    return o;
  }

  /** What the injection guard did to one source: counts by kind, flagged rules with their spans, the edits. */
  public static ObjectNode guard(GuardReport g) {
    ObjectNode o = Json.object();
    o.put("policy", g.policy());
    ObjectNode stripped = o.putObject("stripped");
    new java.util.TreeMap<>(g.stripped()).forEach(stripped::put);
    ObjectNode escaped = o.putObject("escaped");
    new java.util.TreeMap<>(g.escaped()).forEach(escaped::put);
    ArrayNode rules = o.putArray("rules");
    g.rules().forEach(rules::add);
    ArrayNode flags = o.putArray("flags");
    for (GuardReport.Flag f : g.flags()) {
      ObjectNode fo = flags.addObject().put("rule", f.rule()).put("family", f.family()).put("start", f.start()).put("end", f.end())
          .put("text", f.text());
      if (!f.docId().isEmpty()) fo.put("docId", f.docId()).put("docStart", f.docStart()).put("docEnd", f.docEnd());
    }
    ArrayNode edits = o.putArray("edits");
    for (GuardReport.Edit e : g.edits()) {
      edits.addObject().put("start", e.start()).put("end", e.end()).put("kind", e.kind()).put("replacement", e.replacement());
    }
    o.put("datamarked", g.datamarked());
    return o;
  }

  public static ObjectNode decision(Decision d) {
    ObjectNode o = Json.object();
    o.put("stage", d.stage().key());
    o.put("action", d.action().key());
    o.put("rule", d.rule());
    ArrayNode ids = o.putArray("ids");
    d.ids().forEach(ids::add);
    o.put("into", d.into());
    o.put("tokensSaved", d.tokensSaved());
    if (d.hasSimilarity()) o.put("similarity", round(d.similarity()));
    o.put("reason", d.reason());
    return o;
  }

  public static ObjectNode error(int line, String message) {
    ObjectNode o = Json.object();
    o.put("line", line);
    o.put("error", message);
    return o;
  }

  public static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
