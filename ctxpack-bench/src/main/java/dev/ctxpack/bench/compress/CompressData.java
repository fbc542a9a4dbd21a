package dev.ctxpack.bench.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.compress.CompressInput;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The data of the compression evaluation: SQuAD-format files (SQuAD 2.0 dev, FaQuAD) and WikiQA,
 * the FIT/REPORT split that keeps the compressor's fitting data apart from the figures reported,
 * and the deterministic construction of one request per question (its gold paragraph among up to
 * four other paragraphs of the same article).
 */
public final class CompressData {
  /** Paragraphs per request: the gold one and up to this many minus one others of its article. */
  public static final int PARAGRAPHS = 5;

  private CompressData() {}

  /** The half of a data set a key belongs to: fit weights on one, report figures on the other. */
  public enum Half {
    FIT,
    REPORT
  }

  /**
   * The half of an article (SQuAD, FaQuAD: keyed by article title) or question (WikiQA: keyed by
   * QuestionID): REPORT when the first byte of the SHA-256 of the key's UTF-8 bytes is even, else
   * FIT. Stable across runs, machines and JVMs, and independent of what else is in the data set.
   * {@code FitCompressor} fits the shipped scorer on the FIT half. Keys are titles as written in the
   * file (SQuAD's underscores kept).
   */
  public static Half split(String key) {
    return (sha256(key)[0] & 1) == 0 ? Half.REPORT : Half.FIT;
  }

  /** A question with its distinct gold answer strings (none when unanswerable). */
  public record Qa(String id, String question, List<String> answers, boolean impossible) {
    public Qa {
      answers = List.copyOf(answers);
    }
  }

  /** A paragraph of an article with its questions. */
  public record Paragraph(String text, List<Qa> questions) {
    public Paragraph {
      questions = List.copyOf(questions);
    }
  }

  /** An article: its title (the split key) and paragraphs in file order. */
  public record Article(String title, List<Paragraph> paragraphs) {
    public Article {
      paragraphs = List.copyOf(paragraphs);
    }
  }

  /**
   * One evaluation request: the question, its gold answers, and the paragraphs given to every
   * method ({@code inputs}, ids {@code p<index in article>}), the gold one at {@code goldInput}.
   */
  public record Case(String id, String article, String question, List<String> answers, boolean answerable,
      List<CompressInput> inputs, int goldInput) {
    public Case {
      answers = List.copyOf(answers);
      inputs = List.copyOf(inputs);
    }
  }

  /**
   * Reads a SQuAD v1 or v2 file. Answers may be {@code {"text": ...}} objects (v1, FaQuAD) or plain
   * strings; they are stripped and deduplicated in file order. A question is impossible when {@code
   * is_impossible} is true.
   */
  public static List<Article> loadSquad(Path file) throws IOException {
    JsonNode data = new ObjectMapper().readTree(file.toFile()).get("data");
    if (data == null || !data.isArray()) throw new IOException(file + ": no 'data' array (expected SQuAD format)");
    List<Article> out = new ArrayList<>();
    for (JsonNode article : data) {
      List<Paragraph> paragraphs = new ArrayList<>();
      for (JsonNode para : article.path("paragraphs")) {
        List<Qa> qas = new ArrayList<>();
        for (JsonNode qa : para.path("qas")) {
          LinkedHashSet<String> answers = new LinkedHashSet<>();
          for (JsonNode a : qa.path("answers")) {
            String s = (a.isTextual() ? a.asText() : a.path("text").asText("")).strip();
            if (!s.isEmpty()) answers.add(s);
          }
          qas.add(new Qa(qa.path("id").asText(), qa.path("question").asText(""), new ArrayList<>(answers),
              qa.path("is_impossible").asBoolean(false)));
        }
        paragraphs.add(new Paragraph(para.path("context").asText(""), qas));
      }
      out.add(new Article(article.path("title").asText(""), paragraphs));
    }
    return out;
  }

  /**
   * The request of question {@code qa} of paragraph {@code gold} of {@code article}: the gold
   * paragraph plus up to {@link #PARAGRAPHS}{@code - 1} other paragraphs of the article, chosen and
   * then shuffled by a {@link Random} seeded from {@code seed} and the question id, so a question's
   * request does not depend on which other questions were sampled.
   */
  public static Case construct(Article article, int gold, Qa qa, long seed) {
    Random random = random(seed, qa.id());
    List<Integer> others = new ArrayList<>();
    for (int i = 0; i < article.paragraphs().size(); i++) {
      if (i != gold) others.add(i);
    }
    Collections.shuffle(others, random);
    List<Integer> chosen = new ArrayList<>();
    chosen.add(gold);
    chosen.addAll(others.subList(0, Math.min(PARAGRAPHS - 1, others.size())));
    Collections.shuffle(chosen, random);
    List<CompressInput> inputs = new ArrayList<>();
    for (int p : chosen) inputs.add(CompressInput.of("p" + p, article.paragraphs().get(p).text()));
    boolean answerable = !qa.impossible() && !qa.answers().isEmpty();
    return new Case(qa.id(), article.title(), qa.question(), qa.answers(), answerable, inputs, chosen.indexOf(gold));
  }

