package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.model.WorkCancelledException;
import dev.ctxpack.pack.InsufficientEvidenceException;
import dev.ctxpack.model.WorkLimitException;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;

/**
 * Errors as the service answers them, {@code {"error": {"code", "message"}}}: an {@link HttpError}
 * with its own status and code; {@link WorkLimitException} 422 {@code too_much_work} (a cap on work,
 * its message naming what was counted and the cap); {@link InsufficientEvidenceException} 422 {@code
 * insufficient_evidence} (a request with {@code "onInsufficient": "fail"}; the body's {@code
 * "evidence"} lists what came closest); {@link WorkCancelledException} 503 {@code
 * timeout}; {@link IllegalArgumentException} and {@link UsageException} 400
 * {@code bad_request} with their message (it names the field); Javalin's own errors with the code of
 * their status; anything else 500 {@code internal}, whose stack trace goes to the log and never to
 * the client.
 */
final class ErrorAnswers {
  /** The context attribute that carries an error answer's code to the metrics. */
  static final String ERROR_CODE = "ctxpack.errorCode";
  /** The message of every 500. */
  static final String INTERNAL = "internal error; the server's log has the details";

  private ErrorAnswers() {}

  /** Answers {@code e} as {@code {"error": {"code", "message"}}} with its status; a fault goes to {@code log}. */
  static void answer(Context ctx, Exception e, ServiceLog log) {
    int status;
    String code;
    String message;
    if (e instanceof HttpError h) {
      status = h.status;
      code = h.code;
      message = h.getMessage();
    } else if (e instanceof WorkLimitException) {
      // Within the caps on size, over a cap on work: the message names what was counted and the cap.
      status = 422;
      code = "too_much_work";
      message = e.getMessage();
    } else if (e instanceof InsufficientEvidenceException ie) {
      // The request asked to fail rather than abstain: the judgement, with what came closest, is in the body.
      ctx.attribute(ERROR_CODE, "insufficient_evidence");
      ObjectNode body = errorBody("insufficient_evidence", e.getMessage());
      body.set("evidence", Views.evidence(ie.evidence()));
      ctx.status(422).json(body);
      return;
    } else if (e instanceof WorkCancelledException) {
      status = 503;
      code = "timeout";
      message = "the request was stopped before it finished (--request-timeout-ms)";
    } else if (e instanceof IllegalArgumentException || e instanceof UsageException) {
      status = 400;
      code = "bad_request";
      message = Errors.message(e);
    } else if (e instanceof HttpResponseException h) {
      // One of Javalin's own (its 404 and 405 are rewritten by the error handlers in start()).
      status = h.getStatus();
      code = codeOf(status);
      message = Errors.message(e);
    } else {
      log.fault(ctx.method() + " " + ctx.path(), e);
      status = 500;
      code = "internal";
      message = INTERNAL;
    }
    ctx.attribute(ERROR_CODE, code);
    if (status == 401) ctx.header("WWW-Authenticate", "Bearer realm=\"ctxpack\"");
    ctx.status(status).json(errorBody(code, message));
  }

  /** The code of an error Javalin or Jetty answers itself, by its status. */
  static String codeOf(int status) {
    return switch (status) {
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 413 -> "too_large";
      case 414 -> "uri_too_long";
      case 431 -> "headers_too_large";
      default -> status < 500 ? "bad_request" : "internal";
    };
  }

  static ObjectNode errorBody(String code, String message) {
    ObjectNode o = Json.object();
    o.putObject("error").put("code", code).put("message", message);
    return o;
  }
}
