package dev.ctxpack.app.http;

import dev.ctxpack.app.json.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself, before a request reaches a route, in the service's shape: a
 * path with {@code ..} segments (400), headers over the limit (431), a malformed request line. They
 * used to come back as Jetty's HTML page; now they are {@code {"error": {"code", "message"}}} like
 * every other error, with the status Jetty chose.
 */
final class JettyErrors extends ErrorHandler {
  private static final HttpField JSON = new HttpField(HttpHeader.CONTENT_TYPE, "application/json");

  private static byte[] body(int status, String message) {
    String m = message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
    if (status >= 500) m = ErrorAnswers.INTERNAL;
    return Json.line(ErrorAnswers.errorBody(ErrorAnswers.codeOf(status), m)).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
      Callback callback) {
    response.getHeaders().put(JSON);
    response.write(true, ByteBuffer.wrap(body(code, message)), callback);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(JSON);
    return ByteBuffer.wrap(body(status, reason));
  }
}
