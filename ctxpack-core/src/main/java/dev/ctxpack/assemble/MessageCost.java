package dev.ctxpack.assemble;

import dev.ctxpack.token.Tokenizer;

/**
 * How chat messages are counted, following OpenAI's accounting for its chat models: each message
 * costs its content's tokens plus {@value #PER_MESSAGE} for the role and delimiters, plus {@value
 * #PER_NAME} when it carries a name; tool calls cost their serialized JSON; every reply is primed
 * with {@value #REPLY_PRIMING} tokens, counted once per request.
 */
public final class MessageCost {
  public static final int PER_MESSAGE = 3;
  public static final int PER_NAME = 1;
  public static final int REPLY_PRIMING = 3;

  private MessageCost() {}

  /** The tokens {@code turn} costs as one message. */
  public static int of(Turn turn, Tokenizer tokenizer) {
    return of(turn.content(), tokenizer) + (turn.name().isEmpty() ? 0 : PER_NAME + tokenizer.count(turn.name()))
        + (turn.toolCallId().isEmpty() ? 0 : tokenizer.count(turn.toolCallId()))
        + (turn.toolCallsJson().isEmpty() ? 0 : tokenizer.count(turn.toolCallsJson()));
  }

  /** The tokens a message with {@code content} and no name or tool calls costs. */
  public static int of(String content, Tokenizer tokenizer) {
    return PER_MESSAGE + tokenizer.count(content);
  }
}
