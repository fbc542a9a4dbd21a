package dev.ctxpack.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestListener;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.token.Tokenizers;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.rag.query.router.DefaultQueryRouter;
import dev.langchain4j.service.AiServices;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real framework end to end: an {@code AiServices} assistant with chat memory and a {@code
 * DefaultRetrievalAugmentor} whose aggregator and injector are ctxpack's, over a real Lucene index of
 * a slice of the sample corpus (embedded with MiniLM for hybrid retrieval), two retrievers, the
 * citation guardrail, and a loopback OpenAI-compatible server as the model.
 */
class RagWithAiServicesTest {
  static final int WINDOW = 3000;
  static final int RESERVE = 400;
  static final String SYSTEM = "You are a careful research assistant. Answer briefly.";
  static final String EN_QUESTION = "How can nanotechnologies be used to track and label stem cells?";
  static final String PT_QUESTION = "Onde fica a sede da Universidade Federal de Mato Grosso do Sul?";

  interface Assistant {
    String chat(String question);
  }

  @TempDir static Path dir;
  static Index index;
  static Embedder embedder;
  static LoopbackChatServer server;
  static CtxpackContentRetriever bm25;
  static CtxpackContentRetriever hybrid;

  final CtxpackTokenCountEstimator tokens = new CtxpackTokenCountEstimator();
  final List<PackedEvidence> packed = new CopyOnWriteArrayList<>();
  final List<CitationVerdict> verdicts = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void ingestTheSampleSlice() throws IOException {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    slice("scifact-sample.jsonl", 40, corpus);
    slice("faquad-sample.jsonl", 20, corpus);
    embedder = new MiniLmEmbedder();
    index = Indexes.open(IndexSpec.ofPath(dir.resolve("index")));
    IngestOptions io = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 200, 0.15), embedder);
    new Ingestor(index, Loaders.defaults(), io, IngestListener.NONE)
        .ingest(List.of(corpus.resolve("scifact-sample.jsonl"), corpus.resolve("faquad-sample.jsonl")));
    bm25 = CtxpackContentRetriever.builder().index(index).mode(RetrievalMode.BM25).maxResults(8).build();
    hybrid = CtxpackContentRetriever.builder().index(index).embedder(embedder).maxResults(8).build();
    server = new LoopbackChatServer();
  }

  static void slice(String name, int lines, Path to) throws IOException {
    List<String> kept = new ArrayList<>();
    try (InputStream in = RagWithAiServicesTest.class.getResourceAsStream("/dev/ctxpack/app/samples/" + name);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null && kept.size() < lines) kept.add(line);
    }
    Files.write(to.resolve(name), kept, StandardCharsets.UTF_8);
  }

  @AfterAll
  static void close() throws IOException {
    server.close();
    index.close();
  }

  @BeforeEach
  void clearRequests() {
    server.requests.clear();
    server.inventNext.set(false);
  }

  ChatModel model() {
    return OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("loopback").modelName("loopback").build();
  }

  RetrievalAugmentor augmentor() {
    CtxpackContentAggregator aggregator = CtxpackContentAggregator.builder()
        // The budget filled (no relevance line): these tests are about the augmentor, the guardrail and memory.
        .contextWindow(WINDOW).reserve(RESERVE).options(dev.ctxpack.pack.PackOptions.builder().minRelevance(0).build())
        .listener(packed::add).build();
    return DefaultRetrievalAugmentor.builder()
        .queryRouter(new DefaultQueryRouter(bm25, hybrid))
        .contentAggregator(aggregator)
        .contentInjector(CtxpackContentInjector.builder().build())
        .build();
  }

  Assistant assistant(boolean storeRetrievedContent) {
    return AiServices.builder(Assistant.class)
        .chatModel(model())
        .systemMessageProvider(id -> SYSTEM)
        .chatMemory(MessageWindowChatMemory.withMaxMessages(20))
        .retrievalAugmentor(augmentor())
        .storeRetrievedContentInChatMemory(storeRetrievedContent)
        .outputGuardrails(CtxpackCitationGuardrail.builder().listener(verdicts::add).build())
        .build();
  }

  int requestTokens(JsonNode req) {
    int sum = CtxpackTokenCountEstimator.REPLY_PRIMING;
    for (String t : LoopbackChatServer.texts(req)) sum += tokens.estimateTokenCountInText(t) + CtxpackTokenCountEstimator.MESSAGE_OVERHEAD;
    return sum;
  }

  @Test
  void theRetrieverReturnsSegmentsWithCtxpackIdsAndOffsets() {
    List<Content> found = hybrid.retrieve(Query.from(EN_QUESTION));
    assertThat(found).isNotEmpty();
    for (Content c : found) {
      var md = c.textSegment().metadata();
      assertThat(md.getString(CtxpackMetadata.CHUNK_ID)).startsWith(md.getString(CtxpackMetadata.DOC_ID));
      assertThat(md.getInteger(CtxpackMetadata.END) - md.getInteger(CtxpackMetadata.START)).isEqualTo(c.textSegment().text().length());
      assertThat(md.getString(CtxpackMetadata.LANGUAGE)).isIn("en", "pt");
      assertThat(md.getDouble(CtxpackMetadata.SCORE)).isNotNull();
    }
    assertThat(found.get(0).textSegment().metadata().getString(CtxpackMetadata.DOC_ID)).isEqualTo("scifact-31715818");
  }

  @Test
  void duplicatesFromTwoRetrieversAreOneSourceCitingBoth() {
    String answer = assistant(true).chat(EN_QUESTION);
    assertThat(answer).containsPattern("\\[S\\d+\\]");
    PackedEvidence e = packed.get(0);
    PackedContent merged = e.packedContents().stream().filter(c -> c.origins().size() >= 2).findFirst().orElseThrow();
    Set<Object> scores = new HashSet<>();
    for (Content o : merged.origins()) scores.add(o.textSegment().metadata().getDouble(CtxpackMetadata.SCORE));
    assertThat(scores).as("the two retrievers gave the chunk different metadata").hasSizeGreaterThan(1);
    assertThat(merged.textSegment().metadata().getString(CtxpackMetadata.CHUNKS)).contains(",");
    assertThat(e.merged()).anyMatch(d -> d.rule().startsWith("exact"));

    String prompt = LoopbackChatServer.lastPrompt(server.requests.get(0));
    assertThat(prompt).isEqualTo(e.prompt());
    Matcher m = Pattern.compile("<source[^>]* id=\"(S\\d+)\"").matcher(prompt);
    List<String> labels = new ArrayList<>();
    while (m.find()) labels.add(m.group(1));
    assertThat(labels).doesNotHaveDuplicates().hasSize(e.pack().sources().size());
    for (var s : e.pack().sources()) assertThat(prompt.split(Pattern.quote(s.text()), -1)).as("each source once").hasSize(2);
  }

  @Test
  void theWholeRequestStaysInTheWindowWithMemoryPresent() {
    Assistant a = assistant(false);
    a.chat(EN_QUESTION);
    a.chat("What do magnetic nanoparticles and quantum dots do for stem cell research?");
    a.chat("Which nanomaterials deliver genes into stem cells?");
    assertThat(server.requests).hasSize(3);
    for (JsonNode req : server.requests) assertThat(requestTokens(req)).isLessThanOrEqualTo(WINDOW - RESERVE);
    assertThat(LoopbackChatServer.texts(server.requests.get(2))).hasSize(6).first().isEqualTo(SYSTEM);
    assertThat(packed).hasSize(3);
    assertThat(packed.get(2).memoryTokens()).isGreaterThan(packed.get(0).memoryTokens());
    assertThat(packed.get(2).grantTokens()).isEqualTo(WINDOW - RESERVE - packed.get(2).memoryTokens());
  }

  @Test
  void anInventedCitationIsRepromptedOnceWithCtxpacksFeedback() {
    server.inventNext.set(true);
    String answer = assistant(true).chat(EN_QUESTION);
    assertThat(server.requests).as("one answer and exactly one reprompt").hasSize(2);
    assertThat(answer).containsPattern("\\[S\\d+\\]").doesNotContain("[S99]");
    List<String> second = LoopbackChatServer.texts(server.requests.get(1));
    String reprompt = second.get(second.size() - 1);
    assertThat(reprompt).startsWith("Your previous answer did not pass the citation check:")
        .contains("Claim 1 cites [S99], which is not among the sources");
    assertThat(verdicts).hasSize(2);
    assertThat(verdicts.get(0).invented()).containsExactly("S99");
    assertThat(verdicts.get(0).reprompted()).isTrue();
    assertThat(verdicts.get(1).reprompted()).isFalse();
    assertThat(verdicts.get(1).verification().passed()).isTrue();
  }

  @Test
  void aPortugueseQuestionGetsThePortugueseTemplate() {
    String answer = assistant(true).chat(PT_QUESTION);
    String prompt = LoopbackChatServer.lastPrompt(server.requests.get(0));
    assertThat(prompt).startsWith("Responda à pergunta usando apenas as fontes numeradas abaixo.")
        .contains("\nFONTES\n", "\nPERGUNTA\n" + PT_QUESTION).doesNotContain("\nSOURCES\n");
    assertThat(prompt).contains("UFMS");
    assertThat(answer).containsPattern("\\[S\\d+\\]");
  }
}
