package dev.ctxpack.guard;

import dev.ctxpack.model.GuardReport.Edit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes a source's text safe to place inside its fence, visibly: invisible characters ({@link
 * Invisible}) are removed, and text that looks like a prompt's structure is neutralised where a
 * reader can see it, keeping it readable:
 *
 * <ul>
 *   <li>{@code fence}: the {@code <} of {@code <source}, {@code </source} becomes {@code ‹};
 *   <li>{@code chatToken}: {@code <|im_start|>} becomes {@code ‹|im_start|›} (any {@code <|} and {@code |>},
 *       and the full-width {@code <｜ ｜>} of some tokenizers);
 *   <li>{@code roleTag}: {@code <system>}, {@code </s>}, {@code <tool_call>} and the like take {@code ‹ ›};
 *       {@code [INST]}, {@code [/INST]}, {@code [SYSTEM_PROMPT]}... take full-width {@code ［ ］};
 *       {@code <<SYS>>} becomes {@code ‹‹SYS››};
 *   <li>{@code header}: a line that starts like a role label or header ({@code System:}, {@code Human:},
 *       {@code Assistant:}, {@code ### Instruction}, {@code Usuário:}) or is one of the template's section
 *       headers ({@code SOURCES}, {@code QUESTION}, {@code FONTES}, {@code PERGUNTA}) is prefixed with
 *       {@value #LINE_MARK}.
 * </ul>
 *
 * Every change is an {@link Edit} with offsets in the text given, so the original is recoverable
 * and the source's document spans stay valid. Escapes change single characters or insert, and never
 * overlap a stripped character.
 */
public final class Sanitizer {
  /** Put before a line that looks like a role label or a section header. */
  public static final String LINE_MARK = "│ ";

  static final Pattern FENCE = Pattern.compile("(<)(?=\\s*/?\\s*source)", Pattern.CASE_INSENSITIVE);
  static final Pattern CHAT_OPEN = Pattern.compile("(<)(?=[|｜])");
  static final Pattern CHAT_CLOSE = Pattern.compile("(?<=[|｜])(>)");
  static final Pattern ROLE_TAG = Pattern.compile(
      "(<)(\\s*/?\\s*(?:system|user|assistant|human|developer|tool|tool_call|tool_calls|tool_use|tool_code|tool_response|tool_result"
          + "|function_call|function_calls|functioncall|invoke|im_start|im_end|start_of_turn|end_of_turn|s|bos|eos|think"
          + "|instructions?|antml:[a-z_]+)\\b[^<>\\n]{0,60})(>)",
      Pattern.CASE_INSENSITIVE);
  static final Pattern SYS = Pattern.compile("(<<)(\\s*/?\\s*SYS\\s*)(>>)", Pattern.CASE_INSENSITIVE);
  static final Pattern BRACKET = Pattern.compile(
      "(\\[)(\\s*/?\\s*(?:INST|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS|SYS)\\s*)(\\])", Pattern.CASE_INSENSITIVE);
  static final Pattern HEADER = Pattern.compile(
      "^[ \\t]*(?=(?:#{1,6}[ \\t]*)?(?:system|assistant|user|human|developer|sistema|usu[aá]rio|assistente)"
          + "(?:[ \\t]+(?:message|prompt|mensagem))?[ \\t]*:"
          + "|#{1,6}[ \\t]*(?:system|sistema|instructions?|instru[cç][aã]o|instru[cç][oõ]es|response|resposta|input|entrada"
          + "|assistant|assistente|user|usu[aá]rio)\\b"
          + "|(?:sources|question|fontes|pergunta)[ \\t]*:?[ \\t]*$)",
      Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);

  /** The sanitized text, the edits from the original to it, and counts by kind. */
  public record Result(String text, List<Edit> edits, Map<String, Integer> stripped, Map<String, Integer> escaped) {}

  private Sanitizer() {}

  public static Result sanitize(String original) {
    return sanitize(original, false);
  }

  /** {@link #sanitize(String)}, mapping every kept character even in a text without invisible ones when {@code mapAlways} (for tests). */
  static Result sanitize(String original, boolean mapAlways) {
    List<Edit> edits = new ArrayList<>();
    Map<String, Integer> stripped = new TreeMap<>();
    Map<String, Integer> escaped = new TreeMap<>();
    // 1. strip, remembering where each kept char came from (nothing to remember in a text without any)
    String s = original;
    int[] from = null;
    if (mapAlways || hasInvisible(original)) {
      StringBuilder kept = new StringBuilder(original.length());
      from = new int[original.length() + 1];
      for (int i = 0; i < original.length(); ) {
        int cp = original.codePointAt(i);
        int n = Character.charCount(cp);
        String kind = Invisible.kind(cp);
        if (kind != null) {
          stripped.merge(kind, 1, Integer::sum);
          edits.add(new Edit(i, i + n, "strip:" + kind, ""));
        } else {
          for (int k = 0; k < n; k++) {
            from[kept.length()] = i + k;
            kept.append(original.charAt(i + k));
          }
        }
        i += n;
      }
      from[kept.length()] = original.length();
      s = kept.toString();
    }
    // 2. escapes over the stripped text, as single-character swaps or insertions
    List<Edit> esc = new ArrayList<>();
    // Each pattern needs its bracket: a text without one is not scanned for it.
    // Each of these patterns' matches starts with its bracket: it is tried only where one is.
    swaps(FENCE, '<', s, 1, "‹", null, null, "fence", esc, escaped);
    swaps(CHAT_OPEN, '<', s, 1, "‹", null, null, "chatToken", esc, escaped);
    swaps(CHAT_CLOSE, '>', s, 1, "›", null, null, null, esc, escaped);
    swaps(ROLE_TAG, '<', s, 1, "‹", 3, "›", "roleTag", esc, escaped);
    swaps(SYS, '<', s, 1, "‹‹", 3, "››", "roleTag", esc, escaped);
    swaps(BRACKET, '[', s, 1, "［", 3, "］", "roleTag", esc, escaped);
    Matcher h = HEADER.matcher(s);
    // A header starts a line: in a text of one line, only at its start.
    boolean oneLine = oneLine(s);
    while (oneLine ? h.lookingAt() : h.find()) {
      esc.add(new Edit(h.end(), h.end(), "escape:header", LINE_MARK));
      escaped.merge("header", 1, Integer::sum);
      if (oneLine) break;
    }
    // Two patterns may claim one character (a fence tag is not a role tag, but be safe): first wins.
    esc.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
    int lastEnd = -1;
    for (Edit e : esc) {
      if (e.end() > e.start() && e.start() < lastEnd) continue;
      int start = from == null ? e.start() : from[e.start()];
      int end = e.end() == e.start() ? start : (from == null ? e.end() - 1 : from[e.end() - 1]) + 1;
      edits.add(new Edit(start, end, e.kind(), e.replacement()));
      lastEnd = Math.max(lastEnd, e.end());
    }
    edits.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
    return new Result(edits.isEmpty() ? original : apply(original, edits), edits, stripped, escaped);
  }

  /** Whether {@code text} holds a character {@link Invisible} names. */
  private static boolean hasInvisible(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 0x00AD && Invisible.kind(Character.isHighSurrogate(c) ? text.codePointAt(i) : c) != null) return true;
    }
    return false;
  }

  /** {@code original} with {@code edits} (sorted, not overlapping) applied. */
  public static String apply(String original, List<Edit> edits) {
    StringBuilder out = new StringBuilder(original.length() + 16);
    int at = 0;
    for (Edit e : edits) {
      out.append(original, at, e.start()).append(e.replacement());
      at = e.end();
    }
    return out.append(original, at, original.length()).toString();
  }

  /** One edit per character, so that none spans a stripped character. */
  private static void perChar(int start, String replacement, String kind, List<Edit> out) {
    for (int j = 0; j < replacement.length(); j++) out.add(new Edit(start + j, start + j + 1, "escape:" + kind, replacement.substring(j, j + 1)));
  }

  /** Whether {@code s} holds no line terminator of {@link Pattern#MULTILINE}'s {@code ^}. */
  private static boolean oneLine(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') return false;
    }
    return true;
  }

  /**
   * The swaps for each match of {@code p}, whose every match starts with the character {@code first}:
   * the matches {@link Matcher#find} gives, found by trying the pattern only where {@code first} is
   * (with transparent bounds, so that look-arounds and word boundaries see the whole text).
   */
  private static void swaps(Pattern p, char first, String s, int g1, String r1, Integer g2, String r2, String kind, List<Edit> out,
      Map<String, Integer> counts) {
    int at = s.indexOf(first);
    if (at < 0) return;
    Matcher m = p.matcher(s).useTransparentBounds(true).useAnchoringBounds(false);
    String k = kind != null ? kind : "chatToken";
    for (; at >= 0; at = s.indexOf(first, at)) {
      m.region(at, s.length());
      if (!m.lookingAt()) {
        at++;
        continue;
      }
      at = Math.max(m.end(), at + 1);
      perChar(m.start(g1), r1, k, out);
      if (g2 != null) perChar(m.start(g2), r2, k, out);
      if (kind != null) counts.merge(kind, 1, Integer::sum);
    }
  }
}
