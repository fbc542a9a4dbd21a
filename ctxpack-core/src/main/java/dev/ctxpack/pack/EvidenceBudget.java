package dev.ctxpack.pack;

/**
 * The tokens one request's evidence may spend, as they are worked out before retrieval: {@code
 * limit} is the prompt's limit; {@code fixed} what its instructions and question take with no
 * source; {@code reserved} what is set aside for a repeated key; {@code granted} what the evidence
 * may take once compressed (one prompt: the limit less the fixed part and the reserve; a plan: {@code
 * maxCalls - 1} prompts' worth); {@code drawn} what selection may draw for compression to cut back
 * ({@value #OVERSUBSCRIBE} times the grant with compression on, else the grant).
 */
public record EvidenceBudget(int limit, int fixed, int reserved, int granted, int drawn) {
  /** With compression on, selection draws this many times the grant for compression to cut back. */
  public static final int OVERSUBSCRIBE = 2;

  public EvidenceBudget {
    if (fixed > limit) throw new BudgetTooSmallException(limit, fixed);
    if (reserved < 0 || granted < 0 || drawn < 0) {
      throw new IllegalArgumentException("reserved, granted and drawn must be >= 0, were " + reserved + ", " + granted + ", " + drawn);
    }
  }

  /**
   * The budget of a request with {@code limit} tokens, {@code fixed} of them the instructions and
   * question, {@code keyReserve} wanted for a repeated key (capped by what is left), as one prompt
   * or as a plan of {@code maxCalls} calls, drawing twice the grant when {@code compress}.
   */
  static EvidenceBudget of(int limit, int fixed, int keyReserve, boolean planned, int maxCalls, boolean compress) {
    if (fixed > limit) throw new BudgetTooSmallException(limit, fixed);
    int reserved = Math.min(keyReserve, limit - fixed);
    int room = limit - fixed - reserved;
    int granted = planned
        ? (int) Math.min(Integer.MAX_VALUE / OVERSUBSCRIBE, (long) (maxCalls - 1) * (limit - fixed))
        : room;
    int drawn = compress ? (int) Math.min(Integer.MAX_VALUE, (long) OVERSUBSCRIBE * granted) : granted;
    return new EvidenceBudget(limit, fixed, reserved, granted, drawn);
  }

  /** What selection leaves of {@link #drawn} after spending {@code spent}. */
  public int left(int spent) {
    return drawn - spent;
  }
}
