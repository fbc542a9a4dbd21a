package dev.ctxpack.onnx;

/**
 * A remote embedding service failed: it answered with a non-2xx status, sent a body that is not
 * the expected JSON, returned vectors of the wrong dimension, or could not be reached. The message
 * names the endpoint and what went wrong (status and the start of the body for HTTP errors); it
 * never contains the API key.
 */
public final class EmbeddingServiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  EmbeddingServiceException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /**
   * The HTTP status of the failed response, or {@code -1} when the failure was not an HTTP error
   * status (unreachable host, timeout, malformed body, dimension mismatch). 429 and 5xx are
   * usually worth retrying; other 4xx are not.
   */
  public int status() {
    return status;
  }
}
