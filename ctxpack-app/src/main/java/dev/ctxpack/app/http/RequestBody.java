package dev.ctxpack.app.http;

import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Reads a request's body, counting its bytes while reading and decoding it as strict UTF-8. */
final class RequestBody {
  private RequestBody() {}

  /**
   * The body as text: at most {@code cap} bytes (413 otherwise, whether or not a Content-Length
   * said so), strict UTF-8 (400 at the first bad byte), a leading byte-order mark dropped.
   */
  static String read(Context ctx, long cap) throws IOException {
    long declared = ctx.req().getContentLengthLong();
    InputStream in = ctx.req().getInputStream();
    byte[] chunk = new byte[8192];
    if (declared > cap) {
      // A client that sent no "Expect: 100-continue" is writing the body now: read (and drop) a
      // little of it so the 413 reaches the client instead of a reset connection.
      if (declared - cap <= DRAIN_BYTES) drain(in, chunk, declared);
      throw tooLarge(cap);
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
    long total = 0;
    for (int n; (n = in.read(chunk)) != -1; ) {
      total += n;
      if (total > cap) {
        drain(in, chunk, DRAIN_BYTES);
        throw tooLarge(cap);
      }
      buf.write(chunk, 0, n);
    }
    ByteBuffer bytes = ByteBuffer.wrap(buf.toByteArray());
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes).toString();
    } catch (CharacterCodingException e) {
      throw new HttpError(400, "bad_request", "the request body is not valid UTF-8 (byte " + bytes.position() + ")");
    }
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /** How much of an over-long body is read and dropped before the 413 goes out. */
  static final long DRAIN_BYTES = 1L << 20;

  private static void drain(InputStream in, byte[] chunk, long most) {
    long read = 0;
    try {
      for (int n; read < most && (n = in.read(chunk)) != -1; ) read += n;
    } catch (IOException ignored) {
      // the client went away: nothing to answer
    }
  }

  private static HttpError tooLarge(long cap) {
    return new HttpError(413, "too_large", "the request body is larger than " + cap + " bytes");
  }
}
