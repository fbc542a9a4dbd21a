package dev.ctxpack.app.http;

/**
 * The web inspector: {@code GET /} and its script and style under {@code /inspector/}, served by
 * {@code ctxpack serve} from this module's resources ({@code dev/ctxpack/app/inspector/}). The page
 * is plain HTML, CSS and JavaScript with no build step and nothing fetched from elsewhere: it calls
 * {@code POST /v1/pack} and {@code /v1/verify} on the same origin and renders their JSON (or a
 * package JSON loaded from a file) with the DOM's {@code textContent}, never as HTML. {@code GET
 * /inspector/calibration/NAME.svg} answers the reliability diagrams of the shipped sentence scorer
 * (written by {@code ./ctxpack eval calibration}, copies of {@code docs/img/calibration-NAME.svg}).
 */
final class Inspector {
  static final String PAGE = "/";
  static final String SCRIPT = "/inspector/app.js";
  static final String STYLE = "/inspector/style.css";
  private static final String DIR = "/dev/ctxpack/app/inspector/";
  /** The reliability diagrams served under {@link #CALIBRATION}: one per data set and language. */
  static final java.util.List<String> DIAGRAMS = java.util.List.of("squad-en", "faquad-pt");
  static final String CALIBRATION = "/inspector/calibration/";

  private Inspector() {}

  /** Adds the page and its assets to {@code routes}. */
  static HttpService.Builder routes(HttpService.Builder routes) {
    routes.asset(PAGE, DIR + "index.html", "text/html; charset=utf-8")
        .asset(SCRIPT, DIR + "app.js", "text/javascript; charset=utf-8")
        .asset(STYLE, DIR + "style.css", "text/css; charset=utf-8");
    for (String name : DIAGRAMS) {
      routes.asset(CALIBRATION + name + ".svg", DIR + "calibration/" + name + ".svg", "image/svg+xml; charset=utf-8");
    }
    return routes;
  }
}
