package dev.ctxpack.pack;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.llm.ChatMessage;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Source;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a package's plan, step after step:
 *
 * <ol>
 *   <li>each step's prompt has its placeholders {@code {{step:N}}} (only those of steps it {@code
 *       sees}) replaced by those steps' outputs, in one pass (an output is never scanned for
 *       placeholders); fence look-alikes in an output ({@code <notes}, {@code <source}) are escaped
 *       with {@code ‹}; if the filled prompt counts more than the package's limit (seams between
 *       an output and its fence), the longest output is cut until it fits;
 *   <li><b>with a model</b> ({@link LlmClient}, e.g. any OpenAI-compatible endpoint), every step is
 *       one call with the filled prompt as the user message; an intermediate output longer than its
 *       step's {@code maxOutput} is cut to it (and marked {@code truncated}); the last step's reply
 *       is the answer;
 *   <li><b>offline</b> (no model), every intermediate step is run by the extractive compressor: the
 *       sources it sees (their guarded prompt text) and the notes of the steps it sees are compressed,
 *       query-aware and verbatim, to the step's {@code maxOutput}, and written one kept passage a
 *       line, each ending with its source's label ({@code "… [S3]"}); the last step is not run: its
 *       filled prompt, ready to send to a model, is {@link Execution#finalPrompt()}, and there is no
 *       answer.
 * </ol>
 *
 * Token counts are this executor's tokenizer's (the request's), not the endpoint's usage report.
 */
public final class PlanExecutor {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{step:(\\d+)\\}\\}");

  /**
   * One step as run: {@code by} is {@code llm}, {@code extractive} (offline) or {@code pending} (the
   * last step offline: not run); {@code tokensIn} what its filled prompt counts, {@code tokensOut}
   * its output.
   */
  public record StepRun(int step, String kind, String by, String output, int tokensIn, int tokensOut, boolean truncated) {}

  /**
   * A plan run: the model used ({@code null} offline), each step, the last step's filled prompt and
   * the answer ({@code null} offline).
   */
  public record Execution(String llm, List<StepRun> steps, String finalPrompt, String answer) {
    public Execution {
      steps = List.copyOf(steps);
    }

    /** Model calls made (0 offline). */
    public int calls() {
      return (int) steps.stream().filter(s -> s.by().equals("llm")).count();
    }

    /** Tokens read over every step, the last step's prompt included (what a model would read). */
    public int tokensIn() {
      return steps.stream().mapToInt(StepRun::tokensIn).sum();
    }

    public int tokensOut() {
      return steps.stream().mapToInt(StepRun::tokensOut).sum();
    }
  }

  private final LlmClient llm;
  private final Compressor compressor;
  private final Tokenizer tok;
  private final LanguageDetector languages = new LanguageDetector();

  /** An executor calling {@code llm} ({@code null}: offline, with {@code compressor}), counting with {@code tok}. */
  public PlanExecutor(LlmClient llm, Compressor compressor, Tokenizer tok) {
    this.llm = llm;
    this.compressor = Objects.requireNonNull(compressor, "compressor");
    this.tok = Objects.requireNonNull(tok, "tokenizer");
  }

  /** A kept piece of evidence carried from step to step offline. */
  private record Entry(String label, String text) {}

  public Execution execute(ContextPackage p) throws IOException {
    List<PlanStep> plan = p.plan();
    if (plan.isEmpty()) throw new IllegalArgumentException("the package has no plan to run");
    Map<String, Source> byLabel = new HashMap<>();
    for (Source s : p.sources()) byLabel.put(s.label(), s);
    Language lang = languages.detect(p.query()) == Language.PT ? Language.PT : Language.EN;
    int limit = p.budget().limit();
    Map<Integer, String> outputs = new HashMap<>();
    Map<Integer, List<Entry>> notes = new HashMap<>();
    List<StepRun> runs = new ArrayList<>(plan.size());
    String finalPrompt = null;
    String answer = null;
    for (int i = 0; i < plan.size(); i++) {
      PlanStep step = plan.get(i);
      boolean last = i == plan.size() - 1;
      String prompt = fill(step, outputs, limit);
      int in = tok.count(prompt);
      if (last) finalPrompt = prompt;
      if (llm != null) {
        String out = llm.chat(List.of(ChatMessage.user(prompt)));
        boolean cut = false;
        if (!last && step.maxOutput() > 0 && tok.count(out) > step.maxOutput()) {
          out = tok.truncate(out, step.maxOutput()).text();
          cut = true;
        }
        outputs.put(step.step(), out);
        runs.add(new StepRun(step.step(), step.kind(), "llm", out, in, tok.count(out), cut));
        if (last) answer = out;
      } else if (last) {
        runs.add(new StepRun(step.step(), step.kind(), "pending", "", in, 0, false));
      } else {
        List<Entry> entries = new ArrayList<>();
        for (String seen : step.sees()) {
          if (seen.startsWith("step:")) {
            entries.addAll(notes.getOrDefault(Integer.parseInt(seen.substring(5)), List.of()));
          } else {
            Source s = byLabel.get(seen);
            if (s == null) throw new IllegalArgumentException("step " + step.step() + " sees " + seen + ", which is no source");
            entries.add(new Entry(s.label(), s.guard().promptText() != null ? s.guard().promptText() : s.text()));
          }
        }
        List<Entry> kept = extract(p.query(), entries, step.maxOutput());
        notes.put(step.step(), kept);
        String out = kept.isEmpty() ? PlanPrompts.nothing(lang) : render(kept);
        outputs.put(step.step(), out);
        runs.add(new StepRun(step.step(), step.kind(), "extractive", out, in, tok.count(out), false));
      }
    }
    return new Execution(llm == null ? null : llm.id(), runs, finalPrompt, answer);
  }

  /**
   * The query-aware extract of {@code entries} whose rendering (one line per kept entry, ending with
   * its label) counts at most {@code bound} tokens.
   */
  private List<Entry> extract(String query, List<Entry> entries, int bound) throws IOException {
    if (entries.isEmpty()) return List.of();
    List<CompressInput> inputs = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      if (e.text().isBlank()) continue;
      inputs.add(CompressInput.of("e" + i, e.text()));
    }
    if (inputs.isEmpty()) return List.of();
    // Start from the bound less one label; the labels of what is kept are paid below, shrinking while over.
    int budget = bound > 0 ? Math.max(1, bound - tok.count(" [S10]\n")) : 0;
    while (true) {
      Compression c = bound > 0
          ? compressor.compress(query, inputs, CompressOptions.budget(budget))
          : compressor.compress(query, inputs, CompressOptions.threshold(Double.NEGATIVE_INFINITY));
      List<Entry> kept = new ArrayList<>();
      for (Compression.Compressed k : c.passages()) {
        kept.add(new Entry(entries.get(Integer.parseInt(k.id().substring(1))).label(), k.text()));
      }
      if (bound <= 0 || kept.isEmpty()) return kept;
      int over = tok.count(render(kept)) - bound;
      if (over <= 0) return kept;
      if (budget <= 1) return List.of();
      budget = Math.max(1, budget - Math.max(over, 1));
    }
  }

  private static String render(List<Entry> kept) {
    StringBuilder sb = new StringBuilder();
    for (Entry e : kept) {
      if (sb.length() > 0) sb.append('\n');
      sb.append(e.text().strip()).append(" [").append(e.label()).append(']');
    }
    return sb.toString();
  }

  /**
   * {@code step}'s prompt with each placeholder of a step it sees replaced by that step's output
   * (fence look-alikes escaped); while it counts over {@code limit}, the longest output is cut.
   */
  String fill(PlanStep step, Map<Integer, String> outputs, int limit) {
    Set<Integer> seen = new HashSet<>();
    for (String s : step.sees()) if (s.startsWith("step:")) seen.add(Integer.parseInt(s.substring(5)));
    if (seen.isEmpty()) return step.prompt();
    Map<Integer, String> use = new HashMap<>();
    for (int n : seen) use.put(n, escapeFences(outputs.getOrDefault(n, "")));
    for (int round = 0; ; round++) {
      String filled = replace(step.prompt(), use);
      int over = tok.count(filled) - limit;
      if (over <= 0 || round == 20) return filled;
      int longest = use.entrySet().stream().max(Map.Entry.<Integer, String>comparingByValue(
          java.util.Comparator.comparingInt(tok::count)).thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
      String o = use.get(longest);
      use.put(longest, tok.truncate(o, Math.max(0, tok.count(o) - over - 2)).text());
    }
  }

  private static String replace(String prompt, Map<Integer, String> use) {
    Matcher m = PLACEHOLDER.matcher(prompt);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String out;
      try {
        out = use.get(Integer.parseInt(m.group(1)));
      } catch (NumberFormatException e) {
        out = null;
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(out != null ? out : m.group()));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** An output may not open or close a fence of the prompt it goes into. */
  static String escapeFences(String s) {
    return s.replace("</notes", "‹/notes").replace("<notes", "‹notes")
        .replace("</source", "‹/source").replace("<source", "‹source");
  }
}
