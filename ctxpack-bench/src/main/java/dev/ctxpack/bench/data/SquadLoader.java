package dev.ctxpack.bench.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.eval.Judgments;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A SQuAD v1-format file (FaQuAD) as a retrieval set: each paragraph is a document (titled by its
 * article), each question a query whose only relevant document is its paragraph (gain 1).
 */
public final class SquadLoader {
  private SquadLoader() {}

  public static Dataset load(String name, Path file) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    JsonNode data = root.get("data");
    if (data == null || !data.isArray()) throw new IOException(file + ": no 'data' array (expected SQuAD v1 format)");
    List<CorpusDoc> corpus = new ArrayList<>();
    Map<String, String> queries = new LinkedHashMap<>();
    Map<String, Judgments> qrels = new LinkedHashMap<>();
    int a = 0;
    for (JsonNode article : data) {
      String title = article.path("title").asText("");
      int p = 0;
      for (JsonNode para : article.path("paragraphs")) {
        String docId = "a" + a + "p" + p;
        corpus.add(new CorpusDoc(docId, title.replace('_', ' '), para.path("context").asText("")));
        for (JsonNode qa : para.path("qas")) {
          String qid = qa.path("id").asText();
          String question = qa.path("question").asText("");
          if (qid.isBlank() || question.isBlank()) continue;
          queries.put(qid, question);
          qrels.put(qid, Judgments.of(Map.of(docId, 1)));
        }
        p++;
      }
      a++;
    }
    return new Dataset(name, corpus, queries, qrels);
  }
}
