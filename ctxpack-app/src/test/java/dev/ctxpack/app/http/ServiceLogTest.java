package dev.ctxpack.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The service's log lines, for people and as JSON objects. */
class ServiceLogTest {
  @Test
  void textLinesArePrefixedAndAFaultCarriesItsStackTrace() {
    StringWriter out = new StringWriter();
    ServiceLog log = ServiceLog.text(new PrintWriter(out));
    log.info("listening on http://127.0.0.1:8080 (index x)");
    log.warning("listening beyond this machine");
    log.fault("POST /v1/pack", new IllegalStateException("boom"));
    String[] lines = out.toString().split("\n");
    assertThat(lines[0]).isEqualTo("ctxpack serve: listening on http://127.0.0.1:8080 (index x)");
    assertThat(lines[1]).isEqualTo("ctxpack serve: warning: listening beyond this machine");
    assertThat(lines[2]).isEqualTo("ctxpack serve: POST /v1/pack failed: java.lang.IllegalStateException: boom");
    assertThat(lines[3]).isEqualTo("java.lang.IllegalStateException: boom");
    assertThat(lines[4]).startsWith("\tat dev.ctxpack.app.http.ServiceLogTest");
  }

  @Test
  void jsonIsOneObjectPerLineWithLevelMessageAndTheTraceOfAFault() throws Exception {
    StringWriter out = new StringWriter();
    ServiceLog log = ServiceLog.json(new PrintWriter(out));
    log.info("listening on http://127.0.0.1:8080 (index x)");
    log.warning("listening beyond this machine");
    log.fault("POST /v1/pack", new IllegalStateException("boom"));
    List<JsonNode> lines = new ArrayList<>();
    for (String l : out.toString().split("\n")) lines.add(Json.MAPPER.readTree(l));
    assertThat(lines).hasSize(3);
    assertThat(Json.line(lines.get(0))).isEqualTo("{\"level\":\"info\",\"message\":\"listening on http://127.0.0.1:8080 (index x)\"}");
    assertThat(Json.line(lines.get(1))).isEqualTo("{\"level\":\"warning\",\"message\":\"listening beyond this machine\"}");
    assertThat(lines.get(2).get("level").asText()).isEqualTo("error");
    assertThat(lines.get(2).get("message").asText()).isEqualTo("POST /v1/pack failed: java.lang.IllegalStateException: boom");
    assertThat(lines.get(2).get("trace").asText()).startsWith("java.lang.IllegalStateException: boom")
        .contains("\tat dev.ctxpack.app.http.ServiceLogTest");
  }
}
