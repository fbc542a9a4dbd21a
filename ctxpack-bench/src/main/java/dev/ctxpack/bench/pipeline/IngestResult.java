package dev.ctxpack.bench.pipeline;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What building one index cost: documents and chunks written, input bytes (the corpus file as
 * ingested), and wall-clock seconds, split where the pipeline allows.
 *
 * @param pipeline {@code ctxpack} or {@code peer}
 * @param variant e.g. {@code full (with embeddings)} or {@code --no-embed}
 * @param embedSeconds seconds spent computing document embeddings where measured separately, else null
 */
public record IngestResult(
    String pipeline, String variant, int documents, int chunks, long inputBytes, double seconds, Double embedSeconds) {

  /** Input megabytes (10^6 bytes) per second. */
  @JsonProperty("mbPerSecond")
  public double mbPerSecond() {
    return seconds > 0 ? inputBytes / 1e6 / seconds : Double.NaN;
  }

  @JsonProperty("docsPerSecond")
  public double docsPerSecond() {
    return seconds > 0 ? documents / seconds : Double.NaN;
  }
}
