package dev.ctxpack.assemble;

import java.util.Objects;

/** A worked example shown to the model before the conversation: a user {@code input} and the assistant's {@code output}. */
public record FewShot(String input, String output) {
  public FewShot {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
  }

  /** What the example costs as its two messages. */
  int cost(dev.ctxpack.token.Tokenizer tok) {
    return MessageCost.of(input, tok) + MessageCost.of(output, tok);
  }
}
