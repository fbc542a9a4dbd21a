package dev.ctxpack.bench.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.eval.Judgments;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The BEIR layout: {@code corpus.jsonl} ({@code _id}, {@code title}, {@code text}), {@code
 * queries.jsonl} ({@code _id}, {@code text}) and {@code qrels/<split>.tsv}, tab-separated {@code
 * query-id corpus-id score} after one header line. Scores are the gains; a score of 0 is a judged
 * non-relevant document; negative scores are dropped. Errors name the file and line.
 */
public final class BeirLoader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BeirLoader() {}

  public static Dataset load(String name, Path dir, String split) throws IOException {
    Path corpus = dir.resolve("corpus.jsonl");
    Path queries = dir.resolve("queries.jsonl");
    Path qrels = dir.resolve("qrels").resolve(split + ".tsv");
    try (Reader c = Files.newBufferedReader(corpus, StandardCharsets.UTF_8);
        Reader q = Files.newBufferedReader(queries, StandardCharsets.UTF_8);
        Reader r = Files.newBufferedReader(qrels, StandardCharsets.UTF_8)) {
      return new Dataset(name, readCorpus(c, corpus.toString()), readQueries(q, queries.toString()),
          readQrels(r, qrels.toString()));
    }
  }

  public static List<CorpusDoc> readCorpus(Reader in, String source) throws IOException {
    List<CorpusDoc> out = new ArrayList<>();
    forEachObject(in, source, (node, line) -> out.add(new CorpusDoc(
        required(node, "_id", source, line), optional(node, "title"), required(node, "text", source, line))));
    return out;
  }

  /** Query id to text, in file order. */
  public static Map<String, String> readQueries(Reader in, String source) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    forEachObject(in, source, (node, line) -> {
      String id = required(node, "_id", source, line);
      if (out.put(id, required(node, "text", source, line)) != null) {
        throw new IOException(source + ":" + line + ": query id '" + id + "' appears twice");
      }
    });
    return out;
  }

  /** Judgments per query id from a qrels TSV with a header line. */
  public static Map<String, Judgments> readQrels(Reader in, String source) throws IOException {
    Map<String, Map<String, Integer>> gains = new TreeMap<>();
    BufferedReader r = new BufferedReader(in);
    String header = r.readLine();
    if (header == null) throw new IOException(source + ": empty qrels file (expected a header line)");
    if (!header.toLowerCase(java.util.Locale.ROOT).startsWith("query")) {
      throw new IOException(source + ":1: expected the header 'query-id<TAB>corpus-id<TAB>score', got '" + header + "'");
    }
    String line;
    int n = 1;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      String[] f = line.strip().split("\t");
      if (f.length != 3) {
        throw new IOException(source + ":" + n + ": expected 3 tab-separated fields, got " + f.length + ": '" + line + "'");
      }
      int score;
      try {
        score = Integer.parseInt(f[2].trim());
      } catch (NumberFormatException e) {
        throw new IOException(source + ":" + n + ": score '" + f[2] + "' is not an integer");
      }
      if (score < 0) continue;
      gains.computeIfAbsent(f[0].trim(), k -> new HashMap<>()).merge(f[1].trim(), score, Math::max);
    }
    Map<String, Judgments> out = new TreeMap<>();
    gains.forEach((q, g) -> out.put(q, Judgments.of(g)));
    return out;
  }

  /** What is done with each JSON object of a JSON Lines file, given its line number. */
  interface LineFn {
    void accept(JsonNode node, int line) throws IOException;
  }

  /** Calls {@code fn} for each non-blank line, which must be a JSON object; errors name source:line. */
  static void forEachObject(Reader in, String source, LineFn fn) throws IOException {
    BufferedReader r = new BufferedReader(in);
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw new IOException(source + ":" + n + ": invalid JSON: " + e.getOriginalMessage());
      }
      if (node == null || !node.isObject()) throw new IOException(source + ":" + n + ": expected a JSON object");
      fn.accept(node, n);
    }
  }

  private static String required(JsonNode node, String field, String source, int line) throws IOException {
    JsonNode v = node.get(field);
    if (v == null || v.isNull() || !v.isValueNode()) {
      throw new IOException(source + ":" + line + ": missing string field '" + field + "'");
    }
    return v.asText();
  }

  private static String optional(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? "" : v.asText();
  }
}
