package dev.ctxpack.bench.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.eval.Judgments;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BeirLoaderTest {

  @Test
  void readsCorpusWithAndWithoutTitles() throws Exception {
    String jsonl = """
        {"_id": "4983", "title": "Microstructural development", "text": "Alterations of the architecture."}

        {"_id": "5836", "text": "No title here.", "metadata": {}}
        """;
    List<CorpusDoc> docs = BeirLoader.readCorpus(new StringReader(jsonl), "corpus.jsonl");
    assertThat(docs).containsExactly(
        new CorpusDoc("4983", "Microstructural development", "Alterations of the architecture."),
        new CorpusDoc("5836", "", "No title here."));
  }

  @Test
  void readsQueriesInFileOrder() throws Exception {
    String jsonl = """
        {"_id": "3", "text": "1,000 genomes project enables mapping.", "metadata": {}}
        {"_id": "1", "text": "0-dimensional biomaterials show inductive properties."}
        """;
    Map<String, String> q = BeirLoader.readQueries(new StringReader(jsonl), "queries.jsonl");
    assertThat(q.keySet()).containsExactly("3", "1");
    assertThat(q.get("1")).isEqualTo("0-dimensional biomaterials show inductive properties.");
  }

  @Test
  void readsQrelsAfterTheHeader() throws Exception {
    String tsv = "query-id\tcorpus-id\tscore\n1\t31715818\t1\n3\t14717500\t1\n3\t13734012\t2\n5\t99\t0\n";
    Map<String, Judgments> qrels = BeirLoader.readQrels(new StringReader(tsv), "test.tsv");
    assertThat(qrels.keySet()).containsExactly("1", "3", "5");
    assertThat(qrels.get("3").gains()).containsExactlyInAnyOrderEntriesOf(Map.of("14717500", 1, "13734012", 2));
    assertThat(qrels.get("5").hasRelevant()).isFalse();
  }

  @Test
  void errorsNameTheFileAndLine() {
    assertThatThrownBy(() -> BeirLoader.readQrels(new StringReader("query-id\tcorpus-id\tscore\n1\t2\n"), "test.tsv"))
        .hasMessageStartingWith("test.tsv:2:");
    assertThatThrownBy(() -> BeirLoader.readQrels(new StringReader("1\t2\t1\n"), "test.tsv"))
        .hasMessageContaining("header");
    assertThatThrownBy(() -> BeirLoader.readCorpus(new StringReader("{\"_id\": \"1\"}\n"), "corpus.jsonl"))
        .hasMessage("corpus.jsonl:1: missing string field 'text'");
    assertThatThrownBy(() -> BeirLoader.readCorpus(new StringReader("{\"_id\": \"1\", \"text\": \"a\"}\n{oops\n"), "c.jsonl"))
        .hasMessageStartingWith("c.jsonl:2: invalid JSON");
  }
}
