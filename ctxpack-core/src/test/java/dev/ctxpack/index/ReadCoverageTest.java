package dev.ctxpack.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadCoverageTest {
  @Test
  void aWholeReadWritesNoTraceLine() {
    Trace trace = new Trace();
    new ReadCoverage().report(trace);
    assertThat(trace.decisions()).isEmpty();
    assertThat(ReadCoverage.missingShards(trace.decisions())).isEmpty();
  }

  @Test
  void missingShardsAreNamedOnceSortedInOneTraceLineAndReadBackFromIt() {
    ReadCoverage c = new ReadCoverage();
    c.missing(List.of("shard3"));
    c.missing(List.of("shard1", "shard3"));
    assertThat(c.partial()).isTrue();
    assertThat(c.missingShards()).containsExactly("shard1", "shard3");
    Trace trace = new Trace();
    trace.add(Stage.RETRIEVE, Action.FALLBACK, "no-vectors", List.of("x"), "", 0, "");
    c.report(trace);
    Decision d = trace.decisions().get(1);
    assertThat(d.action()).isEqualTo(Action.PARTIAL);
    assertThat(d.rule()).isEqualTo("shards-missing");
    assertThat(d.ids()).containsExactly("shard1", "shard3");
    assertThat(d.reason()).startsWith("shards shard1, shard3 have no live replica");
    assertThat(ReadCoverage.missingShards(trace.decisions())).containsExactly("shard1", "shard3");

    ReadCoverage one = new ReadCoverage();
    one.missing(List.of("shard2"));
    Trace t = new Trace();
    one.report(t);
    assertThat(t.decisions().get(0).reason()).startsWith("shard shard2 has no live replica");
  }
}
