package dev.ctxpack.token;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A registry of {@link ModelProfile}s. {@link #builtIn()} knows common hosted and open models;
 * {@link #with} adds or replaces one. Lookup is case-insensitive.
 */
public final class ModelProfiles {
  private final Map<String, ModelProfile> profiles;

  private ModelProfiles(Map<String, ModelProfile> profiles) {
    this.profiles = Collections.unmodifiableMap(profiles);
  }

  public static ModelProfiles builtIn() {
    Map<String, ModelProfile> m = new LinkedHashMap<>();
    put(m, new ModelProfile("gpt-4o", 128_000, "o200k_base", true, 0.0, 4_000));
    put(m, new ModelProfile("gpt-4o-mini", 128_000, "o200k_base", true, 0.0, 4_000));
    put(m, new ModelProfile("gpt-4.1", 1_047_576, "o200k_base", true, 0.0, 4_000));
    put(m, new ModelProfile("gpt-4.1-mini", 1_047_576, "o200k_base", true, 0.0, 4_000));
    put(m, new ModelProfile("o3", 200_000, "o200k_base", true, 0.0, 8_000));
    put(m, new ModelProfile("o4-mini", 200_000, "o200k_base", true, 0.0, 8_000));
    put(m, new ModelProfile("gpt-4-turbo", 128_000, "cl100k_base", true, 0.0, 4_000));
    put(m, new ModelProfile("gpt-4", 8_192, "cl100k_base", true, 0.0, 1_000));
    put(m, new ModelProfile("gpt-3.5-turbo", 16_385, "cl100k_base", true, 0.0, 2_000));
    // Tokenizers not available here: counted with o200k_base, with a margin for the difference.
    put(m, new ModelProfile("claude-sonnet-4", 200_000, "o200k_base", false, 0.20, 4_000));
    put(m, new ModelProfile("claude-3-5-haiku", 200_000, "o200k_base", false, 0.20, 4_000));
    put(m, new ModelProfile("gemini-2.5-pro", 1_048_576, "o200k_base", false, 0.15, 4_000));
    put(m, new ModelProfile("llama-3.1-8b", 128_000, "o200k_base", false, 0.15, 4_000));
    put(m, new ModelProfile("mistral-small", 32_000, "o200k_base", false, 0.20, 2_000));
    put(m, new ModelProfile("qwen2.5-7b", 32_768, "o200k_base", false, 0.15, 2_000));
    return new ModelProfiles(m);
  }

  private static void put(Map<String, ModelProfile> m, ModelProfile p) {
    m.put(p.name().toLowerCase(Locale.ROOT), p);
  }

  /** A registry with {@code profile} added, replacing any profile of the same name. */
  public ModelProfiles with(ModelProfile profile) {
    Map<String, ModelProfile> m = new LinkedHashMap<>(profiles);
    put(m, profile);
    return new ModelProfiles(m);
  }

  public Optional<ModelProfile> find(String name) {
    return Optional.ofNullable(profiles.get(name.trim().toLowerCase(Locale.ROOT)));
  }

  /** The named profile, or an {@link IllegalArgumentException} listing the known names. */
  public ModelProfile get(String name) {
    return find(name)
        .orElseThrow(() -> new IllegalArgumentException(
            "unknown model '" + name + "': known models are " + String.join(", ", profiles.keySet())));
  }

  public Collection<ModelProfile> all() {
    return profiles.values();
  }
}
