package dev.ctxpack.pack;

import dev.ctxpack.model.Source;
import dev.ctxpack.text.TextNormalizer;
import java.util.List;

/**
 * Renders a stuffed prompt: instructions, the SOURCES block, the question. Each source is fenced
 * in a {@code <source id="S1" ...>} ... {@code </source>} block so retrieved text reads as data;
 * if any source text itself contains the closing tag, every fence of that prompt gets a suffix
 * derived from the content ({@code <source-3fa2c1 ...>}) that no source contains, so a document
 * can never close its own fence. Source text is verbatim; only attribute values are escaped.
 */
public final class PromptRenderer {

  /** A rendered prompt and its three components, whose concatenation is {@code prompt}. */
  public record Rendered(String prompt, String instructions, String sources, String query) {}

  public Rendered render(PromptTemplate t, String query, List<Source> sources) {
    String tag = fenceTag(sources);
    String instructions = t.renderedInstructions() + "\n\n" + t.sourcesHeader() + "\n";
    StringBuilder sb = new StringBuilder();
    for (Source s : sources) sb.append(block(s, tag)).append('\n');
    String question = "\n" + t.questionHeader() + "\n" + query.strip() + "\n";
    return new Rendered(instructions + sb + question, instructions, sb.toString(), question);
  }

  /** The fenced block of one source, as it appears in the prompt (without the trailing newline). */
  public String block(Source s, String tag) {
    StringBuilder sb = new StringBuilder();
    sb.append('<').append(tag).append(" id=\"").append(s.label()).append('"');
    attr(sb, "title", s.title());
    attr(sb, "section", s.section());
    if (s.page() > 0) attr(sb, "page", Integer.toString(s.page()));
    attr(sb, "date", s.date());
    attr(sb, "uri", s.uri());
    sb.append(">\n").append(s.text()).append("\n</").append(tag).append('>');
    return sb.toString();
  }

  /** {@code source}, or {@code source-xxxxxx} when a source text contains {@code </source}. */
  public String fenceTag(List<Source> sources) {
    boolean clash = sources.stream().anyMatch(s -> s.text().contains("</source") || s.text().contains("<source"));
    if (!clash) return "source";
    StringBuilder all = new StringBuilder();
    for (Source s : sources) all.append(s.text()).append('\u0000');
    String hash = TextNormalizer.sha256Hex(all.toString());
    for (int i = 0; i + 6 <= hash.length(); i++) {
      String tag = "source-" + hash.substring(i, i + 6);
      String t = tag;
      if (sources.stream().noneMatch(s -> s.text().contains(t))) return tag;
    }
    throw new IllegalStateException("no fence tag is free of the source texts");
  }

  private static void attr(StringBuilder sb, String name, String value) {
    if (value == null || value.isBlank()) return;
    sb.append(' ').append(name).append("=\"").append(escape(value.strip())).append('"');
  }

  static String escape(String v) {
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> sb.append("&quot;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '\n', '\r', '\t' -> sb.append(' ');
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
