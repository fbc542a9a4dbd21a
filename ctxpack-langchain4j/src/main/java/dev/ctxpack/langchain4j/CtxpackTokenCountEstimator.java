package dev.ctxpack.langchain4j;

import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import java.util.Objects;

/**
 * A LangChain4j {@link TokenCountEstimator} that counts with ctxpack's {@link Tokenizer} (o200k_base
 * by default), so a {@code TokenWindowChatMemory}, the aggregator's budget and ctxpack's packer
 * count alike.
 *
 * <p>A message costs its text plus {@value #MESSAGE_OVERHEAD} tokens (role and separators, as
 * OpenAI's chat format charges); a list of messages costs its messages plus {@value
 * #REPLY_PRIMING} for the reply's priming. Text is counted exactly; the per-message overhead is the
 * estimate. Thread-safe.
 *
 * <pre>{@code
 * TokenCountEstimator tokens = new CtxpackTokenCountEstimator();
 * ChatMemory memory = TokenWindowChatMemory.withMaxTokens(3000, tokens);
 * }</pre>
 */
public final class CtxpackTokenCountEstimator implements TokenCountEstimator {
  /** Tokens a chat message costs beyond its text: the role and the separators. */
  public static final int MESSAGE_OVERHEAD = 4;
  /** Tokens a request costs beyond its messages: the priming of the reply. */
  public static final int REPLY_PRIMING = 3;

  private final Tokenizer tokenizer;

  /** An estimator counting with {@link Tokenizers#defaultTokenizer()}. */
  public CtxpackTokenCountEstimator() {
    this(Tokenizers.defaultTokenizer());
  }

  /** An estimator counting with {@code tokenizer}. */
  public CtxpackTokenCountEstimator(Tokenizer tokenizer) {
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
  }

  /** The tokenizer this estimator counts with. */
  public Tokenizer tokenizer() {
    return tokenizer;
  }

  /** The exact token count of {@code text} (0 for null). */
  @Override
  public int estimateTokenCountInText(String text) {
    return text == null || text.isEmpty() ? 0 : tokenizer.count(text);
  }

  /** The tokens of the message's text (tool calls included) plus {@value #MESSAGE_OVERHEAD}. */
  @Override
  public int estimateTokenCountInMessage(ChatMessage message) {
    return estimateTokenCountInText(text(message)) + MESSAGE_OVERHEAD;
  }

  /** The tokens of every message plus {@value #REPLY_PRIMING} for the reply's priming. */
  @Override
  public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
    int sum = REPLY_PRIMING;
    for (ChatMessage m : messages) sum += estimateTokenCountInMessage(m);
    return sum;
  }

  /** The text a model reads of {@code message}: its text, a user message's text parts, a tool call's name and arguments. */
  static String text(ChatMessage message) {
    if (message == null) return "";
    if (message instanceof SystemMessage s) return s.text();
    if (message instanceof UserMessage u) {
      StringBuilder sb = new StringBuilder();
      for (var c : u.contents()) {
        if (c instanceof TextContent t) sb.append(t.text());
      }
      return sb.toString();
    }
    if (message instanceof AiMessage a) {
      StringBuilder sb = new StringBuilder(a.text() == null ? "" : a.text());
      if (a.hasToolExecutionRequests()) {
        for (var r : a.toolExecutionRequests()) sb.append(' ').append(r.name()).append(' ').append(r.arguments());
      }
      return sb.toString();
    }
    if (message instanceof ToolExecutionResultMessage t) return t.text();
    return "";
  }
}
