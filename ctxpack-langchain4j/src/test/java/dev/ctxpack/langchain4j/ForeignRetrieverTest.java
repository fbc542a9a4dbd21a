package dev.ctxpack.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.model.Passage;
import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.document.splitter.DocumentSplitters;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.store.embedding.EmbeddingStoreIngestor;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.langchain4j.data.segment.TextSegment;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ctxpack packing content it did not retrieve: LangChain4j's in-memory store, splitter and MiniLM. */
class ForeignRetrieverTest {
  @Test
  void packsWhatAnEmbeddingStoreRetrieverFound() throws Exception {
    Map<String, String> texts = new HashMap<>();
    List<Document> docs = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    try (var r = new BufferedReader(new InputStreamReader(
        getClass().getResourceAsStream("/dev/ctxpack/app/samples/scifact-sample.jsonl"), StandardCharsets.UTF_8))) {
      for (int i = 0; i < 12; i++) {
        JsonNode d = json.readTree(r.readLine());
        texts.put(d.get("_id").asText(), d.get("text").asText());
        docs.add(Document.from(d.get("text").asText(), Metadata.from("file_name", d.get("_id").asText()).put("title", d.get("title").asText())));
      }
    }
    EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();
    InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
    EmbeddingStoreIngestor.builder().documentSplitter(DocumentSplitters.recursive(400, 120))
        .embeddingModel(model).embeddingStore(store).build().ingest(docs);
    EmbeddingStoreContentRetriever retriever = EmbeddingStoreContentRetriever.builder()
        .embeddingStore(store).embeddingModel(model).maxResults(12).build();

    List<PackedEvidence> packed = new ArrayList<>();
    int budget = 900;
    DefaultRetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder().contentRetriever(retriever)
        .contentAggregator(CtxpackContentAggregator.builder().evidenceTokens(budget).inferOffsets(true).listener(packed::add).build())
        .contentInjector(CtxpackContentInjector.builder().build()).build();
    String question = "How can nanotechnologies be used to track and label stem cells?";
    UserMessage user = UserMessage.from(question);
    AugmentationResult result = augmentor.augment(new AugmentationRequest(user,
        dev.langchain4j.rag.query.Metadata.from(user, "m", List.of())));

    PackedEvidence e = packed.get(0);
    String prompt = ((UserMessage) result.chatMessage()).singleText();
    assertThat(prompt).isEqualTo(e.prompt()).contains("<source", "QUESTION\n" + question);
    assertThat(new CtxpackTokenCountEstimator().estimateTokenCountInText(prompt)).isLessThanOrEqualTo(budget);
    assertThat(PackedEvidence.of(result)).containsSame(e);
    assertThat(e.pack().sources()).isNotEmpty();
    assertThat(e.pack().sources().get(0).title()).isNotBlank();
    for (PackedContent c : e.packedContents()) {
      String doc = texts.get(c.textSegment().metadata().getString("file_name"));
      assertThat(doc).isNotNull();
      for (Passage.Piece p : c.source().pieces()) assertThat(texts.values()).anyMatch(t -> t.contains(p.text()));
    }
    // The splitter's overlapping windows of one abstract are merged by the cascade, not shown twice.
    assertThat(e.merged()).anyMatch(d -> d.action().key().equals("merge") || d.action().key().equals("stitch"));
  }
}
