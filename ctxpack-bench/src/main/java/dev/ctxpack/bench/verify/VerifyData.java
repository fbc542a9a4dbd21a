package dev.ctxpack.bench.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Half;
import dev.ctxpack.bench.compress.CompressData.Qa;
import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.CorpusDoc;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * The data of the verification evaluation: SciFact claims with their rationales and abstracts,
 * SQuAD-format files with the offset of each question's first answer, the FIT/REPORT split and a
 * deterministic sample. The split is {@link CompressData#split}: REPORT when the first byte of the
 * SHA-256 of the key is even, keyed by claim id for SciFact and by article title for SQuAD and
 * FaQuAD (so the halves are those of the compression evaluation).
 */
public final class VerifyData {
  private static final ObjectMapper JSON = new ObjectMapper();

  private VerifyData() {}

  // ---- SciFact ----

  /** What a SciFact claim's rationales say about one cited abstract. */
  public enum Gold {
    SUPPORT,
    CONTRADICT,
    /** The claim cites the abstract but no rationale in it was annotated. */
    NOEVIDENCE
  }

  /** A SciFact claim as {@code claims_train.jsonl} gives it: per cited document, its label and rationale sentences. */
  public record SciFactClaim(String id, String text, List<String> citedDocIds, Map<String, Gold> labels,
      Map<String, List<Integer>> sentences) {
    public SciFactClaim {
      citedDocIds = List.copyOf(citedDocIds);
      labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
      sentences = Collections.unmodifiableMap(new LinkedHashMap<>(sentences));
    }

    public Gold gold(String docId) {
      return labels.getOrDefault(docId, Gold.NOEVIDENCE);
    }
  }

  /** One SciFact unit: a claim and one abstract it cites, with the gold label and rationale sentence indices. */
  public record SciFactUnit(String claimId, String claim, String docId, String abstractText, Gold gold,
      List<Integer> rationale) {
    public SciFactUnit {
      rationale = List.copyOf(rationale);
    }
  }

  /**
   * Reads {@code claims_train.jsonl}: {@code id}, {@code claim}, {@code cited_doc_ids} and {@code
   * evidence} ({@code {doc: [{label, sentences}]}}). A document's label is that of its evidence sets
   * (SciFact never mixes labels within a document; a mix is an error here); its rationale is the
   * union of their sentence indices, sorted.
   */
  public static List<SciFactClaim> readSciFactClaims(Reader in, String source) throws IOException {
    List<SciFactClaim> out = new ArrayList<>();
    BufferedReader r = new BufferedReader(in);
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      JsonNode node = JSON.readTree(line);
      String id = node.path("id").asText("");
      String claim = node.path("claim").asText("");
      if (id.isEmpty() || claim.isEmpty()) throw new IOException(source + ":" + n + ": missing 'id' or 'claim'");
      List<String> cited = new ArrayList<>();
      node.path("cited_doc_ids").forEach(d -> cited.add(d.asText()));
      Map<String, Gold> labels = new LinkedHashMap<>();
      Map<String, List<Integer>> sentences = new LinkedHashMap<>();
      var fields = node.path("evidence").fields();
      while (fields.hasNext()) {
        var e = fields.next();
        TreeSet<Integer> idx = new TreeSet<>();
        Gold label = null;
        for (JsonNode set : e.getValue()) {
          Gold g = Gold.valueOf(set.path("label").asText());
          if (label != null && label != g) throw new IOException(source + ":" + n + ": document " + e.getKey() + " has mixed labels");
          label = g;
          set.path("sentences").forEach(s -> idx.add(s.asInt()));
        }
        if (label == null) continue;
        labels.put(e.getKey(), label);
        sentences.put(e.getKey(), new ArrayList<>(idx));
      }
      out.add(new SciFactClaim(id, claim, cited, labels, sentences));
    }
    return out;
  }

  /** The SciFact units of {@code half}: one per (claim, cited abstract), claims in file order, then cited order. */
  public static List<SciFactUnit> sciFactUnits(List<SciFactClaim> claims, Map<String, CorpusDoc> corpus, Half half) {
    List<SciFactUnit> out = new ArrayList<>();
    for (SciFactClaim c : claims) {
      if (CompressData.split(c.id()) != half) continue;
      for (String doc : c.citedDocIds()) {
        CorpusDoc d = corpus.get(doc);
        if (d == null) throw new IllegalArgumentException("claim " + c.id() + " cites document " + doc + ", which the corpus lacks");
        out.add(new SciFactUnit(c.id(), c.text(), doc, d.text(), c.gold(doc), c.sentences().getOrDefault(doc, List.of())));
      }
    }
    return out;
  }

  /** The SciFact claims and the BEIR corpus, from the shared data folder. */
  public static List<SciFactClaim> loadSciFactClaims(Path dataDir) throws IOException {
    Path f = dataDir.resolve("scifact/claims_train.jsonl");
    try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      return readSciFactClaims(r, f.toString());
    }
  }

  public static Map<String, CorpusDoc> loadSciFactCorpus(Path dataDir) throws IOException {
    Path f = dataDir.resolve("scifact/beir_test/corpus.jsonl");
    try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      Map<String, CorpusDoc> out = new HashMap<>();
      for (CorpusDoc d : BeirLoader.readCorpus(r, f.toString())) out.put(d.id(), d);
      return out;
    }
  }

  // ---- SQuAD-format sets ----

  /**
   * A SQuAD-format file: its articles (as {@link CompressData#loadSquad} reads them) and, per question
   * id, the offset of its first answer when the file gives one ({@code answer_start}; SQuAD 2.0 dev
   * as stored here has none, FaQuAD has them), adjusted to the stripped answer.
   */
  public record QaSet(List<Article> articles, Map<String, Integer> firstAnswerStart) {
    public QaSet {
      articles = List.copyOf(articles);
      firstAnswerStart = Map.copyOf(firstAnswerStart);
    }
  }

  public static QaSet loadQa(Path file) throws IOException {
    List<Article> articles = CompressData.loadSquad(file);
    Map<String, Integer> starts = new HashMap<>();
    for (JsonNode article : JSON.readTree(file.toFile()).path("data")) {
      for (JsonNode para : article.path("paragraphs")) {
        for (JsonNode qa : para.path("qas")) {
          JsonNode first = qa.path("answers").path(0);
          if (!first.isObject() || !first.has("answer_start")) continue;
          String raw = first.path("text").asText("");
          int lead = 0;
          while (lead < raw.length() && Character.isWhitespace(raw.charAt(lead))) lead++;
          starts.put(qa.path("id").asText(), first.path("answer_start").asInt() + lead);
        }
      }
    }
    return new QaSet(articles, starts);
  }

  /**
   * Where the first answer of {@code qa} lies in {@code paragraph}: at its given offset when the
   * answer is found there, else at its first occurrence; {@code -1} when it is not in the paragraph.
   */
  public static int locateAnswer(String paragraph, Qa qa, Integer givenStart) {
    if (qa.answers().isEmpty()) return -1;
    String a = qa.answers().get(0);
    if (givenStart != null && givenStart >= 0 && paragraph.startsWith(a, givenStart)) return givenStart;
    return paragraph.indexOf(a);
  }

  /** The articles of {@code half}, in file order. */
  public static List<Article> half(List<Article> articles, Half half) {
    return articles.stream().filter(a -> CompressData.split(a.title()) == half).toList();
  }

  // ---- sampling and seeds ----

  /**
   * {@code max} of {@code items} drawn with {@code new Random(seed)}, kept in their order (all when
   * there are at most {@code max}, or {@code max <= 0}); the same draw as the compression evaluation's.
   */
  public static <T> List<T> sample(List<T> items, int max, long seed) {
    if (max <= 0 || items.size() <= max) return List.copyOf(items);
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) idx.add(i);
    Collections.shuffle(idx, new Random(seed));
    List<Integer> keep = new ArrayList<>(idx.subList(0, max));
    keep.sort(Comparator.naturalOrder());
    List<T> out = new ArrayList<>(max);
    for (int i : keep) out.add(items.get(i));
    return out;
  }

  /** A {@link Random} seeded from {@code seed} and the SHA-256 of {@code key}: stable across runs and JVMs. */
  public static Random random(long seed, String key) {
    return CompressData.random(seed, key);
  }
}
