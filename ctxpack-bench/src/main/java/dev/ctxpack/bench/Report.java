package dev.ctxpack.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.pipeline.IngestResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a run as Markdown (for people and docs/BENCHMARKS.md) and JSON (for machines). */
final class Report {
  static final List<String> COLUMNS = List.of("nDCG@10", "Recall@10", "Recall@100", "MRR@10");

  private Report() {}

  static String markdown(String command, Map<String, String> env, Map<String, Object> settings, List<DatasetResult> results) {
    StringBuilder sb = new StringBuilder();
    sb.append("# ctxpack evaluation\n\n");
    sb.append("Command: `").append(command).append("`\n\n");
    sb.append("Machine: ").append(env.get("cores")).append(" cores (").append(env.get("cpu")).append("), ")
        .append(env.get("os")).append("; JDK ").append(env.get("java.version")).append(" (")
        .append(env.get("java.vendor")).append(", ").append(env.get("java.vm.name")).append("), max heap ")
        .append(env.get("maxHeapMB")).append(" MB; load average at start ").append(env.get("loadAverageAtStart"))
        .append("; ").append(env.get("date")).append("\n\n");
    sb.append("Settings: ");
    settings.forEach((k, v) -> sb.append(k).append("=").append(v).append("; "));
    sb.setLength(sb.length() - 2);
    sb.append("\n");
    for (DatasetResult r : results) {
      sb.append("\n## ").append(r.dataset()).append("\n\n");
      sb.append(String.format(Locale.ROOT, "%,d documents (%,d indexed, %,d chunks); %d queries, %d evaluated",
          r.corpusDocs(), r.indexedDocs(), r.chunks(), r.queriesInFile(), r.evaluated()));
      if (!r.excluded().isEmpty()) sb.append(", ").append(r.excluded().size()).append(" without relevant judgments excluded");
      sb.append(".\n\n");
      sb.append("| method |");
      for (String c : COLUMNS) sb.append(' ').append(c).append(" |");
      sb.append(" p50 ms | p99 ms |\n|---|");
      for (int i = 0; i < COLUMNS.size() + 2; i++) sb.append("---:|");
      sb.append('\n');
      for (MethodResult m : r.methods()) {
        sb.append("| ").append(m.name()).append(" |");
        for (String c : COLUMNS) {
          Double v = m.metrics().get(c);
          sb.append(' ').append(v == null ? "n/a" : String.format(Locale.ROOT, "%.3f", v)).append(" |");
        }
        sb.append(String.format(Locale.ROOT, " %.1f | %.1f |%n", m.p50Ms(), m.p99Ms()));
      }
      sb.append("\n| ingest | documents | chunks | input MB | seconds | MB/s | docs/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
      for (IngestResult i : r.ingest()) {
        sb.append(String.format(Locale.ROOT, "| %s %s | %,d | %,d | %.2f | %.1f%s | %.3f | %.1f |%n", i.pipeline(), i.variant(),
            i.documents(), i.chunks(), i.inputBytes() / 1e6, i.seconds(),
            i.embedSeconds() == null ? "" : String.format(Locale.ROOT, " (embedding %.1f)", i.embedSeconds()),
            i.mbPerSecond(), i.docsPerSecond()));
      }
      if (!r.comparisons().isEmpty()) {
        sb.append("\nPaired randomization test on per-query nDCG@10 (").append(PairedTest.ROUNDS)
            .append(" sign flips, two-sided):\n\n| method | vs | Δ nDCG@10 | p | wins / losses |\n|---|---|---:|---:|---:|\n");
        for (PairedTest.Comparison c : r.comparisons()) {
          sb.append(String.format(Locale.ROOT, "| %s | %s | %+.3f | %.3f | %d / %d |%n", c.method(), c.baseline(),
              c.meanDiff(), c.p(), c.wins(), c.losses()));
        }
      }
      if (!r.targets().isEmpty()) {
        sb.append("\nTargets:\n\n");
        for (String t : r.targets()) sb.append("- ").append(t).append('\n');
      }
      if (!r.notes().isEmpty()) {
        sb.append("\nNotes:\n\n");
        for (String n : r.notes()) sb.append("- ").append(n).append('\n');
      }
    }
    return sb.toString();
  }

  static void write(Path outDir, String stem, String markdown, String command, Map<String, String> env,
      Map<String, Object> settings, List<DatasetResult> results) throws IOException {
    Files.createDirectories(outDir);
    Files.writeString(outDir.resolve(stem + ".md"), markdown, StandardCharsets.UTF_8);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("command", command);
    json.put("environment", env);
    json.put("settings", settings);
    json.put("datasets", results);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(outDir.resolve(stem + ".json").toFile(), json);
  }

  /** A TREC run file: {@code qid Q0 docid rank score tag}, score = -rank. */
  static void writeRun(Path file, Map<String, List<String>> rankings, String tag) throws IOException {
    Files.createDirectories(file.getParent());
    StringBuilder sb = new StringBuilder();
    rankings.forEach((q, docs) -> {
      for (int i = 0; i < docs.size(); i++) {
        sb.append(q).append(" Q0 ").append(docs.get(i)).append(' ').append(i + 1).append(' ').append(-(i + 1))
            .append(' ').append(tag).append('\n');
      }
    });
    Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
  }
}
