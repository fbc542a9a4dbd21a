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
