package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.Index;
import dev.ctxpack.ingest.CorpusReport;
import dev.ctxpack.similarity.Boilerplate;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "corpus-report", mixinStandardHelpOptions = true,
    description = "List what the indexed corpus holds twice: exact duplicate files (not indexed), near-duplicate"
        + " clusters, old and new versions of one document, and boilerplate chunk texts recurring across documents,"
        + " so the corpus can be fixed at the source.")
final class CorpusReportCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin CommonOptions common = new CommonOptions();

  @Option(names = "--min-docs", paramLabel = "N", defaultValue = "" + Boilerplate.DEFAULT_MIN_DOCUMENTS,
      description = "A chunk text held by at least N documents is boilerplate. Default: ${DEFAULT-VALUE}.")
  int minDocs;

  @Option(names = "--max-text", paramLabel = "CHARS", defaultValue = "160",
      description = "Text output: show at most CHARS characters of each boilerplate text (JSON has it whole). Default: ${DEFAULT-VALUE}.")
  int maxText;

  @Override
  public Integer call() throws Exception {
    if (minDocs < 2) throw new UsageException("--min-docs must be >= 2, was " + minDocs);
    if (maxText < 1) throw new UsageException("--max-text must be >= 1, was " + maxText);
    CorpusReport r;
    try (Index index = Components.openExisting(common.indexSpec())) {
      r = CorpusReport.of(index, minDocs);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (common.json()) out.println(Json.line(json(r)));
    else text(r, out);
    return ExitCodes.OK;
  }

  static ObjectNode json(CorpusReport r) {
    ObjectNode o = Json.object();
    o.put("documents", r.documents());
    ArrayNode exact = o.putArray("exact");
    for (CorpusReport.ExactCluster c : r.exact()) {
      ObjectNode x = exact.addObject();
      doc(x.putObject("original"), c.original());
      ArrayNode copies = x.putArray("copies");
      c.copies().forEach(copies::add);
    }
    ArrayNode near = o.putArray("near");
    for (CorpusReport.NearCluster c : r.near()) {
      ObjectNode x = near.addObject();
      doc(x.putObject("original"), c.original());
      ArrayNode members = x.putArray("members");
      for (CorpusReport.Member m : c.members()) {
        ObjectNode y = members.addObject();
        doc(y, m.doc());
        y.put("nearDuplicateOf", m.of()).put("similarity", round(m.similarity()));
      }
    }
    ArrayNode versions = o.putArray("versions");
    for (CorpusReport.Version v : r.versions()) {
      ObjectNode x = versions.addObject();
      doc(x.putObject("newer"), v.newer());
      doc(x.putObject("older"), v.older());
      x.put("shared", v.shared()).put("by", v.by()).put("similarity", round(v.similarity()));
    }
    ArrayNode boiler = o.putArray("boilerplate");
    for (Index.Recurring b : r.boilerplate()) {
      ObjectNode x = boiler.addObject().put("key", b.key()).put("documents", b.docIds().size()).put("text", b.text());
      ArrayNode ids = x.putArray("docIds");
      b.docIds().forEach(ids::add);
    }
    o.put("minDocs", r.minDocuments());
    return o;
  }

  private void text(CorpusReport r, PrintWriter out) {
    out.printf("%d documents: %d exact duplicate cluster(s), %d near-duplicate cluster(s), %d old version(s),"
        + " %d boilerplate text(s) (>= %d documents)%n", r.documents(), r.exact().size(), r.near().size(),
        r.versions().size(), r.boilerplate().size(), r.minDocuments());
    if (!r.exact().isEmpty()) out.println("\nExact duplicates (copies not indexed):");
    for (CorpusReport.ExactCluster c : r.exact()) {
      out.println("  " + name(c.original()));
      for (String p : c.copies()) out.println("    = " + p);
    }
    if (!r.near().isEmpty()) out.println("\nNear duplicates (indexed, marked; packing prefers the original):");
    for (CorpusReport.NearCluster c : r.near()) {
      out.println("  " + name(c.original()));
      for (CorpusReport.Member m : c.members()) {
        out.printf(java.util.Locale.ROOT, "    ~ %s  (%.2f of %s)%n", name(m.doc()), m.similarity(), m.of());
      }
    }
    if (!r.versions().isEmpty()) out.println("\nOld versions (same " + "title or file name stem):");
    for (CorpusReport.Version v : r.versions()) {
      out.printf(java.util.Locale.ROOT, "  newer %s%n  older %s%n    (shared %s, newer by %s, similarity %.2f)%n",
          name(v.newer()), name(v.older()), v.shared(), v.by(), v.similarity());
    }
    if (!r.boilerplate().isEmpty()) out.println("\nBoilerplate (down-weighted in retrieval):");
    for (Index.Recurring b : r.boilerplate()) {
      String t = b.text().replaceAll("\\s+", " ").strip();
      if (t.length() > maxText) t = t.substring(0, maxText) + "…";
      out.printf("  %d documents: \"%s\"%n", b.docIds().size(), t);
    }
  }

  private static String name(CorpusReport.Doc d) {
    String where = !d.path().isEmpty() ? d.path() : d.uri();
    return d.id() + (where.isEmpty() ? "" : "  " + where) + (d.title().isEmpty() ? "" : "  \"" + d.title() + "\"");
  }

  private static void doc(ObjectNode o, CorpusReport.Doc d) {
    o.put("id", d.id()).put("path", d.path()).put("uri", d.uri()).put("title", d.title());
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
