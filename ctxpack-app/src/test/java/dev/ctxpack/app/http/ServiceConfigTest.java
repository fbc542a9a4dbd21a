package dev.ctxpack.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.index.IndexSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A {@link ServiceConfig} is checked when it is built, and each refusal names the option and the value. */
class ServiceConfigTest {
  @Test
  void theDefaultsAreLoopbackPort8080MiniLmAndTheDocumentedLimits() {
    ServiceConfig c = ServiceConfig.builder().build();
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.index()).isNull();
    assertThat(c.tenants()).isNull();
    assertThat(c.embedder()).isEqualTo("minilm");
    assertThat(c.maxBodyBytes()).isEqualTo(10L * 1024 * 1024);
    assertThat(c.requestTimeoutMillis()).isEqualTo(30_000);
    assertThat(c.maxConcurrent()).isEqualTo(2 * Runtime.getRuntime().availableProcessors());
    assertThat(c.maxQueued()).isEqualTo(256);
    assertThat(c.memory()).isNull();
    assertThat(c.llm()).isNull();
  }

  @Test
  void eachLimitOutOfRangeIsRefusedNamingItsOptionAndValue() {
    assertThatThrownBy(() -> ServiceConfig.builder().port(-1).build()).isInstanceOf(UsageException.class)
        .hasMessage("--port must be in [0, 65535], was -1");
    assertThatThrownBy(() -> ServiceConfig.builder().port(65536).build()).hasMessageContaining("65536");
    assertThatThrownBy(() -> ServiceConfig.builder().maxBodyBytes(0).build())
        .hasMessage("--max-body-bytes must be at least 1, was 0");
    assertThatThrownBy(() -> ServiceConfig.builder().requestTimeoutMillis(0).build())
        .hasMessage("--request-timeout-ms must be at least 1, was 0");
    assertThatThrownBy(() -> ServiceConfig.builder().maxConcurrent(0).build())
        .hasMessage("--max-concurrent must be at least 1, was 0");
    assertThatThrownBy(() -> ServiceConfig.builder().maxQueued(-1).build())
        .hasMessage("--max-queued must be in [0, 10000], was -1");
    assertThatThrownBy(() -> ServiceConfig.builder().maxQueued(ServiceConfig.MAX_QUEUED_LIMIT + 1).build())
        .hasMessageContaining("--max-queued");
    assertThat(ServiceConfig.builder().port(0).maxQueued(0).build().maxQueued()).isZero();
  }

  @Test
  void tenantsTakeNeitherAnIndexNorAMemoryStore() {
    Path tenants = Path.of("tenants.json");
    assertThatThrownBy(() -> ServiceConfig.builder().tenants(tenants).index(IndexSpec.ofPath(Path.of("idx"))).build())
        .isInstanceOf(UsageException.class).hasMessageContaining("not both");
    assertThatThrownBy(() -> ServiceConfig.builder().tenants(tenants).memory(IndexSpec.ofPath(Path.of("mem"))).build())
        .isInstanceOf(UsageException.class).hasMessageContaining("--memory is for one index");
    assertThatThrownBy(() -> ServiceConfig.builder().embedder(null).build()).isInstanceOf(NullPointerException.class)
        .hasMessage("embedder");
  }
}
