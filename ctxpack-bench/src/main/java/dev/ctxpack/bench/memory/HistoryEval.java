package dev.ctxpack.bench.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.assemble.DefaultHistoryCompactor;
import dev.ctxpack.assemble.HistoryCompactor;
import dev.ctxpack.assemble.MessageCost;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * History compaction on synthetic long conversations built from real QA data (SQuAD 2.0 dev, en;
 * FaQuAD, pt). A conversation walks through {@link #PARAGRAPHS} paragraphs: for each, the assistant
 * calls a {@code search} tool whose result is the paragraph, then the user asks up to {@link
 * #QUESTIONS} of its answerable questions and the assistant answers each with the paragraph's
 * sentence that holds the answer (the answer-bearing fact). The current query re-asks a question of
 * the first half of the conversation (older turns). At several budgets (shares of the whole
 * history's cost), measured: the share of the conversation's answers still present in the compacted
 * history, the share of the answers of older turns (those of the first half), and whether the
 * current query's answer is present; for ctxpack's compactor (prune, keep the newest, summarise the
 * rest query-aware), the same without the query (the summary then bears on the last user turn), and
 * truncation (the newest whole turns that fit, tool pairs kept together), in the same run. On demand only: {@code ./ctxpack eval history}.
 */
@Command(name = "eval history", mixinStandardHelpOptions = true, sortOptions = false,
    description = "History compaction: answer-bearing facts kept at several budgets on conversations built from SQuAD (en) and FaQuAD (pt).")
public final class HistoryEval implements Callable<Integer> {
  static final int PARAGRAPHS = 4;
  static final int QUESTIONS = 5;
  static final double[] SHARES = {0.1, 0.25, 0.5};

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/history).")
  Path out;

  @Option(names = "--conversations", description = "Most conversations per language (default: ${DEFAULT-VALUE}).")
  int conversations = 100;

  private String[] args = new String[0];
  private final Tokenizer tok = Tokenizers.byName("o200k_base");
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  public static int run(String[] args) {
    HistoryEval e = new HistoryEval();
    e.args = args.clone();
    return RunSupport.execute(e, "history", args);
  }

  /** A conversation: its turns, each Q/A's answer and the index of its answer turn, the query and its answer. */
  record Conversation(List<Turn> turns, List<String> answers, List<Integer> answerTurns, String query, String queryAnswer) {}

  @Override
  public Integer call() throws Exception {
    if (conversations < 1) throw new IllegalArgumentException("--conversations must be >= 1, was " + conversations);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/history");
    Files.createDirectories(outDir);
    long started = System.nanoTime();
    Map<String, List<Conversation>> sets = new LinkedHashMap<>();
    sets.put("en", build(CompressData.loadSquad(dataDir.resolve("squad_v2_en/dev-v2.0.json")), Language.EN));
    sets.put("pt", build(CompressData.loadSquad(dataDir.resolve("faquad/train.json")), Language.PT));
    HistoryCompactor compactor = DefaultHistoryCompactor.defaults();
    Map<String, Object> results = new LinkedHashMap<>();
    StringBuilder md = new StringBuilder();
    md.append("| language | conversations | turns (mean) | budget | method | answers kept | older answers kept | query's answer kept | tokens used / budget | ms p50 / p99 |\n");
    md.append("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (var e : sets.entrySet()) {
      List<Conversation> cs = e.getValue();
      double turns = cs.stream().mapToInt(c -> c.turns().size()).average().orElse(0);
      for (double share : SHARES) {
        for (String method : List.of("ctxpack", "ctxpack, no query", "truncate")) {
          double kept = 0, older = 0, target = 0, used = 0;
          int olderCount = 0;
          List<Long> nanos = new ArrayList<>();
          for (Conversation c : cs) {
            int full = c.turns().stream().mapToInt(t -> MessageCost.of(t, tok)).sum();
            int budget = (int) Math.round(full * share);
            long t0 = System.nanoTime();
            List<Turn> got = method.equals("truncate") ? truncate(c.turns(), budget)
                : compactor.compact(method.equals("ctxpack") ? c.query() : "", c.turns(), budget, tok, new Trace()).turns();
            nanos.add(System.nanoTime() - t0);
            int cost = got.stream().mapToInt(t -> MessageCost.of(t, tok)).sum();
            if (cost > budget) throw new IllegalStateException(method + " went over budget: " + cost + " > " + budget);
            used += budget == 0 ? 0 : (double) cost / budget;
            StringBuilder all = new StringBuilder();
            for (Turn t : got) all.append(t.content()).append('\n');
            String text = all.toString();
            int half = c.turns().size() / 2;
            int k = 0, ok = 0, ol = 0, oldN = 0;
            for (int i = 0; i < c.answers().size(); i++) {
              boolean present = text.contains(c.answers().get(i));
              k++;
              if (present) ok++;
              if (c.answerTurns().get(i) < half) {
                oldN++;
                if (present) ol++;
              }
            }
            kept += (double) ok / k;
            if (oldN > 0) {
              older += (double) ol / oldN;
              olderCount++;
            }
            if (text.contains(c.queryAnswer())) target++;
          }
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("answersKept", kept / cs.size());
          r.put("olderAnswersKept", older / Math.max(1, olderCount));
          r.put("queryAnswerKept", target / cs.size());
          r.put("usedOverBudget", used / cs.size());
          java.util.Collections.sort(nanos);
          double p50 = nanos.get(nanos.size() / 2) / 1e6;
          double p99 = nanos.get(Math.min(nanos.size() - 1, (int) Math.ceil(nanos.size() * 0.99) - 1)) / 1e6;
          r.put("millisP50", p50);
          r.put("millisP99", p99);
          results.put(e.getKey() + "/" + share + "/" + method, r);
          md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.0f %% | %s | %.3f | %.3f | %.3f | %.2f | %.1f / %.1f |%n",
              e.getKey(), cs.size(), turns, share * 100, method, kept / cs.size(), older / Math.max(1, olderCount),
              target / cs.size(), used / cs.size(), p50, p99));
        }
      }
    }
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    Files.writeString(outDir.resolve("results.json"), json.writeValueAsString(results), StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
    Map<String, Object> run = new LinkedHashMap<>(Environment.describe());
    run.put("command", "./ctxpack eval history" + String.join("", java.util.Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).toList()));
    run.put("compactor", compactor.id());
    run.put("seconds", (System.nanoTime() - started) / 1e9);
    Files.writeString(outDir.resolve("run.json"), json.writeValueAsString(run), StandardCharsets.UTF_8);
    System.out.print(md);
    return 0;
  }

  /** Conversations of {@link #PARAGRAPHS} consecutive usable paragraphs each, in file order. */
  private List<Conversation> build(List<CompressData.Article> articles, Language language) {
    List<CompressData.Paragraph> usable = new ArrayList<>();
    for (CompressData.Article a : articles) {
      for (CompressData.Paragraph p : a.paragraphs()) {
        if (qa(p, language).size() >= 2) usable.add(p);
      }
    }
    List<Conversation> out = new ArrayList<>();
    for (int start = 0; start + PARAGRAPHS <= usable.size() && out.size() < conversations; start += PARAGRAPHS) {
      List<Turn> turns = new ArrayList<>();
      List<String> answers = new ArrayList<>();
      List<Integer> answerTurns = new ArrayList<>();
      List<String[]> older = new ArrayList<>();
      for (int p = 0; p < PARAGRAPHS; p++) {
        CompressData.Paragraph para = usable.get(start + p);
        String call = "call_" + out.size() + "_" + p;
        turns.add(new Turn("assistant", "", "", "", "[{\"id\":\"" + call + "\",\"type\":\"function\",\"function\":"
            + "{\"name\":\"search\",\"arguments\":\"{}\"}}]", false));
        turns.add(new Turn("tool", para.text(), "search", call, "", false));
        for (String[] q : qa(para, language)) {
          turns.add(Turn.of("user", q[0]));
          answerTurns.add(turns.size());
          turns.add(Turn.of("assistant", q[1]));
          answers.add(q[2]);
          if (p < PARAGRAPHS / 2) older.add(q);
        }
      }
      String[] target = older.get(out.size() % older.size());
      out.add(new Conversation(turns, answers, answerTurns, target[0], target[2]));
    }
    return out;
  }

  /** Up to {@link #QUESTIONS} of the paragraph's answerable questions: question, answering sentence, answer. */
  private List<String[]> qa(CompressData.Paragraph p, Language language) {
    List<String[]> out = new ArrayList<>();
    List<Span> sentences = segmenter.split(p.text(), language);
    for (CompressData.Qa q : p.questions()) {
      if (out.size() == QUESTIONS) break;
      if (q.impossible() || q.answers().isEmpty() || q.question().isBlank()) continue;
      String answer = q.answers().get(0);
      String sentence = null;
      for (Span s : sentences) {
        String t = p.text().substring(s.start(), s.end());
        if (t.contains(answer)) {
          sentence = t;
          break;
        }
      }
      if (sentence == null) continue;
      out.add(new String[] {q.question(), sentence, answer});
    }
    return out;
  }

  /** The newest whole turns that fit, an assistant call kept with its results (none of a pair cut). */
  private List<Turn> truncate(List<Turn> turns, int budget) {
    int used = 0;
    int from = turns.size();
    int i = turns.size();
    while (i > 0) {
      int j = i - 1;
      while (j > 0 && turns.get(j).isToolResult()) j--;
      int c = 0;
      for (int x = j; x < i; x++) c += MessageCost.of(turns.get(x), tok);
      if (used + c > budget) break;
      used += c;
      from = j;
      i = j;
    }
    return turns.subList(from, turns.size());
  }
}
