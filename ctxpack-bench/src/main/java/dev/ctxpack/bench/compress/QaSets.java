package dev.ctxpack.bench.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * SQuAD-format question answering sets (SQuAD 2.0 dev, FaQuAD) read for compression: articles,
 * their paragraphs and questions with answer strings; the fit/report split; the construction of one
 * compression request per question (its paragraph and up to four others of the same article,
 * shuffled with a fixed seed).
 */
public final class QaSets {
  private QaSets() {}

  public enum Half { FIT, REPORT }

  public record Question(String id, String question, List<String> answers, boolean impossible) {}

  public record Paragraph(String context, List<Question> questions) {}

  public record Article(String title, List<Paragraph> paragraphs) {}

  /** One compression request: the paragraphs in the order given, and which one holds the question. */
  public record Request(Question question, List<String> paragraphs, int gold) {}

  /**
   * The half an article (or a WikiQA question id) falls in: the first byte of the SHA-256 of its
   * title, even for REPORT, odd for FIT. Stable across runs and machines.
   */
  public static Half split(String key) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return (h[0] & 1) == 0 ? Half.REPORT : Half.FIT;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static List<Article> read(Path file) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    JsonNode data = root.get("data");
    if (data == null || !data.isArray()) throw new IOException(file + ": no 'data' array (expected SQuAD format)");
    List<Article> out = new ArrayList<>();
    for (JsonNode a : data) {
      List<Paragraph> ps = new ArrayList<>();
      for (JsonNode p : a.path("paragraphs")) {
        List<Question> qs = new ArrayList<>();
        for (JsonNode q : p.path("qas")) {
          List<String> answers = new ArrayList<>();
          for (JsonNode ans : q.path("answers")) {
            String t = ans.isTextual() ? ans.asText() : ans.path("text").asText("");
            if (!t.isBlank() && !answers.contains(t)) answers.add(t);
          }
          boolean impossible = q.path("is_impossible").asBoolean(false);
          qs.add(new Question(q.path("id").asText(), q.path("question").asText(""), answers, impossible));
        }
        ps.add(new Paragraph(p.path("context").asText(""), qs));
      }
      out.add(new Article(a.path("title").asText(""), ps));
    }
    return out;
  }

  /**
   * The request of question {@code q} of paragraph {@code p} of {@code article}: that paragraph and
   * up to {@code others} others of the article, chosen and shuffled by {@code random}.
   */
  public static Request request(Article article, int p, Question q, int others, Random random) {
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; i < article.paragraphs().size(); i++) if (i != p) rest.add(i);
    java.util.Collections.shuffle(rest, random);
    List<Integer> chosen = new ArrayList<>(rest.subList(0, Math.min(others, rest.size())));
    chosen.add(p);
    java.util.Collections.shuffle(chosen, random);
    List<String> texts = new ArrayList<>();
    for (int i : chosen) texts.add(article.paragraphs().get(i).context());
    return new Request(q, texts, chosen.indexOf(p));
  }
}
