package dev.ctxpack.onnx;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parsing shared by {@link Embedders} and {@link Rerankers}: a spec body is {@code
 * HEAD[,key=value]...}, keys are case-insensitive, values and the head are trimmed, and every
 * message quotes the spec and ends with the accepted forms.
 */
final class Specs {
  private Specs() {}

  /** The head of a spec body and its options in the order given (a repeated key keeps the last). */
  record Body(String head, Map<String, String> options) {}

  /**
   * Splits {@code body} (the spec after its {@code prefix:}) at commas.
   *
   * @param spec the whole spec, quoted in messages
   * @param kind what the spec builds ("embedder", "reranker"), used in messages
   * @param forms the accepted forms, appended to messages
   * @param keys the option keys allowed, lower case
   * @throws IllegalArgumentException for an option without {@code =value} or an unknown key
   */
  static Body split(String body, String spec, String kind, String forms, List<String> keys) {
    String[] parts = body.split(",", -1);
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      String option = parts[i].trim();
      int eq = option.indexOf('=');
      String key = eq < 0 ? option : option.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : option.substring(eq + 1).trim();
      if (value.isEmpty()) {
        throw new IllegalArgumentException(
            "option '" + option + "' in " + kind + " spec '" + spec + "' needs key=value; " + forms);
      }
      if (!keys.contains(key)) {
        throw new IllegalArgumentException(
            "unknown option '" + key + "' in " + kind + " spec '" + spec + "' (" + String.join(", ", keys)
                + "); " + forms);
      }
      options.put(key, value);
    }
    return new Body(parts[0].trim(), options);
  }

  /** {@code value} as a path, or an {@link IllegalArgumentException} quoting the spec. */
  static Path path(String value, String spec, String kind) {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("invalid path '" + value + "' in " + kind + " spec '" + spec + "'", e);
    }
  }

  /** {@code value} as an int in {@code min..max}, or an {@link IllegalArgumentException} naming the option. */
  static int intOption(String key, String value, int min, int max, String spec, String kind) {
    int n;
    try {
      n = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      n = Integer.MIN_VALUE;
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          "option " + key + "=" + value + " in " + kind + " spec '" + spec + "' must be an integer in "
              + min + ".." + max);
    }
    return n;
  }

  /** {@code s} trimmed, or null when it is null or blank. */
  static String nonBlank(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** {@code timeout} itself, when positive. */
  static java.time.Duration positive(java.time.Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    return timeout;
  }
}
