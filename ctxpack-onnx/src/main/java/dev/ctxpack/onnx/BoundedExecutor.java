package dev.ctxpack.onnx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * The default executor for in-process models: one daemon thread per available processor, shared by
 * every embedder that was not given its own, idle threads exit after 30 s. The thread count is
 * bounded; the queue holds one task per text of the batches in flight. {@link #mapInOrder} is how
 * in-process models spread work over such an executor.
 */
final class BoundedExecutor {
  private BoundedExecutor() {}

  private static final class Holder {
    static final Executor SHARED = create(Runtime.getRuntime().availableProcessors(), "ctxpack-embed");
  }

  static Executor shared() {
    return Holder.SHARED;
  }

  static ThreadPoolExecutor create(int threads, String namePrefix) {
    if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, was " + threads);
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, namePrefix + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * Computes {@code task(0) .. task(n - 1)} and returns the results in index order. One item runs
   * on the calling thread; more run one task per item on {@code executor}. The first failure in
   * index order cancels the tasks not yet started and is rethrown as it was (runtime exceptions and
   * errors); an interrupt while waiting cancels them too and is reported as an {@link
   * IllegalStateException} saying what was interrupted ({@code what}, e.g. "embedding 8 texts with
   * x").
   */
  static <R> List<R> mapInOrder(int n, IntFunction<R> task, Executor executor, String what) {
    if (n == 0) return List.of();
    if (n == 1) return Collections.singletonList(task.apply(0));
    List<CompletableFuture<R>> futures = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int index = i;
      futures.add(CompletableFuture.supplyAsync(() -> task.apply(index), executor));
    }
    List<R> out = new ArrayList<>(n);
    try {
      for (CompletableFuture<R> f : futures) out.add(f.get());
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(false));
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) throw (RuntimeException) cause;
      if (cause instanceof Error) throw (Error) cause;
      throw new IllegalStateException(what + " failed: " + cause, cause);
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(false));
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while " + what, e);
    }
    return Collections.unmodifiableList(out);
  }
}
