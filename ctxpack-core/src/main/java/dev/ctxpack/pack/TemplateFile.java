package dev.ctxpack.pack;

import dev.ctxpack.model.Language;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user prompt template read from a UTF-8 text file. The file opens with optional {@code key:
 * value} lines ({@code #} comments and blank lines allowed there), then three sections, each a
 * line {@code [name]} followed by its text:
 *
 * <pre>
 * # my template
 * language: pt
 * abstention: Não sei.
 * [instructions]
 * Responda só com as fontes e cite cada frase com [S1]...
 * Se as fontes não bastarem, responda "{{abstention}}".
 * [sources-header]
 * FONTES
 * [question-header]
 * PERGUNTA
 * </pre>
 *
 * <p>Keys: {@code language} ({@code en} or {@code pt}; without it the query's language is used, as
 * for the built-in templates) and {@code abstention} (the fixed phrase; defaults to the built-in
 * phrase of {@code language}, so it is required when {@code language} is not given). The {@code
 * instructions} section must contain the placeholder {@code {{abstention}}} and may contain {@code
 * {{citeExample}}} (an example citation made of labels the prompt has: {@code , for example [S1] or
 * [S1][S2]}, nothing when it has no source); no other placeholder is known; each header section is one non-empty line. The prompt is then laid out as
 * for the built-in templates: instructions, the sources header and the SOURCES block, the question
 * header and the question. Every error names the file and the line.
 */
public final class TemplateFile {
  /** The placeholder a template file must use (it may also use {@link PromptTemplate#CITE_EXAMPLE}). */
  public static final String ABSTENTION = "{{abstention}}";

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
  private static final Pattern SECTION = Pattern.compile("^\\[([^\\]]*)]\\s*$");
  private static final List<String> SECTIONS = List.of("instructions", "sources-header", "question-header");

  private TemplateFile() {}

  /** Reads and validates {@code file}; throws {@link IllegalArgumentException} naming the file and line. */
  public static PromptTemplate load(Path file) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(file + ": template file is not valid UTF-8");
    }
    return parse(file.toString(), file.getFileName().toString(), lines);
  }

  /** Parses the lines of a template file; {@code where} names it in errors, {@code name} in the trace. */
  static PromptTemplate parse(String where, String name, List<String> lines) {
    Language language = null;
    String abstention = null;
    Map<String, List<String>> sections = new LinkedHashMap<>();
    Map<String, Integer> sectionLine = new LinkedHashMap<>();
    String current = null;
    for (int i = 0; i < lines.size(); i++) {
      int n = i + 1;
      String line = lines.get(i);
      if (i == 0 && line.startsWith("\uFEFF")) line = line.substring(1);
      Matcher sec = SECTION.matcher(line);
      if (sec.matches()) {
        String s = sec.group(1).trim().toLowerCase(Locale.ROOT);
        if (!SECTIONS.contains(s)) {
          throw error(where, n, "unknown section [" + sec.group(1) + "]: use [instructions], [sources-header] or [question-header]");
        }
        if (sections.containsKey(s)) throw error(where, n, "section [" + s + "] given twice (first at line " + sectionLine.get(s) + ")");
        sections.put(s, new ArrayList<>());
        sectionLine.put(s, n);
        current = s;
        continue;
      }
      if (current != null) {
        checkPlaceholders(where, n, line, current);
        sections.get(current).add(line);
        continue;
      }
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) continue;
      int colon = t.indexOf(':');
      if (colon < 0) throw error(where, n, "expected 'key: value' or a [section] line, found '" + t + "'");
      String key = t.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = t.substring(colon + 1).strip();
      switch (key) {
        case "language" -> {
          Language l;
          try {
            l = Language.fromCode(value);
          } catch (IllegalArgumentException e) {
            l = Language.UNKNOWN;
          }
          if (l == Language.UNKNOWN) throw error(where, n, "language must be en or pt, was '" + value + "'");
          language = l;
        }
        case "abstention" -> {
          if (value.isEmpty()) throw error(where, n, "abstention must not be empty");
          checkPlaceholders(where, n, value, "abstention");
          abstention = value;
        }
        default -> throw error(where, n, "unknown key '" + key + "': use language or abstention");
      }
    }
    int end = lines.size();
    for (String s : SECTIONS) {
      if (!sections.containsKey(s)) throw error(where, end, "missing section [" + s + "]");
    }
    // every placeholder was checked to be a known one: write each in its one spelling
    String instructions = PLACEHOLDER.matcher(text(sections.get("instructions")))
        .replaceAll(m -> Matcher.quoteReplacement(m.group(1).equals("abstention") ? ABSTENTION : PromptTemplate.CITE_EXAMPLE));
    if (instructions.isEmpty()) throw error(where, sectionLine.get("instructions"), "section [instructions] is empty");
    if (!instructions.contains(ABSTENTION)) {
      throw error(where, sectionLine.get("instructions"),
          "section [instructions] must contain the placeholder " + ABSTENTION + " (where the fixed abstention phrase goes)");
    }
    String sourcesHeader = header(where, sections, sectionLine, "sources-header");
    String questionHeader = header(where, sections, sectionLine, "question-header");
    if (abstention == null) {
      if (language == null) {
        throw error(where, 1, "give 'abstention: PHRASE' (or 'language: en|pt' to use the built-in phrase)");
      }
      abstention = PromptTemplate.forLanguage(language).abstention();
    }
    // PromptTemplate fills the phrase in with String.format: keep any % literal.
    String formatted = instructions.replace("%", "%%").replace(ABSTENTION, "%s");
    return new PromptTemplate("file:" + name, language, formatted, sourcesHeader, questionHeader, abstention);
  }

  private static void checkPlaceholders(String where, int n, String line, String section) {
    Matcher m = PLACEHOLDER.matcher(line);
    while (m.find()) {
      String p = m.group(1);
      if (!p.equals("abstention") && !p.equals("citeExample")) {
        throw error(where, n, "unknown placeholder {{" + p + "}}: the placeholders are " + ABSTENTION + " and "
            + PromptTemplate.CITE_EXAMPLE);
      }
      if (!section.equals("instructions")) {
        throw error(where, n, "placeholder {{" + p + "}} is allowed only in [instructions]");
      }
    }
  }

  private static String header(String where, Map<String, List<String>> sections, Map<String, Integer> at, String s) {
    String h = text(sections.get(s));
    if (h.isEmpty()) throw error(where, at.get(s), "section [" + s + "] is empty: give its header line");
    if (h.contains("\n")) throw error(where, at.get(s), "section [" + s + "] must be one line");
    return h;
  }

  /** The section's lines joined, without leading or trailing blank lines. */
  private static String text(List<String> lines) {
    int a = 0;
    int b = lines.size();
    while (a < b && lines.get(a).isBlank()) a++;
    while (b > a && lines.get(b - 1).isBlank()) b--;
    List<String> kept = new ArrayList<>();
    for (String l : lines.subList(a, b)) kept.add(l.stripTrailing());
    return String.join("\n", kept);
  }

  private static IllegalArgumentException error(String where, int line, String message) {
    return new IllegalArgumentException(where + ":" + line + ": " + message);
  }
}