  /**
   * The requests of the questions of {@code half}, answerable ({@code answerable}) or impossible
   * ones: all of them when there are at most {@code max} (0: no limit), else {@code max} sampled with
   * {@code new Random(seed)}; in file order either way.
   */
  public static List<Case> cases(List<Article> articles, Half half, boolean answerable, int max, long seed) {
    List<Case> all = new ArrayList<>();
    for (Article a : articles) {
      if (split(a.title()) != half) continue;
      for (int p = 0; p < a.paragraphs().size(); p++) {
        for (Qa qa : a.paragraphs().get(p).questions()) {
          boolean ok = !qa.impossible() && !qa.answers().isEmpty();
          if (answerable ? ok : qa.impossible()) all.add(construct(a, p, qa, seed));
        }
      }
    }
    return sample(all, max, seed);
  }

  /** {@code max} of {@code items} drawn with {@code new Random(seed)}, kept in their order (all when fewer). */
  static <T> List<T> sample(List<T> items, int max, long seed) {
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

  /** How many of {@code keys} fall in each half. */
  public static Map<Half, Integer> halves(Iterable<String> keys) {
    Map<Half, Integer> out = new LinkedHashMap<>();
    out.put(Half.FIT, 0);
    out.put(Half.REPORT, 0);
    for (String k : keys) out.merge(split(k), 1, Integer::sum);
    return out;
  }

  // ---- WikiQA ----

  /** A WikiQA question with its candidate sentences in file order and their gold labels. */
  public record WikiQuestion(String id, String question, List<String> sentences, List<Boolean> labels) {
    public WikiQuestion {
      sentences = List.copyOf(sentences);
      labels = List.copyOf(labels);
      if (sentences.size() != labels.size()) throw new IllegalArgumentException("one label per sentence");
    }

    public boolean hasPositive() {
      return labels.contains(Boolean.TRUE);
    }
  }

  /**
   * Reads WikiQA's TSV (header {@code QuestionID Question DocumentID DocumentTitle SentenceID
   * Sentence Label}; fields are not quoted, so quotes are kept as text).
   */
  public static List<WikiQuestion> loadWikiQa(Path file) throws IOException {
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parseWikiQa(r);
    }
  }

  static List<WikiQuestion> parseWikiQa(BufferedReader r) throws IOException {
    String header = r.readLine();
    if (header == null) return List.of();
    List<String> cols = List.of(header.split("\t", -1));
    int qid = index(cols, "QuestionID");
    int q = index(cols, "Question");
    int s = index(cols, "Sentence");
    int label = index(cols, "Label");
    Map<String, String> questions = new LinkedHashMap<>();
    Map<String, List<String>> sentences = new LinkedHashMap<>();
    Map<String, List<Boolean>> labels = new LinkedHashMap<>();
    String line;
    int n = 1;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      String[] f = line.split("\t", -1);
      if (f.length != cols.size()) throw new IOException("WikiQA line " + n + ": " + f.length + " fields, expected " + cols.size());
      questions.putIfAbsent(f[qid], f[q]);
      sentences.computeIfAbsent(f[qid], k -> new ArrayList<>()).add(f[s]);
      labels.computeIfAbsent(f[qid], k -> new ArrayList<>()).add(f[label].trim().equals("1"));
    }
    List<WikiQuestion> out = new ArrayList<>();
    for (String id : questions.keySet()) {
      out.add(new WikiQuestion(id, questions.get(id), sentences.get(id), labels.get(id)));
    }
    return out;
  }

  private static int index(List<String> cols, String name) throws IOException {
    int i = cols.indexOf(name);
    if (i < 0) throw new IOException("WikiQA header lacks column " + name + ": " + cols);
    return i;
  }

  // ---- hashing ----

  /** A {@link Random} seeded from {@code seed} and the SHA-256 of {@code key}: stable across runs and JVMs. */
  public static Random random(long seed, String key) {
    return new Random(seed ^ firstLong(sha256(key)));
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static long firstLong(byte[] b) {
    long v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | (b[i] & 0xFF);
    return v;
  }
}
