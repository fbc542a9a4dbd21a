package dev.ctxpack.bench.pipeline;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * How much text each ingest pipeline gives the model, in the word pieces MiniLM reads (its
 * tokenizer, truncating at 128 pieces as the model does): the peer's one text per document ({@code
 * title + " " + text}), the same documents read whole, and ctxpack's windows and sentences as {@code
 * ingest} lists them (the real {@link Ingestor} over a scratch index, with an embedder that counts
 * what it is given instead of running the model). Hand-run; docs/BENCHMARKS.md, "What an ingest
 * gives the model".
 *
 * <pre>java -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.pipeline.EmbeddedText ../shared/data/scifact/beir_test/corpus.jsonl</pre>
 */
public final class EmbeddedText {
  private static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";

  private EmbeddedText() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: EmbeddedText CORPUS.jsonl (BEIR: id, title, text per line)");
      System.exit(2);
    }
    Path corpus = Path.of(args[0]);
    Path tokenizerFile = Files.createTempFile("ctxpack-tokenizer", ".json");
    try (InputStream in = EmbeddedText.class.getClassLoader().getResourceAsStream(TOKENIZER)) {
      if (in == null) throw new IOException("no " + TOKENIZER + " on the class path");
      Files.copy(in, tokenizerFile, StandardCopyOption.REPLACE_EXISTING);
    }
    try (HuggingFaceTokenizer truncating = HuggingFaceTokenizer.newInstance(tokenizerFile,
            Map.of("padding", "false", "truncation", "true", "maxLength", "128"));
        HuggingFaceTokenizer whole = HuggingFaceTokenizer.newInstance(tokenizerFile,
            Map.of("padding", "false", "truncation", "false"))) {
      long docs = 0;
      long peer = 0;
      long all = 0;
      long truncated = 0;
      ObjectMapper json = new ObjectMapper();
      try (BufferedReader r = Files.newBufferedReader(corpus)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (line.isBlank()) continue;
          JsonNode d = json.readTree(line);
          String body = d.path("title").asText("") + " " + d.path("text").asText("");
          int seen = truncating.encode(body).getIds().length;
          int pieces = whole.encode(body).getIds().length;
          docs++;
          peer += seen;
          all += pieces;
          if (pieces > seen) truncated++;
        }
      }
      System.out.printf(Locale.ROOT, "%-58s %8s %12s %8s%n", "what the model reads", "texts", "word pieces", "x peer");
      row("peer: title + text per document, truncated at 128 pieces", docs, peer, peer);
      row("the same documents read whole (each piece once)", docs, all, peer);
      System.out.printf(Locale.ROOT, "(%d of %d documents are longer than the peer's 128 pieces)%n", truncated, docs);
      long[] windows = ctxpack(corpus, truncating, false);
      long[] both = ctxpack(corpus, truncating, true);
      row("ctxpack: vector windows of its chunks (as shipped)", windows[0], windows[1], peer);
      row("ctxpack: its sentences alone (sentence vectors)", both[0] - windows[0], both[1] - windows[1], peer);
      row("ctxpack: both, as ingest embeds by default", both[0], both[1], peer);
    }
    Files.deleteIfExists(tokenizerFile);
  }

  private static void row(String what, long texts, long pieces, long peer) {
    System.out.printf(Locale.ROOT, "%-58s %8d %12d %8.2f%n", what, texts, pieces, pieces / (double) peer);
  }

  /** The texts and word pieces ctxpack's ingest of {@code corpus} gives the model, with or without sentence vectors. */
  private static long[] ctxpack(Path corpus, HuggingFaceTokenizer tokenizer, boolean sentenceVectors) throws IOException {
    MiniLmEmbedder model = new MiniLmEmbedder();
    AtomicLong texts = new AtomicLong();
    AtomicLong pieces = new AtomicLong();
    Embedder counting = new Embedder() {
      @Override
      public String id() {
        return model.id();
      }

      @Override
      public int dimension() {
        return model.dimension();
      }

      @Override
      public double readableShare(String text) {
        return model.readableShare(text);
      }

      @Override
      public List<float[]> embed(List<String> batch) {
        List<float[]> out = new ArrayList<>(batch.size());
        for (String t : batch) {
          texts.incrementAndGet();
          pieces.addAndGet(tokenizer.encode(t).getIds().length);
          // A distinct unit vector per text, so that no window is taken for a repeat of another.
          float[] v = new float[model.dimension()];
          java.util.SplittableRandom random = new java.util.SplittableRandom(t.hashCode());
          for (int i = 0; i < v.length; i++) v[i] = (float) random.nextGaussian();
          out.add(Embedder.normalize(v));
        }
        return out;
      }
    };
    Path scratch = Files.createTempDirectory("ctxpack-embedded-text");
    try (LuceneIndex index = LuceneIndex.open(scratch.resolve("index"))) {
      IngestOptions options = CtxpackPipeline.options(counting, null, CtxpackPipeline.CHUNK_TOKENS)
          .withSentenceVectors(sentenceVectors);
      IngestSummary s = new Ingestor(index, Loaders.defaults(), options, null).ingest(List.of(corpus));
      if (!s.failed().isEmpty()) throw new IOException("ingest failed: " + s.failed().get(0));
    } finally {
      try (Stream<Path> walk = Files.walk(scratch)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
    }
    return new long[] {texts.get(), pieces.get()};
  }
}
