package dev.ctxpack.bench.minhash;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.similarity.LshIndex;
import dev.ctxpack.similarity.MinHasher;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Throughput and quality of corpus-level near-duplicate detection ({@link MinHasher} + {@link
 * LshIndex}) over a million chunk texts built from real text.
 *
 * <ol>
 *   <li>Texts: the SciFact corpus is cut into sentences ({@link SentenceSegmenter}); every window
 *       of 1 to 5 consecutive sentences of an abstract is a base chunk (overlapping windows of one
 *       abstract are themselves near-duplicates, as overlapping chunks are). Item {@code i} is base
 *       {@code i mod P} in round {@code i / P}: round 0 as it is, later rounds perturbed as corpora
 *       are — re-formatted (case, spacing, punctuation), a word or two replaced or dropped, a number
 *       changed, a notice appended, or half its sentences swapped for another abstract's. Texts are
 *       made in batches outside the timed sections.
 *   <li>Timed, one thread, per batch: shingling alone (the floor: scanning and hashing words),
 *       signatures, then for each item an LSH query (earlier items estimated at or above {@code
 *       --threshold}) followed by its addition — what ingestion does per document.
 *   <li>Quality: on the items built from one abstract in {@code --sample-every}, every pair's exact
 *       Jaccard of word 5-shingles (an inverted index over their shingles) is the truth; the pairs
 *       LSH reported inside the sample are scored against it (precision, recall).
 * </ol>
 * Writes {@code results.md} and {@code results.json} to {@code --out}. On demand only: {@code
 * ./ctxpack eval minhash}.
 */
@Command(name = "eval minhash", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Measures MinHash + LSH near-duplicate detection over chunk texts built from SciFact: chunks/s, memory,"
        + " and precision/recall of the pairs found against exact shingle Jaccard on a sample.")
