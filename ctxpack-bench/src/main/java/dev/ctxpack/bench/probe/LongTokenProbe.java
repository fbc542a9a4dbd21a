package dev.ctxpack.bench.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.Tokenizers;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The probe of one unreadable file among real abstracts: the first 30 SciFact abstracts as {@code
 * .txt} files (text only), one {@code .txt} holding "Intro. " and a 40,000-letter pseudo-random word
 * (seed 23), ingested with the defaults (300-token chunks, ~100-token windows, MiniLM, sentence
 * vectors); each abstract's title is a query. Prints, for dense and hybrid, how many titles find
 * their abstract first and how many of the 150 top-5 slots the junk file's chunks fill.
 *
 * <pre>java -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.probe.LongTokenProbe DATA_DIR WORK_DIR</pre>
 */
public final class LongTokenProbe {
  private LongTokenProbe() {}

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    Path work = Files.createDirectories(Path.of(args.length > 1 ? args[1] : "ctxpack-bench/target/long-token-probe"));
    Path corpus = Files.createDirectories(work.resolve("corpus"));
    List<String> titles = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    try (BufferedReader r = Files.newBufferedReader(data.resolve("scifact/beir_test/corpus.jsonl"), StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null && titles.size() < 30; line = r.readLine()) {
        JsonNode d = json.readTree(line);
        Files.writeString(corpus.resolve(String.format("doc%02d.txt", titles.size())), d.get("text").asText());
        titles.add(d.get("title").asText());
      }
    }
    Random random = new Random(23);
    StringBuilder junk = new StringBuilder("Intro. ");
    for (int i = 0; i < 40_000; i++) junk.append((char) ('a' + random.nextInt(26)));
    Files.writeString(corpus.resolve("zz-asset.txt"), junk.toString());
    Path indexDir = work.resolve("index-" + System.nanoTime());
    Embedder minilm = Embedders.byName("minilm");
    try (Index index = Indexes.open(IndexSpec.ofPath(indexDir))) {
      var summary = new Ingestor(index, Loaders.defaults(),
          IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), minilm), null).ingest(List.of(corpus));
      System.out.printf("ingested %d documents, %d chunks, %d vectors%n", summary.added(), summary.chunks(),
          index.stats().vectors());
      String junkId = index.findBySourcePath(corpus.resolve("zz-asset.txt").toAbsolutePath().toString()).get(0).id();
      HybridRetriever retriever = new HybridRetriever(index, minilm);
      for (RetrievalMode mode : List.of(RetrievalMode.DENSE, RetrievalMode.HYBRID)) {
        int top1 = 0;
        int junkSlots = 0;
        for (int i = 0; i < titles.size(); i++) {
          String expected = index.findBySourcePath(
              corpus.resolve(String.format("doc%02d.txt", i)).toAbsolutePath().toString()).get(0).id();
          List<Candidate> top = retriever.retrieve(titles.get(i), RetrievalOptions.of(mode, 5), new Trace());
          if (!top.isEmpty() && top.get(0).doc().id().equals(expected)) top1++;
          junkSlots += (int) top.stream().limit(5).filter(c -> c.doc().id().equals(junkId)).count();
        }
        System.out.printf("%s: top-1 %d/%d, junk chunks in %d of %d top-5 slots%n", mode.name().toLowerCase(),
            top1, titles.size(), junkSlots, 5 * titles.size());
      }
    }
  }
}
