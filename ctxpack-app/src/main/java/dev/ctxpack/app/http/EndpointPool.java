package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.json.JsonEndpoint;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
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
 * Where endpoints run: at most {@code maxConcurrent} threads (the slots), a queue of at most {@code
 * maxQueued} requests waiting for one, first come first served (503 {@code busy} at once when it is
 * full), and a limit of {@code timeoutMillis} from the moment a request is queued (503 {@code
 * timeout}: a request still queued leaves the queue, a running endpoint is interrupted). A slot is
 * given back when the endpoint really returns, so an endpoint that ignores the interrupt keeps its
 * slot and the cap still holds.
 */
final class EndpointPool {

  final long timeoutMillis;
  final int maxConcurrent;
  final int maxQueued;
  final ThreadPoolExecutor pool;

  EndpointPool(long timeoutMillis, int maxConcurrent, int maxQueued) {
    this.timeoutMillis = timeoutMillis;
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
    AtomicInteger n = new AtomicInteger();
    ThreadFactory threads = r -> {
      Thread t = new Thread(r, "ctxpack-endpoint-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    // The threads are the slots; the executor's bounded queue is the waiting line (with no room
    // at all, a hand-off that only an idle thread takes).
    BlockingQueue<Runnable> queue = maxQueued == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(maxQueued);
    this.pool = new ThreadPoolExecutor(maxConcurrent, maxConcurrent, 0, TimeUnit.MILLISECONDS, queue, threads);
  }

  ObjectNode run(JsonEndpoint endpoint, ObjectNode request, ServiceLog log, String what) throws Exception {
    AtomicBoolean started = new AtomicBoolean();
    FutureTask<ObjectNode> task = new FutureTask<>(() -> {
      started.set(true);
      return endpoint.handle(request);
    });
    try {
      pool.execute(task);
    } catch (RejectedExecutionException e) {
      if (pool.isShutdown()) throw new HttpError(503, "unavailable", "the server is stopping");
      throw new HttpError(503, "busy", "the server is running its limit of " + maxConcurrent
          + " concurrent requests (--max-concurrent) and " + maxQueued + " more are waiting (--max-queued); try again");
    }
    try {
      return task.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      task.cancel(true);
      // Still queued: its place goes to the next request at once.
      pool.remove(task);
      throw new HttpError(503, "timeout", started.get()
          ? "the request took longer than the limit of " + timeoutMillis + " ms (--request-timeout-ms)"
          : "the request waited the whole limit of " + timeoutMillis + " ms (--request-timeout-ms) for one of the "
              + maxConcurrent + " slots (--max-concurrent); try again");
    } catch (InterruptedException e) {
      task.cancel(true);
      pool.remove(task);
      Thread.currentThread().interrupt();
      throw new HttpError(503, "unavailable", "the server is stopping");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception x) throw x;
      // An Error in the endpoint (e.g. a stack overflow) is a fault like any other.
      log.fault(what, cause);
      throw new HttpError(500, "internal", ErrorAnswers.INTERNAL);
    }
  }
}
