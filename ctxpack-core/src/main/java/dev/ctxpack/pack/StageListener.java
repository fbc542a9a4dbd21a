package dev.ctxpack.pack;

/**
 * Told how long each stage of a request took, once per stage per request, when the request ends
 * (e.g. to feed a latency histogram per stage). Stages of {@link DefaultContextPacker}: {@code
 * retrieve}, {@code dedup}, {@code rerank}, {@code select}, {@code compress}, {@code order}, {@code
 * render}; a stage that did not run is not reported. Called on the request's thread; must be
 * thread-safe and quick.
 */
@FunctionalInterface
public interface StageListener {
  StageListener NONE = (stage, nanos) -> {};

  void stage(String stage, long nanos);
}
