package dev.ctxpack.examples.springai;

import dev.ctxpack.springai.CitationVerdict;
import dev.ctxpack.springai.CtxpackAdvisor;
import dev.ctxpack.springai.WindowBudget;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring AI RAG application with ctxpack: a {@code ChatClient} with chat memory and ctxpack's
 * auto-configured advisor, retrieving from the ctxpack index {@code ctxpack.index}. Each argument that
 * is not a {@code --property} is a question of one conversation (none: questions are read from standard input, one a line); each
 * answer is printed with its citation verdict and how the window was shared.
 */
@SpringBootApplication
public class RagApplication {
  /** Created by Spring. */
  public RagApplication() {}

  /**
   * Runs the application.
   *
   * @param args the questions
   */
  public static void main(String[] args) {
    SpringApplication.run(RagApplication.class, args);
  }

  /**
   * The chat client: memory first, ctxpack next to the model (its default order).
   *
   * @param builder Spring AI's auto-configured builder (the OpenAI model)
   * @param memory the chat memory (Spring AI's auto-configured in-memory window)
   * @param ctxpack ctxpack's auto-configured advisor
   * @return the client
   */
  @Bean
  ChatClient chatClient(ChatClient.Builder builder, ChatMemory memory, CtxpackAdvisor ctxpack) {
    return builder.defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build(), ctxpack).build();
  }

  /**
   * Asks the questions.
   *
   * @param chat the chat client
   * @return the runner
   */
  @Bean
  ApplicationRunner ask(ChatClient chat) {
    return args -> {
      PrintStream out = System.out;
      if (!args.getNonOptionArgs().isEmpty()) {
        for (String q : args.getNonOptionArgs()) answer(chat, q, out);
        return;
      }
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String q = in.readLine(); q != null; q = in.readLine()) {
        if (!q.isBlank()) answer(chat, q, out);
      }
    };
  }

  static void answer(ChatClient chat, String question, PrintStream out) {
    ChatClientResponse r = chat.prompt().user(question)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "example")).call().chatClientResponse();
    CitationVerdict v = (CitationVerdict) r.context().get(CtxpackAdvisor.VERDICT);
    WindowBudget b = (WindowBudget) r.context().get(CtxpackAdvisor.BUDGET);
    out.println("Q: " + question);
    out.println("A: " + r.chatResponse().getResult().getOutput().getText());
    if (v != null) {
      out.println("citations: " + (v.passed() ? "verified" : "NOT verified") + ", invalid " + v.invalidCitations()
          + (v.reasked() ? " (asked again once)" : ""));
    }
    if (b != null) {
      out.println("window: " + b.total() + "/" + b.limit() + " tokens (evidence " + b.evidence() + ", history "
          + b.historyTokens() + " in " + b.historyKept() + " messages, " + b.historyDropped() + " dropped)");
    }
  }
}
