package dev.ctxpack.springai;

import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.messages.Message;

/**
 * The request's one budget: what the messages sent to the model cost, counted with ctxpack's
 * tokenizer as the chat-completions format frames them ({@link #MESSAGE_OVERHEAD} per message, {@link
 * #REPLY_PRIMING} for the reply), and which history messages fit in what the evidence left.
 */
final class JointBudget {
  /** Tokens the chat format adds around each message (role and separators), an upper estimate. */
  static final int MESSAGE_OVERHEAD = 4;
  /** Tokens the chat format adds to prime the reply. */
  static final int REPLY_PRIMING = 3;

  private final Tokenizer tokenizer;

  JointBudget(Tokenizer tokenizer) {
    this.tokenizer = tokenizer;
  }

  /** What {@code m} costs in the request. */
  int cost(Message m) {
    String t = m.getText();
    return MESSAGE_OVERHEAD + (t == null ? 0 : tokenizer.count(t));
  }

  /** What {@code ms} cost, the reply priming included. */
  int cost(List<Message> ms) {
    int n = REPLY_PRIMING;
    for (Message m : ms) n += cost(m);
    return n;
  }

  /**
   * The newest messages of {@code history} (in their order) whose cost fits in {@code room}: the
   * oldest go first, whole; a message is never cut.
   */
  List<Message> fit(List<Message> history, int room) {
    List<Message> kept = new ArrayList<>();
    int left = room;
    for (int i = history.size() - 1; i >= 0; i--) {
      int c = cost(history.get(i));
      if (c > left) break;
      left -= c;
      kept.add(0, history.get(i));
    }
    return kept;
  }
}
