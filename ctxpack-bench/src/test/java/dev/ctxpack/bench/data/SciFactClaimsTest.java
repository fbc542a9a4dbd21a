package dev.ctxpack.bench.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class SciFactClaimsTest {

  @Test
  void readsClaimsWithTheirCitedDocuments() throws Exception {
    String jsonl = """
        {"id": 0, "claim": "0-dimensional biomaterials lack inductive properties.", "cited_doc_ids": [31715818], "evidence": {}}

        {"id": "2", "claim": "1 in 5 million in UK have abnormal PrP positivity.", "cited_doc_ids": ["13734012", "42"], "evidence": {"13734012": []}}
        {"id": "3", "claim": "A claim citing nothing."}
        """;
    List<SciFactClaims.Claim> claims = SciFactClaims.read(new StringReader(jsonl), "claims.jsonl");
    assertThat(claims).extracting(SciFactClaims.Claim::id).containsExactly("0", "2", "3");
    assertThat(claims.get(0).citedDocIds()).containsExactly("31715818");
    assertThat(claims.get(1).citedDocIds()).containsExactly("13734012", "42");
    assertThat(claims.get(1).text()).isEqualTo("1 in 5 million in UK have abnormal PrP positivity.");
    assertThat(claims.get(2).citedDocIds()).isEmpty();
  }

  @Test
  void errorsNameTheFileAndLine() {
    assertThatThrownBy(() -> SciFactClaims.read(new StringReader("{\"id\": 1, \"claim\": \"x\"}\n{\"id\": 2}\n"), "c.jsonl"))
        .isInstanceOf(IOException.class).hasMessageContaining("c.jsonl:2").hasMessageContaining("claim");
    assertThatThrownBy(() -> SciFactClaims.read(new StringReader("{\"id\": 1, \"claim\": \"x\"}\n{\"id\": 1, \"claim\": \"y\"}\n"), "c.jsonl"))
        .isInstanceOf(IOException.class).hasMessageContaining("c.jsonl:2").hasMessageContaining("twice");
    assertThatThrownBy(() -> SciFactClaims.read(new StringReader("{\"id\": 1, \"claim\": \"x\", \"cited_doc_ids\": 5}\n"), "c.jsonl"))
        .isInstanceOf(IOException.class).hasMessageContaining("cited_doc_ids");
  }
}
