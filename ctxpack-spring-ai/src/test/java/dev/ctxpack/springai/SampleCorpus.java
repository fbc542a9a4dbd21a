package dev.ctxpack.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.token.Tokenizers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.ai.document.Document;

/**
 * A slice of the bundled sample corpus (24 SciFact abstracts, 12 FaQuAD passages), ingested once per
 * JVM into a real Lucene index with the real MiniLM embedder, and the same texts as Spring AI
 * documents (other ids, other metadata) for a {@code SimpleVectorStore}.
 */
final class SampleCorpus {
  static final int SCIFACT = 24;
  static final int FAQUAD = 12;
  static final MiniLmEmbedder EMBEDDER = new MiniLmEmbedder();
  private static Path index;
  private static List<String> lines;

  private SampleCorpus() {}

  /** The index directory (ingested on first use). */
  static synchronized Path index() {
    if (index != null) return index;
    try {
      Path work = Files.createTempDirectory("ctxpack-spring-ai-test");
      work.toFile().deleteOnExit();
      Path corpus = Files.writeString(work.resolve("sample.jsonl"), String.join("\n", lines()) + "\n");
      Path dir = work.resolve("index");
      try (Index i = Indexes.open(IndexSpec.ofPath(dir))) {
        IngestOptions io = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), EMBEDDER);
        new Ingestor(i, Loaders.defaults(), io, null).ingest(List.of(corpus));
      }
      index = dir;
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String spec() {
    return "lucene:" + index();
  }

  /** The slice as Spring AI documents: random ids, metadata of another retriever. */
  static List<Document> documents() {
    ObjectMapper json = new ObjectMapper();
    List<Document> out = new ArrayList<>();
    for (String l : lines()) {
      try {
        JsonNode d = json.readTree(l);
        out.add(new Document(d.path("text").asText(), Map.of("source", "vector-store", "title", d.path("title").asText(),
            "sample_id", d.path("_id").asText())));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static synchronized List<String> lines() {
    if (lines == null) {
      List<String> all = new ArrayList<>(read("scifact-sample.jsonl", SCIFACT));
      all.addAll(read("faquad-sample.jsonl", FAQUAD));
      lines = List.copyOf(all);
    }
    return lines;
  }

  private static List<String> read(String name, int n) {
    try (InputStream in = SampleCorpus.class.getResourceAsStream("/dev/ctxpack/app/samples/" + name);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return r.lines().limit(n).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
