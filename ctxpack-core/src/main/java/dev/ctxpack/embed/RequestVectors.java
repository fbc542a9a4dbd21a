package dev.ctxpack.embed;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The vectors of the single texts embedded during one request on this thread: within a request
 * opened with {@link #open()}, {@link Embedder#embed(String)} runs the model once per embedder and
 * text, and a second call (retrieval and compression both embed the query) is answered from here.
 * Nothing outlives the request: {@link #close()} drops every vector, so no request is faster for
 * what an earlier one embedded. A request opened inside another is part of it. Outside a request,
 * every call runs the model. Vectors are handed out as copies, so a caller that scales its vector
 * cannot change another's.
 *
 * <pre>{@code
 * try (RequestVectors request = RequestVectors.open()) {
 *   float[] a = embedder.embed(query); // the model runs
 *   float[] b = embedder.embed(query); // answered from the request: equal to a
 * }
 * }</pre>
 */
public final class RequestVectors implements AutoCloseable {
  private static final ThreadLocal<RequestVectors> CURRENT = new ThreadLocal<>();

  /** Per embedder (by identity: two instances may differ), the vector of each text. */
  private final Map<Embedder, Map<String, float[]>> vectors;
  private final boolean outermost;

  private RequestVectors(Map<Embedder, Map<String, float[]>> vectors, boolean outermost) {
    this.vectors = vectors;
    this.outermost = outermost;
  }

  /** Opens a request on this thread, or joins the one already open. */
  public static RequestVectors open() {
    RequestVectors current = CURRENT.get();
    if (current != null) return new RequestVectors(current.vectors, false);
    RequestVectors r = new RequestVectors(new IdentityHashMap<>(), true);
    CURRENT.set(r);
    return r;
  }

  /** How many texts' vectors the request open on this thread holds (0 outside one). */
  public static int held() {
    RequestVectors current = CURRENT.get();
    if (current == null) return 0;
    int n = 0;
    for (Map<String, float[]> m : current.vectors.values()) n += m.size();
    return n;
  }

  /** {@code text}'s vector from {@code embedder}: remembered within the open request, else computed. */
  static float[] vector(Embedder embedder, String text, Supplier<float[]> compute) {
    RequestVectors current = CURRENT.get();
    if (current == null) return compute.get();
    Map<String, float[]> known = current.vectors.computeIfAbsent(embedder, e -> new HashMap<>());
    float[] v = known.get(text);
    if (v == null) {
      v = compute.get();
      if (v != null) known.put(text, v.clone());
      return v;
    }
    return v.clone();
  }

  /** Ends the request (the outermost close): its vectors are dropped. */
  @Override
  public void close() {
    if (outermost && CURRENT.get() == this) CURRENT.remove();
  }
}
