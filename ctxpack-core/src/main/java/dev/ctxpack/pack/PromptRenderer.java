package dev.ctxpack.pack;

import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Source;
import dev.ctxpack.text.TextNormalizer;
import java.util.List;

/**
 * Renders a stuffed prompt: instructions, the SOURCES block, the question. Each source is fenced
 * in a {@code <source id="S1" ...>} ... {@code </source>} block so retrieved text reads as data;
 * if any source text itself contains the closing tag, every fence of that prompt gets a suffix
 * derived from the content ({@code <source-3fa2c1 ...>}) that no source contains, so a document
 * can never close its own fence. Source text is verbatim; only attribute values are escaped.
 *
 * <p>Under an injection policy other than {@code off} ({@link #render(PromptTemplate, String, List,
 * InjectionPolicy)}), every fence carries the request's boundary token ({@code
 * <source-3fa2c19b04de ...>}), the instructions say so, and each fence holds the source's guarded
 * text ({@link InjectionGuard}), after a warning line when the source was flagged.
 */
public final class PromptRenderer {

  /** A rendered prompt and its three components, whose concatenation is {@code prompt}. */
  public record Rendered(String prompt, String instructions, String sources, String query) {}

  public Rendered render(PromptTemplate t, String query, List<Source> sources) {
    String tag = fenceTag(sources);
    String instructions = t.renderedInstructions(labels(sources)) + "\n\n" + t.sourcesHeader() + "\n";
    StringBuilder sb = new StringBuilder();
    for (Source s : sources) sb.append(block(s, tag)).append('\n');
    String question = "\n" + t.questionHeader() + "\n" + query.strip() + "\n";
    return new Rendered(instructions + sb + question, instructions, sb.toString(), question);
  }

  /**
   * Renders under {@code policy}: with {@code OFF} exactly as {@link #render(PromptTemplate, String,
   * List)}; otherwise each source is fenced with the request's boundary token and holds its guard's
   * prompt text. Sources without a guard report are inspected here.
   */
  public Rendered render(PromptTemplate t, String query, List<Source> sources, InjectionPolicy policy) {
    if (policy == InjectionPolicy.OFF) return render(t, query, sources);
    List<Source> guarded = sources.stream()
        .map(s -> s.guard().promptText() == null ? InjectionGuard.defaults().guard(s, policy) : s).toList();
    String tag = "source-" + InjectionGuard.boundary(query, guarded);
    String instructions = t.renderedInstructions(labels(guarded)) + "\n" + InjectionGuard.instructions(t.language(), tag, policy)
        + "\n\n" + t.sourcesHeader() + "\n";
    StringBuilder sb = new StringBuilder();
    for (Source s : guarded) sb.append(block(s, tag, t.language())).append('\n');
    String question = "\n" + t.questionHeader() + "\n" + query.strip() + "\n";
    return new Rendered(instructions + sb + question, instructions, sb.toString(), question);
  }

  private static List<String> labels(List<Source> sources) {
    return sources.stream().map(Source::label).toList();
  }

  /**
   * The fence tag {@link #render(PromptTemplate, String, List, InjectionPolicy)} gives these sources:
   * {@link #fenceTag} under {@code OFF}, else {@code source-} and the request's boundary token.
   */
  public String tag(String query, List<Source> sources, InjectionPolicy policy) {
    if (policy == InjectionPolicy.OFF) return fenceTag(sources);
    List<Source> guarded = sources.stream()
        .map(s -> s.guard().promptText() == null ? InjectionGuard.defaults().guard(s, policy) : s).toList();
    return "source-" + InjectionGuard.boundary(query, guarded);
  }

  /**
   * The guarded block of one source (its guard report's prompt text, after a warning line in
   * {@code language} when it was flagged), without the trailing newline.
   */
  public String block(Source s, String tag, Language language) {
    StringBuilder sb = open(s, tag);
    if (s.guard().flagged()) sb.append(InjectionGuard.warning(language, s.guard().rules())).append('\n');
    String text = s.guard().promptText() != null ? s.guard().promptText() : s.text();
    return sb.append(text).append("\n</").append(tag).append('>').toString();
  }

  /** The fenced block of one source, as it appears in the prompt (without the trailing newline). */
  public String block(Source s, String tag) {
    return open(s, tag).append(s.text()).append("\n</").append(tag).append('>').toString();
  }

  private static StringBuilder open(Source s, String tag) {
    StringBuilder sb = new StringBuilder();
    sb.append('<').append(tag).append(" id=\"").append(s.label()).append('"');
    attr(sb, "title", s.title());
    attr(sb, "section", s.section());
    if (s.page() > 0) attr(sb, "page", Integer.toString(s.page()));
    attr(sb, "date", s.date());
    attr(sb, "uri", s.uri());
    return sb.append(">\n");
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
