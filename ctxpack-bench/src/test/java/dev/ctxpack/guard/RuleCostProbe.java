package dev.ctxpack.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Hand-run probe (not a test): what the injection detector spends on clean text, whole and rule by
 * rule (how many texts each pattern runs on, and for how long), over the first N documents of a BEIR
 * corpus; docs/BENCHMARKS.md, "The injection detector on clean text".
 *
 * <pre>java -cp ctxpack-bench/target/test-classes:ctxpack-bench/target/ctxpack-bench.jar \
 *     dev.ctxpack.guard.RuleCostProbe ../shared/data/scifact/beir_test/corpus.jsonl 3000</pre>
 */
public final class RuleCostProbe {
  private static final int ROUNDS = 20;

  private RuleCostProbe() {}

  public static void main(String[] args) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> texts = new ArrayList<>();
    int max = Integer.parseInt(args[1]);
    try (BufferedReader r = Files.newBufferedReader(Path.of(args[0]))) {
      for (String line = r.readLine(); line != null && texts.size() < max; line = r.readLine()) {
        JsonNode d = json.readTree(line);
        texts.add(d.path("title").asText("") + "\n\n" + d.path("text").asText(""));
      }
    }
    InjectionDetector detector = InjectionDetector.defaults();
    double best = Double.MAX_VALUE;
    int hits = 0;
    for (int round = 0; round < ROUNDS; round++) {
      long t0 = System.nanoTime();
      hits = 0;
      for (String t : texts) hits += detector.detect(t).size();
      best = Math.min(best, (System.nanoTime() - t0) / 1e6);
    }
    System.out.printf(Locale.ROOT, "detect: best of %d rounds %.1f ms for %d texts (%.1f µs each), %d hits%n",
        ROUNDS, best, texts.size(), best * 1000 / texts.size(), hits);
    // Rule by rule, as the detector runs them: the pattern only where the rule may match.
    Map<String, long[]> cost = new LinkedHashMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      for (String t : texts) {
        FoldedText f = FoldedText.of(t);
        FoldedText lines = FoldedText.of(t, true);
        Set<String> words = new HashSet<>(List.of(f.text.split("[^a-z]+")));
        for (InjectionRule r : InjectionRules.DEFAULT) {
          if (r.pattern() == null) continue;
          long[] c = cost.computeIfAbsent(r.id(), k -> new long[2]);
          if (!r.mayMatch(f.text, words)) continue;
          if (round == ROUNDS - 1) c[1]++;
          FoldedText in = r.pattern().pattern().contains("^") ? lines : f;
          long s = System.nanoTime();
          Matcher m = r.pattern().matcher(in.text);
          while (m.find()) hits++;
          if (round == ROUNDS - 1) c[0] += System.nanoTime() - s;
        }
      }
    }
    long all = cost.values().stream().mapToLong(c -> c[0]).sum();
    System.out.printf(Locale.ROOT, "patterns, last round: %.1f ms in all; the costliest:%n", all / 1e6);
    cost.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).limit(8)
        .forEach(e -> System.out.printf(Locale.ROOT, "  %-22s %6.1f ms, run on %5d texts%n", e.getKey(),
            e.getValue()[0] / 1e6, e.getValue()[1]));
  }
}
