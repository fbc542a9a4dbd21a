package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.model.Deadline;
import dev.ctxpack.model.WorkCancelledException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the endpoints of one class (light or heavy, {@link HttpService}) run: at most {@code
 * maxConcurrent} threads (the slots), a queue of at most {@code maxQueued} requests waiting for one,
 * first come first served (503 {@code busy} at once when it is full), and a limit of {@code
 * timeoutMillis} from the moment a request is queued (503 {@code timeout}).
 *
 * <p>The limit stops the work, not only the wait: the endpoint runs under a {@link Deadline} at the
 * end of the limit, which the core's long loops check, and at the limit its thread is interrupted
 * too (for blocking calls and the embedder). The 503 is answered once the endpoint has really
 * returned, or after {@link #STOP_GRACE_MILLIS} if it ignores both, so a time-out gives its slot
 * back before the client hears of it. A slot is given back only when the endpoint returns, so an
 * endpoint that ignores the interrupt keeps its slot and the cap still holds.
 */
final class EndpointPool {
  /** How long a timed-out request waits for its endpoint to stop before answering 503 anyway. */
  static final long STOP_GRACE_MILLIS = 2_000;

  final String name;
  final String flag;
  final long timeoutMillis;
  final int maxConcurrent;
  final int maxQueued;
  final ThreadPoolExecutor pool;

  /**
   * @param name the class of endpoints, for the thread names and the messages ("light", "heavy")
   * @param flag the {@code ctxpack serve} option that sets {@code maxConcurrent}, named by the messages
   */
  EndpointPool(String name, String flag, long timeoutMillis, int maxConcurrent, int maxQueued) {
    this.name = name;
    this.flag = flag;
    this.timeoutMillis = timeoutMillis;
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
    AtomicInteger n = new AtomicInteger();
    ThreadFactory threads = r -> {
      Thread t = new Thread(r, "ctxpack-endpoint-" + name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    // The threads are the slots; the executor's bounded queue is the waiting line (with no room
    // at all, a hand-off that only an idle thread takes).
    BlockingQueue<Runnable> queue = maxQueued == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(maxQueued);
    this.pool = new ThreadPoolExecutor(maxConcurrent, maxConcurrent, 0, TimeUnit.MILLISECONDS, queue, threads);
  }

  /** How many of its endpoints are running now. */
  int running() {
    return pool.getActiveCount();
  }

  ObjectNode run(JsonEndpoint endpoint, ObjectNode request, ServiceLog log, String what) throws Exception {
    AtomicBoolean started = new AtomicBoolean();
    CountDownLatch returned = new CountDownLatch(1);
    long queuedAt = System.nanoTime();
    FutureTask<ObjectNode> task = new FutureTask<>(() -> {
      started.set(true);
      try {
        long left = timeoutMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - queuedAt);
        return Deadline.within(Math.max(0, left), () -> endpoint.handle(request));
      } finally {
        returned.countDown();
      }
    });
    try {
      pool.execute(task);
    } catch (RejectedExecutionException e) {
      if (pool.isShutdown()) throw new HttpError(503, "unavailable", "the server is stopping");
      throw new HttpError(503, "busy", "the server is running its limit of " + maxConcurrent + " concurrent " + name
          + " requests (" + flag + ") and " + maxQueued + " more are waiting (--max-queued); try again");
    }
    try {
      return task.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw timedOut(task, started, returned);
    } catch (InterruptedException e) {
      task.cancel(true);
      pool.remove(task);
      Thread.currentThread().interrupt();
      throw new HttpError(503, "unavailable", "the server is stopping");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      // The endpoint reached its deadline a moment before this thread did.
      if (cause instanceof WorkCancelledException) throw timeout(true);
      if (cause instanceof Exception x) throw x;
      // An Error in the endpoint (e.g. a stack overflow) is a fault like any other.
      log.fault(what, cause);
      throw new HttpError(500, "internal", ErrorAnswers.INTERNAL);
    }
  }

  /** Stops a task past the limit (a queued one leaves the queue), waits for it to return, and says so. */
  private HttpError timedOut(FutureTask<ObjectNode> task, AtomicBoolean started, CountDownLatch returned) {
    task.cancel(true);
    // Still queued: its place goes to the next request at once.
    pool.remove(task);
    if (started.get()) {
      try {
        returned.await(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException stopping) {
        Thread.currentThread().interrupt();
      }
    }
    return timeout(started.get());
  }

  private HttpError timeout(boolean started) {
    return new HttpError(503, "timeout", started
        ? "the request took longer than the limit of " + timeoutMillis + " ms (--request-timeout-ms)"
        : "the request waited the whole limit of " + timeoutMillis + " ms (--request-timeout-ms) for one of the "
            + maxConcurrent + " slots of " + name + " requests (" + flag + "); try again");
  }
}
