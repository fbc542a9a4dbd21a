package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Where the service says what it does: that it listens and where, warnings about its setup, that
 * it stopped, and each fault with its stack trace (which never goes to a client). Lines are written
 * whole and flushed, from any thread.
 *
 * <p>{@link #text} writes {@code ctxpack serve: listening on http://127.0.0.1:8080 (index ...)},
 * {@code ctxpack serve: warning: ...} and {@code ctxpack serve: POST /v1/pack failed: ...} followed by
 * the stack trace; {@link #json} writes one JSON object per line, {@code {"level": "info" | "warning"
 * | "error", "message": "..."}}, with {@code "trace"} (the stack trace) on an error.
 */
public interface ServiceLog {
  /** Something worth knowing, e.g. where the service listens. */
  void info(String message);

  /** A setup that works but may not be what was meant. */
  void warning(String message);

  /** {@code what} (e.g. {@code POST /v1/pack}) failed with {@code error}: a fault, logged with its stack trace. */
  void fault(String what, Throwable error);

  /** Lines for people, prefixed {@code ctxpack serve: }. */
  static ServiceLog text(PrintWriter out) {
    return new ServiceLog() {
      @Override
      public void info(String message) {
        line(out, "ctxpack serve: " + message);
      }

      @Override
      public void warning(String message) {
        line(out, "ctxpack serve: warning: " + message);
      }

      @Override
      public void fault(String what, Throwable error) {
        synchronized (out) {
          out.println("ctxpack serve: " + what + " failed: " + error);
          error.printStackTrace(out);
          out.flush();
        }
      }
    };
  }

  /** One JSON object per line: {@code level}, {@code message} and, for a fault, {@code trace}. */
  static ServiceLog json(PrintWriter out) {
    return new ServiceLog() {
      @Override
      public void info(String message) {
        line(out, Json.line(entry("info", message)));
      }

      @Override
      public void warning(String message) {
        line(out, Json.line(entry("warning", message)));
      }

      @Override
      public void fault(String what, Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        line(out, Json.line(entry("error", what + " failed: " + error).put("trace", trace.toString())));
      }

      private ObjectNode entry(String level, String message) {
        return Json.object().put("level", level).put("message", message);
      }
    };
  }

  private static void line(PrintWriter out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
