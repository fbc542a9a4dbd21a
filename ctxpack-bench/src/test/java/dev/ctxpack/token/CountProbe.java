package dev.ctxpack.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Hand-run probe (not a test): what {@link JTokkitTokenizer#count} (o200k) spends per character on
 * text whose words it has met before, the case of a service counting passages, blocks and sentences of
 * a corpus it keeps seeing: every document of a BEIR corpus counted once to warm the segment memory,
 * then {@code rounds} passes, the best one reported; docs/BENCHMARKS.md, "`pack` on a budget of its
 * own".
 *
 * <pre>java -cp ctxpack-bench/target/test-classes:ctxpack-bench/target/ctxpack-bench.jar \
 *     dev.ctxpack.token.CountProbe ../shared/data/scifact/beir_test/corpus.jsonl 10</pre>
 */
public final class CountProbe {
  private CountProbe() {}

  public static void main(String[] args) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> texts = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(Path.of(args[0]))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        JsonNode d = json.readTree(line);
        texts.add(d.path("title").asText("") + "\n\n" + d.path("text").asText(""));
      }
    }
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Tokenizer tok = JTokkitTokenizer.of(com.knuddels.jtokkit.api.EncodingType.O200K_BASE);
    long chars = 0;
    long tokens = 0;
    for (String t : texts) {
      chars += t.length();
      tokens += tok.count(t);
    }
    double best = Double.MAX_VALUE;
    for (int round = 0; round < rounds; round++) {
      long t0 = System.nanoTime();
      long n = 0;
      for (String t : texts) n += tok.count(t);
      best = Math.min(best, (double) (System.nanoTime() - t0));
      if (n != tokens) throw new IllegalStateException("count changed between passes: " + tokens + " then " + n);
    }
    System.out.printf(Locale.ROOT, "count: %d texts, %d chars, %d tokens; best of %d passes %.1f ms, %.2f ns per char%n",
        texts.size(), chars, tokens, rounds, best / 1e6, best / chars);
  }
}
