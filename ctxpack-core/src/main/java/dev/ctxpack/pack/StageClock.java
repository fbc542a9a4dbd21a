package dev.ctxpack.pack;

import dev.ctxpack.model.Deadline;
import java.util.LinkedHashMap;
import java.util.Map;

/** Time per stage of one request, summed over repeats (a refill retrieves again), reported at its end. */
final class StageClock {
  private final Map<String, Long> spent = new LinkedHashMap<>();
  private long last = System.nanoTime();

  /** Ends {@code stage}; then stops the request if its thread was interrupted or passed its {@link Deadline}. */
  void lap(String stage) {
    long now = System.nanoTime();
    spent.merge(stage, now - last, Long::sum);
    last = now;
    Deadline.check();
  }

  void report(StageListener listener) {
    spent.forEach(listener::stage);
  }
}
