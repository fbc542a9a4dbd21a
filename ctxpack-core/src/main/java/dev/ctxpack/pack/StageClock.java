package dev.ctxpack.pack;

import java.util.LinkedHashMap;
import java.util.Map;

/** Time per stage of one request, summed over repeats (a refill retrieves again), reported at its end. */
final class StageClock {
  private final Map<String, Long> spent = new LinkedHashMap<>();
  private long last = System.nanoTime();

  void lap(String stage) {
    long now = System.nanoTime();
    spent.merge(stage, now - last, Long::sum);
    last = now;
  }

  void report(StageListener listener) {
    spent.forEach(listener::stage);
  }
}
