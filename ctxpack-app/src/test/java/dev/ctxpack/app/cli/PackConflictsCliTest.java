package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two versions of a price list in a real index: {@code pack} marks their disagreement and puts the newer first. */
class PackConflictsCliTest {
  private static final String BODY = "The Basic plan costs %s per month and the Pro plan costs %s per month."
      + " Every plan can be cancelled at any time from the account page, and the remaining days of the month are"
      + " credited to the next invoice. Support is given by e-mail on business days, with answers within one working day,"
      + " and the status page lists every planned maintenance window in advance. Invoices are sent on the first day of"
      + " each month to the billing address of the account, and they can be downloaded as PDF files at any time.";

  @TempDir Path dir;

  @Test
  void anOldAndANewPriceListAreFlaggedInThePromptTraceAndJson() throws Exception {
    Path jsonl = dir.resolve("prices.jsonl");
    String old = Json.MAPPER.writeValueAsString(Map.of("_id", "prices-2024", "title", "Price list",
        "text", BODY.formatted("$49", "$99"), "metadata", Map.of("date", "2024-06-15")));
    String current = Json.MAPPER.writeValueAsString(Map.of("_id", "prices-2025", "title", "Price list",
        "text", BODY.formatted("$59", "$99"), "metadata", Map.of("date", "2025-10-01")));
    String tea = Json.MAPPER.writeValueAsString(Map.of("_id", "tea", "title", "Tea",
        "text", "Green tea is brewed with water at about 80 degrees for two to three minutes.", "metadata", Map.of("date", "2025-01-01")));
    Files.writeString(jsonl, old + "\n" + current + "\n" + tea + "\n");
    String index = dir.resolve("idx").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", jsonl.toString());
    assertThat(in.code()).as(in.err()).isZero();

    CliRunner r = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "How much does the Basic plan cost per month?",
        "--mode", "bm25", "--budget", "900");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode p = r.json();
    JsonNode sources = p.get("sources");
    assertThat(sources.get(0).get("docId").asText()).isEqualTo("prices-2025"); // the newer version leads
    String newer = sources.get(0).get("id").asText();
    String older = null;
    for (JsonNode s : sources) if (s.get("docId").asText().equals("prices-2024")) older = s.get("id").asText();
    assertThat(older).isNotNull();
    assertThat(p.get("prompt").asText())
        .contains("Sources disagree: " + newer + " (2025-10-01) vs " + older + " (2024-06-15) as versions of the same document.");
    JsonNode conflicts = p.get("conflicts");
    assertThat(conflicts).hasSize(1);
    JsonNode c = conflicts.get(0);
    assertThat(c.get("kind").asText()).isEqualTo("version");
    assertThat(c.get("sources").toString()).isEqualTo("[\"" + newer + "\",\"" + older + "\"]");
    assertThat(c.get("dates").toString()).isEqualTo("[\"2025-10-01\",\"2024-06-15\"]");
    assertThat(c.get("values").toString()).as(p.get("trace").toString()).isEqualTo("[\"$59\",\"$49\"]");
    boolean flagged = false;
    for (JsonNode d : p.get("trace")) {
      if (d.get("stage").asText().equals("conflict")) {
        flagged = d.get("action").asText().equals("flag") && d.get("rule").asText().equals("conflict:version")
            && d.get("ids").toString().equals(c.get("sources").toString());
      }
    }
    assertThat(flagged).isTrue();
    assertThat(p.get("budget").get("used").asInt()).isLessThanOrEqualTo(900);
  }
}
