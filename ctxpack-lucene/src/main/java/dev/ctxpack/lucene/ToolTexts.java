package dev.ctxpack.lucene;

import dev.ctxpack.assemble.ToolSpec;
import java.util.regex.Pattern;

/** The texts a tool is ranked by: identifiers split into words, then description and parameters. */
final class ToolTexts {
  private static final Pattern SEPARATORS = Pattern.compile("[\\s_\\-./:\\[\\]{}$#@]+");
  private static final Pattern LOWER_UPPER = Pattern.compile("(?<=\\p{Ll})(?=\\p{Lu})");
  private static final Pattern ACRONYM_WORD = Pattern.compile("(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll})");
  private static final Pattern LETTER_DIGIT = Pattern.compile("(?<=\\p{L})(?=\\p{N})|(?<=\\p{N})(?=\\p{L})");

  private ToolTexts() {}

  /**
   * {@code getHTTPResponse_code}, {@code get-http-response.code} and {@code get_http_response_code}
   * all become {@code get HTTP Response code}-like words separated by single spaces.
   */
  static String words(String identifier) {
    String s = SEPARATORS.matcher(identifier).replaceAll(" ");
    s = LOWER_UPPER.matcher(s).replaceAll(" ");
    s = ACRONYM_WORD.matcher(s).replaceAll(" ");
    s = LETTER_DIGIT.matcher(s).replaceAll(" ");
    return s.strip().replaceAll(" +", " ");
  }

  /** Name, description, then each parameter's name and description: what BM25 indexes. */
  static String sparse(ToolSpec t) {
    StringBuilder b = new StringBuilder(words(t.name())).append('\n').append(t.description());
    for (ToolSpec.ToolParameter p : t.parameters()) {
      b.append('\n').append(words(p.name()));
      if (!p.description().isEmpty()) b.append(": ").append(p.description());
    }
    return b.toString();
  }

  /** Name, description and parameter names, at most {@code maxChars}: what the embedder reads. */
  static String dense(ToolSpec t, int maxChars) {
    StringBuilder b = new StringBuilder(words(t.name()));
    if (!t.description().isEmpty()) b.append(": ").append(t.description().strip());
    if (!t.parameters().isEmpty()) {
      b.append("\nParameters: ");
      for (int i = 0; i < t.parameters().size(); i++) b.append(i == 0 ? "" : ", ").append(words(t.parameters().get(i).name()));
    }
    if (b.length() <= maxChars) return b.toString();
    int end = Character.isHighSurrogate(b.charAt(maxChars - 1)) ? maxChars - 1 : maxChars; // never half a pair
    return b.substring(0, end);
  }
}