public final class MinHashEval implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/minhash).")
  Path out;

  @Option(names = "--chunks", description = "Chunk texts to process (default: ${DEFAULT-VALUE}).")
  int chunks = 1_000_000;

  @Option(names = "--threshold", description = "Near-duplicate Jaccard (default: ${DEFAULT-VALUE}).")
  double threshold = 0.8;

  @Option(names = "--sample-every", description = "The quality sample: the items of one abstract in N (default: ${DEFAULT-VALUE}).")
  int sampleEvery = 25;

  @Option(names = "--batch", description = "Texts made per batch, outside the timed sections (default: ${DEFAULT-VALUE}).")
  int batch = 8192;

  private String[] args = new String[0];

  public static int run(String[] args) {
    MinHashEval e = new MinHashEval();
    e.args = args.clone();
    return RunSupport.execute(e, "minhash", args);
  }

  /** A base chunk: its abstract and its sentences' text. */
  record Base(int doc, String text) {}

  @Override
  public Integer call() throws Exception {
    if (chunks < 1) throw new IllegalArgumentException("--chunks must be >= 1, was " + chunks);
    if (!(threshold > 0 && threshold <= 1)) throw new IllegalArgumentException("--threshold must be in (0, 1], was " + threshold);
    if (sampleEvery < 1) throw new IllegalArgumentException("--sample-every must be >= 1, was " + sampleEvery);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path corpus = dataDir.resolve("scifact/beir_test/corpus.jsonl");
    if (!Files.isRegularFile(corpus)) throw new IllegalArgumentException("missing " + corpus + " (--data names the shared data folder)");
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/minhash");

    List<List<String>> abstracts = sentences(corpus);
    List<Base> bases = new ArrayList<>();
    for (int d = 0; d < abstracts.size(); d++) {
      List<String> s = abstracts.get(d);
      for (int start = 0; start < s.size(); start++) {
        for (int len = 1; len <= 5 && start + len <= s.size(); len++) bases.add(new Base(d, String.join(" ", s.subList(start, start + len))));
      }
    }
    int pool = bases.size();
    String[] vocabulary = vocabulary(abstracts);
    System.err.printf(Locale.ROOT, "minhash: %d abstracts, %d base chunks, %d chunk texts%n", abstracts.size(), pool, chunks);

    MinHasher hasher = MinHasher.defaults();
    LshIndex lsh = LshIndex.forHasher(hasher);
    boolean[] inSample = new boolean[chunks];
    List<Integer> sampleItems = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      if (bases.get(i % pool).doc() % sampleEvery == 0) {
        inSample[i] = true;
        sampleItems.add(i);
      }
    }
    long[] found = new long[1024];
    int foundCount = 0;
    long shingleNs = 0;
    long signatureNs = 0;
    long lshNs = 0;
    long chars = 0;
    long sink = 0;
    long candidates = 0;
    String[] texts = new String[batch];
    int[][] sigs = new int[batch][];
    for (int from = 0; from < chunks; from += batch) {
      int n = Math.min(batch, chunks - from);
      for (int k = 0; k < n; k++) {
        texts[k] = text(from + k, bases, abstracts, vocabulary);
        chars += texts[k].length();
      }
      long t0 = System.nanoTime();
      for (int k = 0; k < n; k++) sink += MinHasher.shingles(texts[k], hasher.shingle()).length;
      long t1 = System.nanoTime();
      for (int k = 0; k < n; k++) sigs[k] = hasher.signature(texts[k]);
      long t2 = System.nanoTime();
      for (int k = 0; k < n; k++) {
        int i = from + k;
        int[] hits = lsh.query(sigs[k], threshold);
        candidates += hits.length;
        lsh.add(sigs[k]);
        if (inSample[i]) {
          for (int j : hits) {
            if (!inSample[j]) continue;
            if (foundCount == found.length) found = Arrays.copyOf(found, foundCount * 2);
            found[foundCount++] = ((long) j << 32) | i;
          }
        }
      }
      long t3 = System.nanoTime();
      shingleNs += t1 - t0;
      signatureNs += t2 - t1;
      lshNs += t3 - t2;
      if ((from / batch) % 16 == 0) System.err.printf(Locale.ROOT, "minhash: %d / %d%n", from + n, chunks);
    }
    System.gc();
    Runtime rt = Runtime.getRuntime();
    long heapUsed = rt.totalMemory() - rt.freeMemory();

    // Truth on the sample: exact Jaccard of every pair sharing a shingle.
    long q0 = System.nanoTime();
    long[] truth = exactPairs(sampleItems, bases, abstracts, vocabulary, hasher.shingle(), threshold);
    long qNs = System.nanoTime() - q0;
    long[] reported = Arrays.copyOf(found, foundCount);
    Arrays.sort(reported);
    int both = 0;
    for (long p : reported) if (Arrays.binarySearch(truth, p) >= 0) both++;
    double precision = reported.length == 0 ? 1 : both / (double) reported.length;
    double recall = truth.length == 0 ? 1 : both / (double) truth.length;
    // The estimate's error (about ±0.035 at 128 hashes) blurs the threshold: also score against
    // pairs clearly above it (recall) and pairs not clearly below it (precision).
    long[] clearlyAbove = exactPairs(sampleItems, bases, abstracts, vocabulary, hasher.shingle(), Math.min(1, threshold + 0.05));
    long[] notClearlyBelow = exactPairs(sampleItems, bases, abstracts, vocabulary, hasher.shingle(), threshold - 0.05);
    int above = 0;
    for (long p : clearlyAbove) if (Arrays.binarySearch(reported, p) >= 0) above++;
    int near = 0;
    for (long p : reported) if (Arrays.binarySearch(notClearlyBelow, p) >= 0) near++;
    double recallAbove = clearlyAbove.length == 0 ? 1 : above / (double) clearlyAbove.length;
    double precisionNear = reported.length == 0 ? 1 : near / (double) reported.length;

    double secondsShingle = shingleNs / 1e9;
    double secondsSig = signatureNs / 1e9;
    double secondsLsh = lshNs / 1e9;
    double total = secondsSig + secondsLsh;
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("command", "./ctxpack eval minhash" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining()));
    r.put("chunks", chunks);
    r.put("baseChunks", pool);
    r.put("meanChars", chars / (double) chunks);
    r.put("hashes", hasher.hashes());
    r.put("shingleWords", hasher.shingle());
    r.put("bands", LshIndex.DEFAULT_BANDS);
    r.put("rows", LshIndex.DEFAULT_ROWS);
    r.put("threshold", threshold);
    r.put("shinglingChunksPerSecond", chunks / secondsShingle);
    r.put("signatureChunksPerSecond", chunks / secondsSig);
    r.put("lshChunksPerSecond", chunks / secondsLsh);
    r.put("endToEndChunksPerSecond", chunks / total);
    r.put("pairsReported", candidates);
    r.put("lshBytes", lsh.bytes());
    r.put("heapUsedBytesAfterGc", heapUsed);
    r.put("sampleItems", sampleItems.size());
    r.put("samplePairsTrue", truth.length);
    r.put("samplePairsReported", reported.length);
    r.put("precision", precision);
    r.put("recall", recall);
    r.put("recallClearlyAbove", recallAbove);
    r.put("precisionNotClearlyBelow", precisionNear);
    r.put("exactSampleSeconds", qNs / 1e9);
    r.put("environment", Environment.describe());
    r.put("loadAverageAtEnd", Environment.loadAverage());
    r.put("checksum", sink);
    Files.createDirectories(outDir);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("results.json").toFile(), r);
    String md = String.format(Locale.ROOT, """
        | step (1 thread, %,d chunk texts, mean %.0f chars) | chunks/s |
        |---|---:|
        | shingling only (scan, fold, hash 5-word shingles) — the floor | %,.0f |
        | MinHash signatures (128 hashes) | %,.0f |
        | LSH query + add (16 bands × 8 rows, 8-bit sketch check) | %,.0f |
        | **signatures + LSH, end to end** | **%,.0f** |

        LSH arrays: %.0f MB (%.0f bytes per chunk); heap used after GC at the end: %.0f MB.
        Quality at Jaccard ≥ %.2f on %,d sample chunks (one abstract in %d): %,d true pairs (exact shingle Jaccard),
        %,d reported; precision %.3f, recall %.3f. Recall of pairs at Jaccard ≥ %.2f: %.3f; precision counting
        pairs at Jaccard ≥ %.2f as right: %.3f. Exact all-pairs on the sample: %.1f s.
        """, chunks, chars / (double) chunks, chunks / secondsShingle, chunks / secondsSig, chunks / secondsLsh, chunks / total,
        lsh.bytes() / 1e6, lsh.bytes() / (double) chunks, heapUsed / 1e6, threshold, sampleItems.size(), sampleEvery,
        truth.length, reported.length, precision, recall, Math.min(1, threshold + 0.05), recallAbove, threshold - 0.05,
        precisionNear, qNs / 1e9);
    Files.writeString(outDir.resolve("results.md"), md);
    System.out.print(md);
    return 0;
  }

  /** The sentences of every SciFact abstract, in corpus order. */
  static List<List<String>> sentences(Path corpus) throws Exception {
    ObjectMapper json = new ObjectMapper();
    SentenceSegmenter seg = new SentenceSegmenter();
    List<List<String>> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank()) continue;
        String text = json.readTree(line).path("text").asText();
        List<String> s = new ArrayList<>();
        for (Span sp : seg.split(text, Language.EN)) {
          String t = sp.of(text).strip();
          if (!t.isEmpty()) s.add(t);
        }
        if (!s.isEmpty()) out.add(s);
      }
    }
    return out;
  }

  static String[] vocabulary(List<List<String>> abstracts) {
    java.util.TreeSet<String> words = new java.util.TreeSet<>();
    for (int d = 0; d < abstracts.size() && words.size() < 20_000; d += 7) {
      for (String s : abstracts.get(d)) for (String w : s.split("\\s+")) if (w.matches("[A-Za-z]{4,}")) words.add(w.toLowerCase(Locale.ROOT));
    }
    return words.toArray(new String[0]);
  }

  static final String[] NOTICES = {
    "Copyright © the authors. All rights reserved.",
    "This article is distributed under the terms of the Creative Commons Attribution License.",
    "Este artigo é distribuído sob os termos da licença Creative Commons Atribuição.",
  };

  /** Item {@code i}: base {@code i mod P}, as it is in round 0, perturbed after. Deterministic. */
  static String text(int i, List<Base> bases, List<List<String>> abstracts, String[] vocabulary) {
    int pool = bases.size();
    Base b = bases.get(i % pool);
    int round = i / pool;
    if (round == 0) return b.text();
    SplittableRandom rnd = new SplittableRandom(0x5DEECE66DL * (i + 1L));
    String t = b.text();
    int kind = rnd.nextInt(100);
    if (kind < 25) { // re-formatted: case, spacing, punctuation
      String x = rnd.nextBoolean() ? t.toUpperCase(Locale.ROOT) : t.replace(", ", " , ");
      return x.replace(" ", rnd.nextBoolean() ? "  " : "\n");
    }
    String[] w = t.split(" ");
    if (kind < 55) { // one or two words replaced or dropped
      int edits = 1 + rnd.nextInt(2);
      List<String> words = new ArrayList<>(Arrays.asList(w));
      for (int e = 0; e < edits && words.size() > 1; e++) {
        int at = rnd.nextInt(words.size());
        if (rnd.nextBoolean()) words.set(at, vocabulary[rnd.nextInt(vocabulary.length)]);
        else words.remove(at);
      }
      return String.join(" ", words);
    }
    if (kind < 70) { // a number changed, or one inserted
      String x = t.replaceFirst("\\d+", Integer.toString(rnd.nextInt(1000)));
      return x.equals(t) ? t + " (n = " + rnd.nextInt(1000) + ")" : x;
    }
    if (kind < 85) return t + " " + NOTICES[rnd.nextInt(NOTICES.length)]; // a notice appended
    // Half the sentences swapped for another abstract's: mostly not a near-duplicate.
    List<String> other = abstracts.get(rnd.nextInt(abstracts.size()));
    int half = Math.max(1, w.length / 2);
    return String.join(" ", Arrays.copyOf(w, half)) + " " + other.get(rnd.nextInt(other.size()));
  }

  /**
   * Every pair (earlier << 32 | later) of sample items whose exact shingle Jaccard is at least
   * {@code threshold}, sorted: counts of shared shingles through an inverted index.
   */
  static long[] exactPairs(List<Integer> items, List<Base> bases, List<List<String>> abstracts, String[] vocabulary,
      int w, double threshold) {
    int n = items.size();
    long[][] sets = new long[n][];
    Map<Long, int[]> postings = new java.util.HashMap<>();
    Map<Long, Integer> sizes = new java.util.HashMap<>();
    for (int a = 0; a < n; a++) {
      sets[a] = MinHasher.distinct(MinHasher.shingles(text(items.get(a), bases, abstracts, vocabulary), w));
      for (long s : sets[a]) {
        int size = sizes.getOrDefault(s, 0);
        int[] list = postings.get(s);
        if (list == null) list = new int[2];
        else if (size == list.length) list = Arrays.copyOf(list, size * 2);
        list[size] = a;
        postings.put(s, list);
        sizes.put(s, size + 1);
      }
    }
    long[] out = new long[1024];
    int count = 0;
    int[] shared = new int[n];
    int[] touched = new int[n];
    for (int a = 0; a < n; a++) {
      int t = 0;
      for (long s : sets[a]) {
        int[] list = postings.get(s);
        int size = sizes.get(s);
        for (int k = 0; k < size; k++) {
          int b = list[k];
          if (b >= a) break; // lists are in item order: only earlier items
          if (shared[b]++ == 0) touched[t++] = b;
        }
      }
      for (int k = 0; k < t; k++) {
        int b = touched[k];
        int inter = shared[b];
        shared[b] = 0;
        double j = inter / (double) (sets[a].length + sets[b].length - inter);
        if (j >= threshold) {
          if (count == out.length) out = Arrays.copyOf(out, count * 2);
          out[count++] = ((long) items.get(b) << 32) | items.get(a);
        }
      }
    }
    long[] r = Arrays.copyOf(out, count);
    Arrays.sort(r);
    return r;
  }
}
