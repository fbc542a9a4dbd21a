package dev.ctxpack.bench.dedup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * SQuAD 2.0 ({@code dev-v2.0.json}) as contexts with their answerable questions: answers are the
 * distinct gold strings in file order; unanswerable questions ({@code is_impossible}) are left out.
 * Accepts answers as plain strings or as {@code {"text": ...}} objects.
 */
public final class SquadV2 {
  /** An answerable question: its id, text and distinct gold answer strings. */
  public record Question(String id, String text, List<String> answers) {
    public Question {
      answers = List.copyOf(answers);
    }
  }

  /** A paragraph: its position in the file, article title, text and answerable questions. */
  public record Context(int index, String title, String text, List<Question> questions) {
    public Context {
      questions = List.copyOf(questions);
    }
  }

  private SquadV2() {}

  public static List<Context> load(Path file) throws IOException {
    JsonNode data = new ObjectMapper().readTree(file.toFile()).get("data");
    if (data == null || !data.isArray()) throw new IOException(file + ": no 'data' array (expected SQuAD 2.0)");
    List<Context> out = new ArrayList<>();
    for (JsonNode article : data) {
      String title = article.path("title").asText("").replace('_', ' ');
      for (JsonNode para : article.path("paragraphs")) {
        List<Question> qs = new ArrayList<>();
        for (JsonNode qa : para.path("qas")) {
          if (qa.path("is_impossible").asBoolean(false)) continue;
          LinkedHashSet<String> answers = new LinkedHashSet<>();
          for (JsonNode a : qa.path("answers")) {
            String s = (a.isTextual() ? a.asText() : a.path("text").asText("")).strip();
            if (!s.isEmpty()) answers.add(s);
          }
          if (answers.isEmpty()) continue;
          qs.add(new Question(qa.path("id").asText(), qa.path("question").asText(""), new ArrayList<>(answers)));
        }
        out.add(new Context(out.size(), title, para.path("context").asText(""), qs));
      }
    }
    return out;
  }
}
