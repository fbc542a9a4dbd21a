package dev.ctxpack.springai;

/**
 * How {@link CtxpackAdvisor} shared the model's window between the system prompt, the evidence and
 * the chat memory for one request, counted with ctxpack's tokenizer, each message with the chat
 * format's framing. {@code total <= limit} always. In the request and response context under {@link
 * CtxpackAdvisor#BUDGET}.
 *
 * @param limit the context window less the tokens reserved for the reply
 * @param system tokens of the system messages
 * @param evidence tokens of ctxpack's prompt (instructions, fenced sources, question)
 * @param historyKept history messages sent (the newest)
 * @param historyTokens tokens of the history sent
 * @param historyDropped history messages left out (the oldest, whole)
 * @param total tokens of the whole request
 */
public record WindowBudget(int limit, int system, int evidence, int historyKept, int historyTokens,
    int historyDropped, int total) {
  /** Checks the request fits. */
  public WindowBudget {
    if (total > limit) throw new IllegalStateException("request of " + total + " tokens exceeds the limit " + limit);
  }
}
