package dev.ctxpack.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.ai.rag.retrieval.search.VectorStoreDocumentRetriever;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The real framework end to end: Spring Boot's auto-configured {@code OpenAiChatModel} against the
 * loopback server, ctxpack's auto-configured beans, a ctxpack Lucene index of the sample slice and a
 * Spring AI {@code SimpleVectorStore} of the same texts, chat memory through {@code
 * MessageChatMemoryAdvisor}.
 */
@SpringBootTest(classes = TestApplication.class)
class SpringAiEndToEndTest {
  static final int WINDOW = 4096;
  static final int RESERVE = 512;
  static final LoopbackChatServer SERVER = start();
  static final Tokenizer TOKENS = Tokenizers.defaultTokenizer();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry r) {
    r.add("spring.ai.openai.base-url", SERVER::baseUrl);
    r.add("spring.ai.openai.api-key", () -> "test-key");
    r.add("spring.ai.openai.chat.options.model", () -> "loopback");
    r.add("spring.ai.model.embedding", () -> "none");
    r.add("ctxpack.index", SampleCorpus::spec);
    r.add("ctxpack.context-window", () -> WINDOW);
    r.add("ctxpack.reserve-tokens", () -> RESERVE);
    r.add("ctxpack.evidence-tokens", () -> 1500);
    r.add("ctxpack.top-k", () -> 6);
  }

  @Autowired ChatClient.Builder chatClients;
  @Autowired CtxpackAdvisor advisor;
  @Autowired CtxpackDocumentPostProcessor postProcessor;
  @Autowired CtxpackQueryAugmenter augmenter;
  @Autowired VectorStoreDocumentRetriever vectorStoreRetriever;
  @Autowired ChatMemory memory;

  private static LoopbackChatServer start() {
    try {
      return new LoopbackChatServer();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterAll
  static void stop() {
    SERVER.close();
  }

  @BeforeEach
  void clear() {
    SERVER.clear();
  }

  private ChatClient client(CtxpackAdvisor a) {
    return chatClients.defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build(), a).build();
  }

  private ChatClientResponse ask(ChatClient c, String conversation, String question) {
    return c.prompt().user(question).advisors(s -> s.param(ChatMemory.CONVERSATION_ID, conversation))
        .call().chatClientResponse();
  }

  @Test
  void theSameTextFromBothRetrieversIsOneSourceCitingBoth() {
    ChatClientResponse r = ask(client(advisor), "dup", "Does metformin reverse established lung fibrosis in a bleomycin model?");
    ContextPackage p = (ContextPackage) r.context().get(CtxpackAdvisor.PACKAGE);
    List<Document> docs = CtxpackDocuments.documents(p, Map.of());
    Document metformin = docs.stream().filter(d -> d.getText().contains("bleomycin")).findFirst().orElseThrow();
    @SuppressWarnings("unchecked")
    List<String> from = (List<String>) metformin.getMetadata().get(CtxpackDocuments.DOC_IDS);
    // One copy from ctxpack's index (document id scifact-49556906) and one from the vector store (a UUID).
    assertThat(from).contains("scifact-49556906");
    assertThat(from).anyMatch(id -> id.matches("[0-9a-f-]{36}"));
    String prompt = lastUser(SERVER.requests().get(0));
    String opening = metformin.getText().substring(0, 60);
    assertThat(prompt.indexOf(opening)).as("the text is in the prompt once").isEqualTo(prompt.lastIndexOf(opening));
    assertThat(p.trace()).anyMatch(d -> d.stage().name().equals("DEDUP"));

    CitationVerdict v = (CitationVerdict) r.context().get(CtxpackAdvisor.VERDICT);
    assertThat(v.invalidCitations()).isEmpty();
    assertThat(r.chatResponse().getMetadata().<CitationVerdict>get(CtxpackAdvisor.VERDICT)).isSameAs(v);
    assertThat(r.chatResponse().getResult().getOutput().getText()).containsPattern("\\[S\\d+\\]");
    assertThat(metadataLabel(metformin)).matches("S\\d+");
  }

  @Test
  void theWholeRequestStaysInTheWindowWithChatMemoryPresent() {
    List<Message> turns = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      turns.add(new UserMessage("Earlier question " + i + ": " + "tell me about the appendix prion survey again ".repeat(12)));
      turns.add(new AssistantMessage("Earlier answer " + i + ": " + "the survey found abnormal prion protein ".repeat(12)));
    }
    memory.add("long", turns);
    ChatClientResponse r = ask(client(advisor), "long", "Does metformin reverse established lung fibrosis in a bleomycin model?");

    JsonNode req = SERVER.requests().get(0);
    int counted = 3;
    int history = 0;
    for (Map.Entry<String, String> m : LoopbackChatServer.messages(req)) {
      counted += 4 + TOKENS.count(m.getValue());
      if (m.getValue().startsWith("Earlier")) history++;
    }
    assertThat(counted).as("the request the server received").isLessThanOrEqualTo(WINDOW - RESERVE);
    assertThat(history).as("chat memory is in the request").isGreaterThan(0);
    WindowBudget b = (WindowBudget) r.context().get(CtxpackAdvisor.BUDGET);
    assertThat(b.historyDropped()).as("the oldest turns were dropped to fit").isGreaterThan(0);
    assertThat(b.historyKept()).isEqualTo(history);
    assertThat(b.total()).isEqualTo(counted);
    assertThat(LoopbackChatServer.messages(req).get(LoopbackChatServer.messages(req).size() - 1).getValue())
        .contains("<source").contains("QUESTION");
  }

  @Test
  void anInventedCitationIsDetectedAndAskedAgainOnce() {
    ChatClientResponse r = ask(client(advisor), "invent", "INVENT: does metformin reverse lung fibrosis in a bleomycin model?");
    assertThat(SERVER.requests()).as("the first answer and exactly one re-ask").hasSize(2);
    CitationVerdict v = (CitationVerdict) r.context().get(CtxpackAdvisor.VERDICT);
    assertThat(v.reasked()).isTrue();
    assertThat(v.first().invalidCitations()).containsExactly(LoopbackChatServer.INVENTED);
    assertThat(v.invalidCitations()).isEmpty();
    List<Map.Entry<String, String>> second = LoopbackChatServer.messages(SERVER.requests().get(1));
    assertThat(second.get(second.size() - 1).getValue()).contains("citation problems");
    int counted = 3 + second.stream().mapToInt(m -> 4 + TOKENS.count(m.getValue())).sum();
    assertThat(counted).isLessThanOrEqualTo(WINDOW - RESERVE);
  }

  @Test
  void withoutReaskTheCallerSeesTheInventedCitation() {
    CtxpackAdvisor never = CtxpackAdvisor.builder().documentRetriever(vectorStoreRetriever)
        .reask(CtxpackAdvisor.Reask.NEVER).contextWindow(WINDOW).reserveTokens(RESERVE).evidenceTokens(1500).build();
    ChatClientResponse r = ask(client(never), "invent-never", "INVENT: does metformin reverse lung fibrosis?");
    assertThat(SERVER.requests()).hasSize(1);
    CitationVerdict v = r.chatResponse().getMetadata().get(CtxpackAdvisor.VERDICT);
    assertThat(v.reasked()).isFalse();
    assertThat(v.invalidCitations()).containsExactly(LoopbackChatServer.INVENTED);
    assertThat(v.passed()).isFalse();
  }

  @Test
  void aPortugueseQuestionGetsThePortugueseTemplate() {
    ChatClientResponse r = ask(client(advisor), "pt", "Quando a UFMS teve sua origem?");
    String prompt = lastUser(SERVER.requests().get(0));
    assertThat(prompt).contains("Responda à pergunta usando apenas as fontes numeradas abaixo")
        .contains("FONTES").contains("PERGUNTA").doesNotContain("QUESTION");
    assertThat(r.chatResponse().getResult().getOutput().getText()).contains("1962");
  }

  @Test
  void retrievalAugmentationAdvisorWithCtxpackPostProcessorAndAugmenter() {
    RetrievalAugmentationAdvisor rag = RetrievalAugmentationAdvisor.builder()
        .documentRetriever(vectorStoreRetriever)
        .documentPostProcessors(postProcessor)
        .queryAugmenter(augmenter)
        .build();
    ChatClientResponse r = chatClients.build().prompt().advisors(rag)
        .user("Does folic acid supplementation lower serum homocysteine?").call().chatClientResponse();
    String prompt = lastUser(SERVER.requests().get(0));
    assertThat(prompt).contains("<source-").contains("id=\"S1\"").contains("SOURCES").contains("QUESTION");
    @SuppressWarnings("unchecked")
    List<Document> docs = (List<Document>) r.context().get(RetrievalAugmentationAdvisor.DOCUMENT_CONTEXT);
    assertThat(docs).isNotEmpty().allMatch(d -> d.getMetadata().get(CtxpackDocuments.LABEL) != null);
    assertThat(CtxpackDocuments.packageOf(docs)).get().extracting(ContextPackage::prompt).isEqualTo(prompt);
  }

  private static String metadataLabel(Document d) {
    return (String) d.getMetadata().get(CtxpackDocuments.LABEL);
  }

  private static String lastUser(JsonNode req) {
    String last = "";
    for (Map.Entry<String, String> m : LoopbackChatServer.messages(req)) {
      if (m.getKey().equals("user")) last = m.getValue();
    }
    return last;
  }
}
