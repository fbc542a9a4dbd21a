package dev.ctxpack.app.http;

/**
 * A request answered with an error: its HTTP status, its code (the {@code "code"} of {@code
 * {"error": {"code", "message"}}}) and its message. A route throws one for 401, 403, 404, 413 and
 * 503; {@link ErrorAnswers} writes it.
 */
final class HttpError extends RuntimeException {
  final int status;
  final String code;

  HttpError(int status, String code, String message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
