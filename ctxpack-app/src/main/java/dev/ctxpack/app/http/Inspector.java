package dev.ctxpack.app.http;

/**
 * The web inspector: {@code GET /} and its script and style under {@code /inspector/}, served by
 * {@code ctxpack serve} from this module's resources ({@code dev/ctxpack/app/inspector/}). The page
 * is plain HTML, CSS and JavaScript with no build step and nothing fetched from elsewhere: it calls
 * {@code POST /v1/pack} and {@code /v1/verify} on the same origin and renders their JSON (or a
 * package JSON loaded from a file) with the DOM's {@code textContent}, never as HTML.
 */
final class Inspector {
  static final String PAGE = "/";
  static final String SCRIPT = "/inspector/app.js";
  static final String STYLE = "/inspector/style.css";
  private static final String DIR = "/dev/ctxpack/app/inspector/";

  private Inspector() {}

  /** Adds the page and its assets to {@code routes}. */
  static HttpService.Builder routes(HttpService.Builder routes) {
    return routes.asset(PAGE, DIR + "index.html", "text/html; charset=utf-8")
        .asset(SCRIPT, DIR + "app.js", "text/javascript; charset=utf-8")
        .asset(STYLE, DIR + "style.css", "text/css; charset=utf-8");
  }
}
