package dev.ctxpack.examples.langchain4j;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestListener;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.langchain4j.CitationVerdict;
import dev.ctxpack.langchain4j.CtxpackCitationGuardrail;
import dev.ctxpack.langchain4j.CtxpackContentAggregator;
import dev.ctxpack.langchain4j.CtxpackContentInjector;
import dev.ctxpack.langchain4j.CtxpackContentRetriever;
import dev.ctxpack.langchain4j.PackedContent;
import dev.ctxpack.langchain4j.PackedEvidence;
import dev.ctxpack.token.Tokenizers;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.service.AiServices;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * A small RAG app: LangChain4j's {@code AiServices} with chat memory and a {@code
 * DefaultRetrievalAugmentor} whose retriever, aggregator and injector are ctxpack's, and ctxpack's
 * citation guardrail. It indexes the bundled notes (BM25, no model download) into a temporary
 * directory, asks the question given on the command line, and prints the answer, the sources and the
 * citation check.
 *
 * <p>The model: {@code CTXPACK_LLM_URL} (any OpenAI-compatible base URL, e.g. {@code
 * http://localhost:11434/v1}) or {@code OPENAI_BASE_URL}, with {@code OPENAI_API_KEY} and {@code
 * OPENAI_MODEL} (default {@code gpt-4o-mini}).
 */
public final class RagExample {
  private RagExample() {}

  /** The assistant: one method, the question in, the answer out. */
  interface Assistant {
    String chat(String question);
  }

  /** Runs the example with the process environment; exits 0 on success, 2 when no model is configured. */
  public static void main(String[] args) throws IOException {
    System.exit(run(System.getenv(), args, System.out));
  }

  /** Runs the example with {@code env} as the environment, printing to {@code out}; returns the exit code. */
  public static int run(Map<String, String> env, String[] args, PrintStream out) throws IOException {
    String url = env.getOrDefault("CTXPACK_LLM_URL", env.get("OPENAI_BASE_URL"));
    if (url == null || url.isBlank()) {
      out.println("Set CTXPACK_LLM_URL (an OpenAI-compatible base URL such as http://localhost:11434/v1)"
          + " or OPENAI_BASE_URL and OPENAI_API_KEY.");
      return 2;
    }
    String question = args.length > 0 ? String.join(" ", args) : "How deep is Lake Baikal, and when does it freeze?";
    ChatModel model = OpenAiChatModel.builder().baseUrl(url)
        .apiKey(env.getOrDefault("OPENAI_API_KEY", "none"))
        .modelName(env.getOrDefault("OPENAI_MODEL", "gpt-4o-mini"))
        .build();

    Path work = Files.createTempDirectory("ctxpack-langchain4j-example");
    try (Index index = Indexes.open(IndexSpec.ofPath(work.resolve("index")))) {
      Path notes = work.resolve("notes.jsonl");
      try (InputStream in = RagExample.class.getResourceAsStream("notes.jsonl")) {
        Files.copy(in, notes);
      }
      new Ingestor(index, Loaders.defaults(), IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 120, 0.15), null),
          IngestListener.NONE).ingest(List.of(notes));

      List<PackedEvidence> packed = new CopyOnWriteArrayList<>();
      List<CitationVerdict> verdicts = new CopyOnWriteArrayList<>();
      // The few lines an existing LangChain4j RAG app changes: ctxpack's retriever, aggregator, injector, guardrail.
      var augmentor = DefaultRetrievalAugmentor.builder()
          .contentRetriever(CtxpackContentRetriever.builder().index(index).maxResults(8).build())
          .contentAggregator(CtxpackContentAggregator.builder().contextWindow(8000).reserve(1000).listener(packed::add).build())
          .contentInjector(CtxpackContentInjector.builder().build())
          .build();
      Assistant assistant = AiServices.builder(Assistant.class)
          .chatModel(model)
          .chatMemory(MessageWindowChatMemory.withMaxMessages(10))
          .retrievalAugmentor(augmentor)
          .outputGuardrails(CtxpackCitationGuardrail.builder().listener(verdicts::add).build())
          .build();

      String answer = assistant.chat(question);
      out.println("QUESTION: " + question);
      out.println("ANSWER:   " + answer);
      if (!packed.isEmpty()) {
        PackedEvidence e = packed.get(packed.size() - 1);
        out.println("Sources (" + e.pack().budget().used() + " of " + e.grantTokens() + " tokens):");
        for (PackedContent c : e.packedContents()) {
          out.println("  [" + c.label() + "] " + c.source().title() + " (" + c.source().docId() + ")");
        }
        out.println("Trace: " + e.merged().size() + " dedup decisions, " + e.dropped().size() + " drops");
      }
      if (!verdicts.isEmpty()) {
        CitationVerdict v = verdicts.get(verdicts.size() - 1);
        out.println("Citation check: " + (v.verification().passed() ? "passed" : "did not pass") + " after "
            + verdicts.size() + " answer(s)");
      }
      return 0;
    } finally {
      try (Stream<Path> walk = Files.walk(work)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
    }
  }
}
