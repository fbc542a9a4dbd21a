package dev.ctxpack.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load driver's parsing and the hostile requests it sends: what the run's figures rest on. */
class LoadBenchTest {
  @Test
  void theServersAddressIsReadFromItsListeningLine() {
    assertThat(ServerProcess.listeningAddress("ctxpack serve: listening on http://127.0.0.1:41234 (index /tmp/x)"))
        .isEqualTo(URI.create("http://127.0.0.1:41234"));
    assertThat(ServerProcess.listeningAddress("ctxpack serve: listening on http://[::1]:8080 (no index: ...)"))
        .isEqualTo(URI.create("http://[::1]:8080"));
    assertThat(ServerProcess.listeningAddress("ctxpack serve: stopped")).isNull();
  }

  @Test
  void heapInfoGivesUsedAndTotal() {
    String g1 = "12345:\n garbage-first heap   total 262144K, used 53452K [0x0000000080000000, 0x0000000100000000)\n"
        + "  region size 1024K, 6 young (6144K), 0 survivors (0K)\n";
    assertThat(ServerProcess.heapInfo(g1)).containsExactly(53452L, 262144L);
    assertThat(ServerProcess.heapInfo("Unable to open socket file")).isNull();
  }

  @Test
  void percentilesAreNearestRank() {
    long[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(LoadBench.percentile(v, 50)).isEqualTo(5);
    assertThat(LoadBench.percentile(v, 90)).isEqualTo(9);
    assertThat(LoadBench.percentile(v, 99)).isEqualTo(10);
    assertThat(LoadBench.percentile(new long[0], 50)).isZero();
  }

  @Test
  void theRequestBodyIsTheQueryAsJson() {
    assertThat(LoadBench.body("a \"quoted\" claim")).isEqualTo("{\"query\":\"a \\\"quoted\\\" claim\"}");
  }

  @Test
  void theHostileRequestsCrossTheirCaps() {
    List<HostileCases.Case> cases = HostileCases.all("Vitamin D deficiency is unrelated to birth weight.", 1000);
    assertThat(cases).extracting(HostileCases.Case::expected).contains(400, 413, 200);
    for (HostileCases.Case c : cases) {
      String text = new String(c.body(), StandardCharsets.UTF_8);
      if (c.name().startsWith("query of 5,000 words")) assertThat(text).contains(HostileCases.words("Vitamin D deficiency is unrelated to birth weight.", 5_000));
      if (c.name().startsWith("JSON nested")) assertThat(text).containsAnyOf("[".repeat(10_000), "{\"a\":".repeat(10_000));
      if (c.expected() == 413) assertThat(c.body().length).isGreaterThan(1000);
      if (c.name().equals("invalid UTF-8")) {
        assertThat(decodes(c.body())).isFalse();
      } else {
        assertThat(decodes(c.body())).as(c.name()).isTrue();
      }
    }
    assertThat(HostileCases.words("a b c", 5_000).split(" ")).hasSize(5_000);
  }

  private static boolean decodes(byte[] b) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
