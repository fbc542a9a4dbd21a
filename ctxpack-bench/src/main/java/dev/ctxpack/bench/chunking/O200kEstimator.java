package dev.ctxpack.bench.chunking;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.TokenCountEstimator;

/**
 * LangChain4j's {@link TokenCountEstimator} counting with JTokkit's o200k_base, as a LangChain4j user
 * would write it for GPT-4o: the baseline splitter's token counter.
 */
final class O200kEstimator implements TokenCountEstimator {
  private final Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

  @Override
  public int estimateTokenCountInText(String text) {
    return encoding.countTokensOrdinary(text);
  }

  @Override
  public int estimateTokenCountInMessage(ChatMessage message) {
    throw new UnsupportedOperationException("the chunking benchmark counts text only");
  }

  @Override
  public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
    throw new UnsupportedOperationException("the chunking benchmark counts text only");
  }
}
