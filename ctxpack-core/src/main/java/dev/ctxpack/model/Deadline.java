package dev.ctxpack.model;

import java.util.concurrent.Callable;

/**
 * A cooperative end to a piece of work: the long loops of the core (dedup's pairwise comparisons,
 * the guard's sentence alignment, compression's sentence scoring and selection, verification's
 * claims, the packer's stages) call {@link #check()}, which throws {@link WorkCancelledException}
 * once the current thread has been interrupted or has passed the deadline {@link #within} gave it.
 * Without a deadline and without an interrupt a check costs a thread-local read and does nothing,
 * so the library behaves as before for callers that never set one.
 *
 * <pre>{@code
 * Deduplication d = Deadline.within(30_000, () -> dedup.dedup(ranked, tokenizer, vectors, trace));
 * }</pre>
 *
 * <p>The interrupt flag is left as it is (a check never clears it), so a caller further up still
 * sees why the work stopped.
 */
public final class Deadline {
  /** The current thread's deadline in {@link System#nanoTime()} terms; absent: none. */
  private static final ThreadLocal<long[]> CURRENT = new ThreadLocal<>();

  private Deadline() {}

  /**
   * Runs {@code work} on this thread with a deadline {@code millis} from now (an earlier deadline
   * already set stays in force), and restores the previous one afterwards.
   */
  public static <T> T within(long millis, Callable<T> work) throws Exception {
    if (millis < 0) throw new IllegalArgumentException("millis must be >= 0, was " + millis);
    long[] previous = CURRENT.get();
    long now = System.nanoTime();
    long end = now + Math.min(millis, Long.MAX_VALUE / 4_000_000L) * 1_000_000L;
    if (previous != null && previous[0] - end < 0) end = previous[0];
    CURRENT.set(new long[] {end});
    try {
      return work.call();
    } finally {
      if (previous == null) CURRENT.remove();
      else CURRENT.set(previous);
    }
  }

  /** Whether the work on this thread should stop: interrupted, or past its deadline. */
  public static boolean expired() {
    if (Thread.currentThread().isInterrupted()) return true;
    long[] end = CURRENT.get();
    return end != null && System.nanoTime() - end[0] >= 0;
  }

  /** Throws {@link WorkCancelledException} when the work on this thread should stop ({@link #expired()}). */
  public static void check() {
    if (Thread.currentThread().isInterrupted()) throw new WorkCancelledException(true);
    long[] end = CURRENT.get();
    if (end != null && System.nanoTime() - end[0] >= 0) throw new WorkCancelledException(false);
  }
}
