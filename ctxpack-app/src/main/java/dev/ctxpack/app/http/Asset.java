package dev.ctxpack.app.http;

import dev.ctxpack.app.Errors;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** A classpath resource served at a path ({@link HttpService.Builder#asset}), with {@link #HEADERS}. */
record Asset(String resource, String contentType) {
  /**
   * The headers of every asset: revalidate each time (a new version of the service may serve new
   * files at the same paths), load scripts, styles and data from this origin only, never sniff a
   * type, never be framed, send no referrer.
   */
  static final Map<String, String> HEADERS = Map.of(
      "Cache-Control", "no-cache",
      "Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "X-Content-Type-Options", "nosniff",
      "X-Frame-Options", "DENY",
      "Referrer-Policy", "no-referrer");

  /** The resource's bytes; a missing one is an {@link IllegalStateException} naming it. */
  byte[] read() {
    try (InputStream in = Asset.class.getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("resource " + resource + " is not on the classpath");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read resource " + resource + ": " + Errors.message(e), e);
    }
  }
}
