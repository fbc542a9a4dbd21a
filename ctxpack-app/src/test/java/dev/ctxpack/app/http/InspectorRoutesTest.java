package dev.ctxpack.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inspector's routes on a real service (loopback, port 0): what {@code GET /} and its assets
 * answer, with which headers, and that the service's JSON errors are unchanged around them. What
 * the page does is {@link InspectorBrowserTest}'s.
 */
class InspectorRoutesTest {
  static HttpService service;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    service = Inspector.routes(HttpService.builder().host("127.0.0.1").port(0)
        .log(ServiceLog.text(new PrintWriter(new StringWriter(), true))).post("/v1/echo", req -> req)).start();
  }

  @AfterAll
  static void stop() {
    if (service != null) service.close();
  }

  @Test
  void thePageAndItsAssetsComeWithTheirTypesAndSecurityHeaders() throws Exception {
    for (String[] asset : new String[][] {
        {"/", "text/html; charset=utf-8", "index.html"},
        {"/inspector/app.js", "text/javascript; charset=utf-8", "app.js"},
        {"/inspector/style.css", "text/css; charset=utf-8", "style.css"}}) {
      HttpResponse<String> r = get(asset[0]);
      assertThat(r.statusCode()).as(asset[0]).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElseThrow().replace(" ", ""))
          .as(asset[0]).isEqualToIgnoringCase(asset[1].replace(" ", ""));
      assertThat(r.headers().firstValue("X-Content-Type-Options")).as(asset[0]).hasValue("nosniff");
      assertThat(r.headers().firstValue("Cache-Control")).as(asset[0]).hasValue("no-cache");
      String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
      assertThat(csp).contains("default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
          "frame-ancestors 'none'").doesNotContain("unsafe-inline", "unsafe-eval", "http:", "https:");
      assertThat(r.body()).as(asset[0]).isEqualTo(resource(asset[2]));
    }
  }

  @Test
  void thePageLoadsNothingFromElsewhereAndNeedsNoBuildStep() throws Exception {
    String page = get("/").body();
    assertThat(page).contains("<script src=\"/inspector/app.js\" defer></script>")
        .contains("<link rel=\"stylesheet\" href=\"/inspector/style.css\">");
    // No inline script or style (the policy would block them), no URL of another origin anywhere.
    assertThat(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(page).find()).isFalse();
    assertThat(page).doesNotContain("<style", " style=");
    Pattern remote = Pattern.compile("(?i)(https?:)?//[a-z0-9.-]+\\.[a-z]{2,}");
    for (String name : new String[] {"index.html", "app.js", "style.css"}) {
      assertThat(remote.matcher(resource(name)).find()).as(name + " names another origin").isFalse();
    }
    // Text from packages goes in with textContent: the script never assigns markup.
    assertThat(resource("app.js")).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
  }

  @Test
  void theCalibrationDiagramsAreServedAsSvgWithTheirBinsAndTheEceThePageQuotes() throws Exception {
    String page = get("/").body();
    for (String name : Inspector.DIAGRAMS) {
      String path = "/inspector/calibration/" + name + ".svg";
      HttpResponse<String> r = get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElseThrow().replace(" ", "")).as(path)
          .isEqualToIgnoringCase("image/svg+xml;charset=utf-8");
      assertThat(r.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
      assertThat(r.body()).as(path).isEqualTo(resource("calibration/" + name + ".svg"));
      // A well-formed SVG with one point per non-empty bin, each with its range, count and both frequencies.
      var doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new java.io.ByteArrayInputStream(r.body().getBytes(StandardCharsets.UTF_8)));
      assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
      var bins = Pattern.compile("<circle class=\"bin\" data-lo=\"(0\\.\\d)\" data-hi=\"(\\d\\.\\d)\" data-count=\"(\\d+)\""
          + " data-predicted=\"(0\\.\\d{4}|1\\.0000)\" data-observed=\"(0\\.\\d{4}|1\\.0000)\"").matcher(r.body());
      java.util.Set<String> los = new java.util.TreeSet<>();
      long sentences = 0;
      while (bins.find()) {
        los.add(bins.group(1));
        sentences += Long.parseLong(bins.group(3));
        double lo = Double.parseDouble(bins.group(1));
        double predicted = Double.parseDouble(bins.group(4));
        assertThat(predicted).as(path + " bin " + lo).isBetween(lo, lo + 0.1);
      }
      assertThat(los).as(path + ": the ten bins").hasSize(10);
      assertThat(sentences).as(path).isGreaterThan(1000);
      // Every ECE the page quotes for this diagram is the one the diagram states.
      var quoted = Pattern.compile("data-diagram=\"" + name + "\">([a-z.]+) ECE (0\\.\\d{4})<").matcher(page);
      int n = 0;
      while (quoted.find()) {
        n++;
        assertThat(r.body()).as(path).contains("data-series=\"" + quoted.group(1) + ", REPORT half\"")
            .contains("<text class=\"ece\"", "ECE " + quoted.group(2) + ",");
        int series = r.body().indexOf("data-series=\"" + quoted.group(1) + ", REPORT half\"");
        int ece = r.body().indexOf("<text class=\"ece\"", series);
        assertThat(r.body().substring(ece, r.body().indexOf("</text>", ece))).as(path).contains("ECE " + quoted.group(2) + ",");
      }
      assertThat(n).as("the page quotes an ECE for " + name).isPositive();
      assertThat(page).contains("<a href=\"" + path + "\">", "<img src=\"" + path + "\"");
      // The inspector serves the diagram the benchmarks page shows.
      java.nio.file.Path docs = java.nio.file.Path.of("..", "docs", "img", "calibration-" + name + ".svg");
      if (java.nio.file.Files.exists(docs)) {
        assertThat(r.body()).as(docs + " and the served copy").isEqualTo(java.nio.file.Files.readString(docs));
      }
    }
    assertThat(get("/inspector/calibration/none.svg").statusCode()).isEqualTo(404);
  }

  @Test
  void otherPathsAndMethodsKeepTheJsonErrors() throws Exception {
    HttpResponse<String> missing = get("/inspector/nope.js");
    assertThat(missing.statusCode()).isEqualTo(404);
    JsonNode body = Json.MAPPER.readTree(missing.body());
    assertThat(body.get("error").get("code").asText()).isEqualTo("not_found");

    HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri("/")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET");
    assertThat(Json.MAPPER.readTree(post.body()).get("error").get("code").asText()).isEqualTo("method_not_allowed");

    HttpResponse<String> echo = http.send(HttpRequest.newBuilder(uri("/v1/echo")).POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(echo.body()).isEqualTo("{\"a\":1}");
  }

  @Test
  void anAssetMissingFromTheClasspathFailsTheStartNamingIt() {
    HttpService.Builder b = HttpService.builder().host("127.0.0.1").port(0).asset("/x", "/dev/ctxpack/app/inspector/none.js", "text/javascript");
    assertThatThrownBy(b::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("none.js");
    assertThatThrownBy(() -> HttpService.builder().asset("/", "/a", "text/html").post("/", req -> req))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("route / given twice");
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = Inspector.class.getResourceAsStream("/dev/ctxpack/app/inspector/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + service.port() + path);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
