package dev.ctxpack.onnx;

import java.io.IOException;

/**
 * A rerank service failed: it answered with an HTTP status of 400 or more, sent a body that is not
 * the expected JSON (not JSON, no results, a missing or repeated index, the wrong number of scores,
 * a score that is not a finite number), did not answer in time, or could not be reached. The
 * message names the endpoint and what went wrong (status and the start of the body where there was
 * one); it never contains the API key. An {@link IOException}, as {@link
 * dev.ctxpack.rerank.Reranker#rerank} declares, so callers that fall back to another reranker on I/O
 * trouble catch it with the rest.
 */
public final class RerankServiceException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int status;

  RerankServiceException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /**
   * The HTTP status of the failed response, or {@code -1} when the failure was not an HTTP error
   * status (unreachable host, timeout, malformed body). 429 and 5xx are usually worth retrying;
   * other 4xx are not.
   */
  public int status() {
    return status;
  }
}
