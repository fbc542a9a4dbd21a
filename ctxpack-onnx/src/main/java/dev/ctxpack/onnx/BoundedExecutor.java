package dev.ctxpack.onnx;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default executor for in-process models: one daemon thread per available processor, shared by
 * every embedder that was not given its own, idle threads exit after 30 s. The thread count is
 * bounded; the queue holds one task per text of the batches in flight.
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
}
