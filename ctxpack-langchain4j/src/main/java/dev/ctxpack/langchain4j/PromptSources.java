package dev.ctxpack.langchain4j;

import dev.ctxpack.verify.VerifySource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The labelled sources and the question of a prompt ctxpack rendered, read back from its text: the
 * fences ({@code <source id="S1" ...>} or {@code <source-TOKEN id="S1" ...>}, closed by the same tag)
 * and the text after the template's last question header. Used when the contents an augmentation
 * reports are not the ones ctxpack packed (the injector packed raw contents itself).
 */
final class PromptSources {
  private static final Pattern FENCE = Pattern.compile(
      "<(source(?:-[0-9a-f]+)?) id=\"([^\"]+)\"[^>\\n]*>\\n(.*?)\\n</\\1>", Pattern.DOTALL);
  private static final Pattern QUESTION = Pattern.compile("\\n(?:QUESTION|PERGUNTA)\\n(.*)\\z", Pattern.DOTALL);

  private PromptSources() {}

  /** The fenced sources of {@code prompt}, in order, each label once; empty when it holds none. */
  static List<VerifySource> sources(String prompt) {
    List<VerifySource> out = new ArrayList<>();
    if (prompt == null) return out;
    Set<String> seen = new LinkedHashSet<>();
    Matcher m = FENCE.matcher(prompt);
    while (m.find()) {
      if (seen.add(m.group(2))) out.add(new VerifySource(m.group(2), m.group(3)));
    }
    return out;
  }

  /** The question after the last question header, or null. */
  static String question(String prompt) {
    if (prompt == null) return null;
    int at = Math.max(prompt.lastIndexOf("\nQUESTION\n"), prompt.lastIndexOf("\nPERGUNTA\n"));
    if (at < 0) return null;
    Matcher m = QUESTION.matcher(prompt.substring(at));
    return m.find() ? m.group(1).strip() : null;
  }
}
