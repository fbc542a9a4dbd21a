package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ModelProfilesTest {
  private final ModelProfiles profiles = ModelProfiles.builtIn();

  @Test
  void lookupIsCaseInsensitiveAndTrimmed() {
    assertThat(profiles.get("GPT-4o").name()).isEqualTo("gpt-4o");
    assertThat(profiles.get("  gpt-4O-mini ").name()).isEqualTo("gpt-4o-mini");
    assertThat(profiles.find("Claude-Sonnet-4")).isPresent();
    assertThat(profiles.find("gpt-5-imaginary")).isEmpty();
  }

  @Test
  void unknownModelIsRejectedListingTheKnownNames() {
    assertThatThrownBy(() -> profiles.get("gpt-5-imaginary"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gpt-5-imaginary")
        .hasMessageContaining("gpt-4o")
        .hasMessageContaining("claude-sonnet-4")
        .hasMessageContaining("llama-3.1-8b");
  }

  @Test
  void exactProfilesUseTheWholeWindow() {
    ModelProfile p = profiles.get("gpt-4o");
    assertThat(p.exact()).isTrue();
    assertThat(p.usableWindow()).isEqualTo(128_000);
    assertThat(p.tokenizerInstance().name()).isEqualTo("o200k_base");
    assertThat(profiles.get("gpt-4").tokenizerInstance().name()).isEqualTo("cl100k_base");
  }

  @Test
  void approximateProfilesKeepASafetyMargin() {
    assertThat(profiles.get("claude-sonnet-4").usableWindow()).isEqualTo(160_000);
    assertThat(profiles.get("llama-3.1-8b").usableWindow()).isEqualTo(108_800);
    assertThat(profiles.get("mistral-small").usableWindow()).isEqualTo(25_600);
    assertThat(profiles.get("gemini-2.5-pro").usableWindow()).isEqualTo(891_289); // floor(1,048,576 * 0.85)
    for (ModelProfile p : profiles.all()) {
      assertThat(p.usableWindow()).as(p.name()).isLessThanOrEqualTo(p.contextWindow());
      assertThat(p.defaultReserve()).as(p.name()).isLessThan(p.usableWindow());
      if (!p.exact()) assertThat(p.safetyMargin()).as(p.name()).isPositive();
    }
  }

  @Test
  void regressionUsableWindowLostATokenToFloatingPointRounding() {
    // 1000 * (1 - 0.07) is 929.9999999999999 in doubles; the usable window is still 930 tokens.
    assertThat(new ModelProfile("m", 1_000, "o200k_base", false, 0.07, 0).usableWindow()).isEqualTo(930);
    assertThat(new ModelProfile("m", 100, "o200k_base", false, 0.34, 0).usableWindow()).isEqualTo(66);
    assertThat(new ModelProfile("m", 128_000, "o200k_base", false, 0.33, 0).usableWindow()).isEqualTo(85_760);
    assertThat(new ModelProfile("m", 1_000, "o200k_base", false, 0.1, 0).usableWindow()).isEqualTo(900);
    // A fraction that is really there is still cut off.
    assertThat(new ModelProfile("m", 1_001, "o200k_base", false, 0.1, 0).usableWindow()).isEqualTo(900);
  }

  /** NaN passed both range checks, and then every usable window was 0. */
  @Test
  void regressionNanSafetyMarginWasAccepted() {
    assertThatThrownBy(() -> new ModelProfile("m", 1000, "o200k_base", false, Double.NaN, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("safetyMargin").hasMessageContaining("NaN");
  }

  @Test
  void withAddsOrReplacesAProfile() {
    ModelProfile mine = new ModelProfile("My-Model", 32_000, "cl100k_base", false, 0.1, 1_000);
    ModelProfiles extended = profiles.with(mine);
    assertThat(extended.get("my-model")).isEqualTo(mine);
    assertThat(profiles.find("my-model")).as("the original registry is unchanged").isEmpty();

    ModelProfile smaller = new ModelProfile("GPT-4O", 64_000, "o200k_base", true, 0.0, 2_000);
    assertThat(profiles.with(smaller).get("gpt-4o").contextWindow()).isEqualTo(64_000);
    assertThat(profiles.with(smaller).all()).hasSameSizeAs(profiles.all());
  }

  @Test
  void invalidProfilesAreRejectedNamingTheValue() {
    assertThatThrownBy(() -> new ModelProfile("m", 0, "o200k_base", true, 0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contextWindow");
    assertThatThrownBy(() -> new ModelProfile("m", 1000, "gpt2", true, 0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gpt2");
    assertThatThrownBy(() -> new ModelProfile("m", 1000, "o200k_base", false, 0.5, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("safetyMargin");
    assertThatThrownBy(() -> new ModelProfile("m", 1000, "o200k_base", false, -0.1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("safetyMargin");
    assertThatThrownBy(() -> new ModelProfile("m", 1000, "o200k_base", true, 0, 1000))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultReserve");
    assertThatThrownBy(() -> new ModelProfile("m", 1000, "o200k_base", true, 0, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultReserve");
    assertThatThrownBy(() -> new ModelProfile(null, 1000, "o200k_base", true, 0, 0))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("name");
  }
}
