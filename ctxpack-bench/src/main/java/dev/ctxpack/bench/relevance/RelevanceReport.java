package dev.ctxpack.bench.relevance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.bench.compress.CompressData;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The tables and JSON of {@link RelevanceEval}: per kind of question and configuration, retention, tokens, verdicts. */
final class RelevanceReport {
  static final List<String> KINDS = List.of("answerable", "unanswerable", "off-corpus");

  private RelevanceReport() {}

  /** Means over the questions of one kind under one configuration. */
  record Row(int n, double retained, double tokens, double insufficient, double sources) {}

  static Row row(List<RelevanceEval.Question> qs, List<RelevanceEval.Outcome> os, String kind) {
    int n = 0;
    double ret = 0, tok = 0, ins = 0, src = 0;
    for (int i = 0; i < qs.size(); i++) {
      if (!qs.get(i).kind().equals(kind)) continue;
      RelevanceEval.Outcome o = os.get(i);
      n++;
      ret += o.retained() ? 1 : 0;
      tok += o.tokens();
      ins += o.insufficient() ? 1 : 0;
      src += o.sources();
    }
    return n == 0 ? new Row(0, 0, 0, 0, 0) : new Row(n, ret / n, tok / n, ins / n, src / n);
  }

  static String table(CompressData.Half half, List<RelevanceEval.Question> qs, Map<String, List<RelevanceEval.Outcome>> results) {
    StringBuilder sb = new StringBuilder();
    sb.append("## ").append(half.name()).append(" half\n\n");
    List<RelevanceEval.Outcome> stuffing = results.get("stuffing");
    for (String kind : KINDS) {
      Row base = row(qs, stuffing, kind);
      if (base.n() == 0) continue;
      sb.append(String.format(Locale.ROOT, "**%s** (%d questions)%n%n", kind, base.n()));
      sb.append("| configuration | retained | sources tokens (mean) | of stuffing's | insufficient | sources (mean) |\n");
      sb.append("|---|---:|---:|---:|---:|---:|\n");
      for (var e : results.entrySet()) {
        Row r = row(qs, e.getValue(), kind);
        sb.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.1f %% | %.1f %% | %.1f |%n", e.getKey(),
            kind.equals("answerable") ? String.format(Locale.ROOT, "%.1f %%", 100 * r.retained()) : "–", r.tokens(),
            base.tokens() == 0 ? 0 : 100 * r.tokens() / base.tokens(), 100 * r.insufficient(), r.sources()));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  static ObjectNode json(List<RelevanceEval.Question> qs, Map<String, List<RelevanceEval.Outcome>> results) {
    ObjectNode o = new ObjectMapper().createObjectNode();
    for (var e : results.entrySet()) {
      ObjectNode c = o.putObject(e.getKey());
      for (String kind : KINDS) {
        Row r = row(qs, e.getValue(), kind);
        c.putObject(kind).put("n", r.n()).put("retained", r.retained()).put("tokens", r.tokens())
            .put("insufficient", r.insufficient()).put("sources", r.sources());
      }
    }
    return o;
  }
}
