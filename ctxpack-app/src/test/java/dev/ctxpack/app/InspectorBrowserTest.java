package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The inspector end to end in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, driven by Selenium with the driver's path given, so nothing is fetched):
 * {@code ctxpack serve} on a loopback port over a small index ingested here, a query typed and
 * packed, the budget bars, the sources with kept and dropped sentences, the merge links, the exact
 * prompt, an answer's claims by verdict, and a package JSON loaded from a file. Screenshots go to
 * {@code target/inspector-screenshots/}.
 *
 * <p>Without the browser the class is skipped, saying why, unless {@code CTXPACK_REQUIRE_BROWSER=1}
 * (CI sets it): then it fails.
 */
class InspectorBrowserTest {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Path.of("target", "inspector-screenshots");

  static final String CURIE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 to study physics and "
      + "mathematics at the Sorbonne. She won the Nobel Prize in Physics in 1903 together with Pierre Curie and Henri "
      + "Becquerel. She won the Nobel Prize in Chemistry in 1911 for the discovery of polonium and radium. We use cookies "
      + "to improve your experience. Subscribe to our newsletter for more stories.";
  static final String RHINE = "The Rhine rises in the Swiss Alps near the Oberalp Pass and flows north through Lake "
      + "Constance. It then turns west along the border between Switzerland and Germany before heading north again "
      + "through the Upper Rhine Plain. Below Mainz it cuts through the Middle Rhine gorge with its castles and "
      + "vineyards. After Cologne and Duisburg it enters the Netherlands, where it splits into several branches before "
      + "reaching the North Sea. The river is about %s km long and carries heavy barge traffic for most of its course.";
  /** Markup in a title: the page must show these characters, never run or render them. */
  static final String HOSTILE_TITLE = "Nobel <img src=x onerror=\"window.pwned=1\"> Prize <script>window.pwned=2</script>";
  static final String CURIE_QUERY = "When did Marie Curie win the Nobel Prize?";

  /** Selenium warns that it has no DevTools binding for this Chromium; the test uses none. Held, so it stays set. */
  static final java.util.logging.Logger SELENIUM_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium");

  @TempDir static Path dir;
  static Service server;
  static WebDriver driver;
  static ChromeDriverService driverService;
  static String base;
  /** Why the browser tests are skipped, or null. */
  static String missing;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void serveAndOpenBrowser() throws Exception {
    missing = requireBrowser();
    if (missing != null) return;
    SELENIUM_LOG.setLevel(java.util.logging.Level.SEVERE);
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    List<String> lines = new ArrayList<>();
    lines.add(doc("curie", "Marie Curie", CURIE));
    lines.add(doc("curie-copy", "Marie Curie (mirror)", CURIE.replace("more stories.", "more stories!")));
    lines.add(doc("rhine", "Rhine", RHINE.formatted("1,230")));
    lines.add(doc("rhine-old", "Rhine (old atlas)", RHINE.formatted("1,320")));
    lines.add(doc("coffee", "Coffee", "Coffee is a brewed drink prepared from roasted coffee beans. It is one of the most "
        + "popular drinks in the world."));
    lines.add(doc("nobel", HOSTILE_TITLE, "The Nobel Prize is awarded every year in Stockholm. Marie Curie was the first "
        + "person to win the Nobel Prize twice. The prizes were first awarded in 1901."));
    Files.write(corpus.resolve("docs.jsonl"), lines);
    String index = dir.resolve("idx").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)));
    base = "http://127.0.0.1:" + server.port();

    Files.createDirectories(SCREENSHOTS);
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    driverService = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--window-size=1280,800", "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
    driver = new ChromeDriver(driverService, options);
    // The page is made for a 1280×800 viewport (the window's size would include the browser's frame).
    ((ChromeDriver) driver).executeCdpCommand("Emulation.setDeviceMetricsOverride",
        java.util.Map.of("width", 1280, "height", 800, "deviceScaleFactor", 1, "mobile", false));
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
  }

  /**
   * Why the tests cannot run (Debian's chromium and its driver are absent), or null; with
   * CTXPACK_REQUIRE_BROWSER=1 their absence fails instead.
   */
  private static String requireBrowser() {
    if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) return null;
    String why = "the inspector's browser test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", " + CHROMEDRIVER
        + "): apt-get install chromium chromium-driver";
    if ("1".equals(System.getenv("CTXPACK_REQUIRE_BROWSER"))) fail(why + " (CTXPACK_REQUIRE_BROWSER=1 requires it)");
    why += "; skipped (CTXPACK_REQUIRE_BROWSER=1 makes this a failure)";
    System.err.println("InspectorBrowserTest: " + why);
    return why;
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      if (driver != null) driver.quit();
    } finally {
      if (driverService != null) driverService.stop();
      if (server != null) server.close();
    }
  }

  @BeforeEach
  void openPage() {
    Assumptions.assumeTrue(missing == null, missing);
    driver.get(base + "/");
    wait(20).until(ExpectedConditions.titleIs("ctxpack inspector"));
  }

  @Test
  void aQueryShowsTheBudgetTheSourcesWithTheirCutsTheMergesAndTheExactPrompt() throws Exception {
    JsonNode pkg = pack(CURIE_QUERY, 520);
    packInPage(CURIE_QUERY, "520");
    screenshot("01-packed");

    // Budget: one bar per component, each with its tokens, and what is left.
    JsonNode by = pkg.get("budget").get("byComponent");
    assertThat(driver.findElements(By.cssSelector("#budget-bars .bar:not(.left)"))).hasSize(by.size());
    by.properties().forEach(e -> {
      WebElement bar = driver.findElement(By.cssSelector("#budget-bars .bar[data-component='" + e.getKey() + "']"));
      assertThat(bar.getAttribute("data-tokens")).isEqualTo(e.getValue().asText());
      assertThat(bar.getText()).contains(e.getKey()).contains(e.getValue().asText() + " tokens");
      double width = bar.findElement(By.cssSelector(".fill")).getSize().getWidth();
      double track = bar.findElement(By.cssSelector(".track")).getSize().getWidth();
      assertThat(width / track).isCloseTo(e.getValue().asDouble() / pkg.get("budget").get("limit").asDouble(),
          org.assertj.core.data.Offset.offset(0.02));
    });
    assertThat(text("budget-summary")).contains(pkg.get("budget").get("used").asText() + " of 520 tokens used")
        .contains(pkg.get("budget").get("left").asText() + " left");

    // Sources: as many as the package's, each with its label and title shown as text, never as markup.
    List<WebElement> cards = driver.findElements(By.cssSelector("#sources .source"));
    assertThat(cards).hasSize(pkg.get("sources").size());
    String curie = label(pkg, "curie");
    String nobel = label(pkg, "nobel");
    WebElement nobelCard = driver.findElement(By.id("src-" + nobel));
    assertThat(nobelCard.findElement(By.cssSelector(".title")).getText()).isEqualTo(HOSTILE_TITLE);
    assertThat(driver.findElements(By.cssSelector("#results img, #results script"))).isEmpty();
    assertThat(((JavascriptExecutor) driver).executeScript("return window.pwned === undefined")).isEqualTo(true);

    // Kept sentences highlighted and labelled, the cookie notice greyed with its reason.
    WebElement curieCard = driver.findElement(By.id("src-" + curie));
    List<WebElement> kept = curieCard.findElements(By.cssSelector(".seg.kept"));
    List<WebElement> dropped = curieCard.findElements(By.cssSelector(".seg.dropped"));
    assertThat(kept).isNotEmpty();
    assertThat(kept.get(0).getText()).startsWith("kept").contains("She won the Nobel Prize in Chemistry in 1911");
    assertThat(dropped).extracting(e -> e.getAttribute("data-reason")).contains("boilerplate");
    WebElement cookies = dropped.stream().filter(e -> e.getText().contains("We use cookies")).findFirst().orElseThrow();
    assertThat(cookies.getText()).startsWith("dropped · boilerplate");
    assertThat(cookies.getCssValue("color")).isNotEqualTo(kept.get(0).getCssValue("color"));
    assertThat(kept.get(0).getCssValue("background-color")).isNotEqualTo(cookies.getCssValue("background-color"));
    // What the page marks kept is the source's text, piece by piece.
    String keptText = String.join(" … ", kept.stream().map(e -> (String) ((JavascriptExecutor) driver)
        .executeScript("return arguments[0].lastChild.textContent", e)).toList());
    assertThat(keptText).isEqualTo(source(pkg, curie).get("text").asText());

    // The near-copy merge: its row names the source; pointing at it marks that source and the copy's span.
    WebElement merge = driver.findElement(By.cssSelector("#links .decision[data-action='merge']"));
    assertThat(merge.getText()).contains("curie-copy#0").contains("curie#0").contains(curie);
    new Actions(driver).moveToElement(merge).perform();
    wait(5).until(d -> curieCard.getAttribute("class").contains("linked"));
    WebElement copySpan = curieCard.findElement(By.cssSelector(".span[data-chunk='curie-copy#0']"));
    assertThat(copySpan.getAttribute("class")).contains("linked");
    assertThat(nobelCard.getAttribute("class")).doesNotContain("linked");
    screenshot("02-merge-linked");
    // ... and the copy's span links back to the row.
    new Actions(driver).moveToElement(driver.findElement(By.id("prompt"))).perform();
    WebElement back = copySpan.findElement(By.cssSelector("a.link"));
    assertThat(back.getAttribute("href")).endsWith("#" + merge.getAttribute("id"));
    back.click();
    wait(5).until(d -> merge.getAttribute("class").contains("pinned"));

    scrollTo("sources-h");
    screenshot("03-sources");

    // The exact prompt, verbatim.
    String prompt = (String) ((JavascriptExecutor) driver).executeScript("return document.getElementById('prompt').textContent");
    assertThat(prompt).isEqualTo(pkg.get("prompt").asText());
    assertThat(driver.getCurrentUrl()).doesNotContain("Bearer").doesNotContain("query=");
  }

  @Test
  void theCalibrationPanelShowsTheShippedScorersReliabilityDiagrams() throws Exception {
    driver.findElement(By.cssSelector("#calibration summary")).click();
    scrollTo("calibration");
    List<WebElement> images = driver.findElements(By.cssSelector("#calibration img"));
    assertThat(images).hasSize(2);
    // Each diagram loads from this origin under the page's policy and is drawn (an SVG that failed has no size).
    for (WebElement img : images) {
      wait(20).until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(
          "return arguments[0].complete && arguments[0].naturalWidth > 0", img)));
      assertThat(img.getSize().getWidth()).as(img.getAttribute("src")).isPositive();
    }
    assertThat(text("calibration-list")).contains("SQuAD 2.0 dev (en)", "en ECE 0.", "FaQuAD (pt-BR)", "pt.lexical ECE 0.");
    screenshot("08-calibration");
  }

  @Test
  void aPastedAnswerShowsEachClaimByItsVerdictWithItsEvidence() throws Exception {
    JsonNode pkg = pack(CURIE_QUERY, 400);
    packInPage(CURIE_QUERY, "400");
    String curie = label(pkg, "curie");
    String answer = "She won the Nobel Prize in Chemistry in 1911 for the discovery of polonium and radium [" + curie + "]. "
        + "Marie Curie was born in Warsaw in 1897 [" + curie + "].";
    WebElement box = driver.findElement(By.id("answer"));
    box.sendKeys(answer);
    driver.findElement(By.id("verify-btn")).click();
    wait(30).until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#claims .claim"), 2));
    scrollTo("verify-h");
    screenshot("04-verified");

    List<WebElement> claims = driver.findElements(By.cssSelector("#claims .claim"));
    WebElement first = claims.get(0);
    WebElement second = claims.get(1);
    assertThat(first.getAttribute("data-verdict")).isEqualTo("supported");
    assertThat(first.findElement(By.cssSelector(".badge")).getText()).isEqualTo("✓ supported");
    assertThat(first.findElement(By.cssSelector(".evidence")).getText()).contains("evidence in " + curie)
        .contains("She won the Nobel Prize in Chemistry in 1911");
    assertThat(second.getAttribute("data-verdict")).isIn("contradicted", "unsupported");
    assertThat(second.findElement(By.cssSelector(".badge")).getText())
        .isEqualTo(second.getAttribute("data-verdict").equals("contradicted") ? "✗ contradicted" : "? unsupported");
    // Colour as well as the label: the two verdicts' badges and borders differ.
    assertThat(first.findElement(By.cssSelector(".badge")).getCssValue("background-color"))
        .isNotEqualTo(second.findElement(By.cssSelector(".badge")).getCssValue("background-color"));
    assertThat(first.getCssValue("border-left-color")).isNotEqualTo(second.getCssValue("border-left-color"));
    assertThat(text("verify-summary")).contains("not passed");
  }

  @Test
  void theApiKeyAndCollectionGoWithTheRequestNeverInTheUrl() throws Exception {
    // Record what the page hands to fetch, then let the request go on to the service.
    ((JavascriptExecutor) driver).executeScript("window.sent = []; const f = window.fetch;"
        + " window.fetch = (u, o) => { window.sent.push({url: u, headers: o.headers, body: o.body}); return f(u, o); };");
    driver.findElement(By.id("api-key")).sendKeys("key-123");
    driver.findElement(By.id("remember-key")).click();
    // A service without tenants has one collection, "default" (another name would be 404).
    driver.findElement(By.id("collection")).sendKeys("default");
    driver.findElement(By.id("preset")).sendKeys("low");
    packInPage(CURIE_QUERY, "");
    JavascriptExecutor js = (JavascriptExecutor) driver;
    assertThat(js.executeScript("return window.sent[0].url")).isEqualTo("/v1/pack");
    assertThat(js.executeScript("return window.sent[0].headers['Authorization']")).isEqualTo("Bearer key-123");
    JsonNode body = Json.MAPPER.readTree((String) js.executeScript("return window.sent[0].body"));
    assertThat(body.get("query").asText()).isEqualTo(CURIE_QUERY);
    assertThat(body.get("collection").asText()).isEqualTo("default");
    assertThat(body.get("preset").asText()).isEqualTo("low");
    assertThat(body.has("budget")).isFalse();
    assertThat(driver.getCurrentUrl()).isEqualTo(base + "/");
    // Kept for this tab only when asked, and gone when unticked.
    assertThat(js.executeScript("return sessionStorage.getItem('ctxpack.apiKey')")).isEqualTo("key-123");
    assertThat(js.executeScript("return localStorage.length")).isEqualTo(0L);
    driver.findElement(By.id("remember-key")).click();
    assertThat(js.executeScript("return sessionStorage.getItem('ctxpack.apiKey')")).isNull();
  }

  @Test
  void withTenantsThePageAsksForAKeyAndShowsOnlyWhatTheKeyReads() throws Exception {
    Path tenants = dir.resolve("tenants.json");
    Files.writeString(tenants, """
        {"tenants": {"acme": {"collections": {"docs": "acme"},
          "keys": [{"principal": "ann", "key": "inspector-ann-key-01", "labels": ["eng"]},
                   {"principal": "ops", "key": "inspector-ops-key-02", "labels": ["*"], "write": true}]}}}
        """);
    try (Service t = Service.start(ServiceConfig.builder().tenants(tenants).port(0).embedder("minilm").build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      String tbase = "http://127.0.0.1:" + t.port();
      HttpResponse<String> added = http.send(HttpRequest.newBuilder(URI.create(tbase + "/v1/documents"))
          .header("Authorization", "Bearer inspector-ops-key-02").POST(HttpRequest.BodyPublishers.ofString("""
              {"documents": [
                {"id": "open", "text": "The Lisbon office opens on 2 March and hosts the search team."},
                {"id": "closed", "acl": ["hr"], "text": "The Lisbon office budget for 2027 is 2.4 million euros."}]}
              """)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
      driver.get(tbase + "/");
      wait(20).until(ExpectedConditions.titleIs("ctxpack inspector"));
      // Without a key the service says so, and the page shows it as an error.
      driver.findElement(By.id("query")).sendKeys("What is the Lisbon office budget?");
      driver.findElement(By.id("pack-btn")).click();
      wait(30).until(d -> d.findElement(By.id("status")).getText().contains("unauthorized"));
      assertThat(driver.findElement(By.id("status")).getAttribute("class")).contains("error");
      // With ann's key the pack runs, over the documents her labels read only.
      driver.findElement(By.id("api-key")).sendKeys("inspector-ann-key-01");
      driver.findElement(By.id("pack-btn")).click();
      wait(30).until(d -> d.findElement(By.id("status")).getText().startsWith("Packed in"));
      String prompt = (String) ((JavascriptExecutor) driver).executeScript("return document.getElementById('prompt').textContent");
      // What the key reads is the opening date, which does not answer the budget question: the
      // relevance line may abstain, but the figure the key cannot read never shows.
      assertThat(prompt).containsAnyOf("Lisbon office opens on 2 March", "No source found for this question")
          .doesNotContain("2.4 million");
      screenshot("07-tenant-key");
    }
  }

  @Test
  void aPackageJsonFromTheCliIsShownWithoutPacking() throws Exception {
    CliRunner cli = CliRunner.run("pack", "--index", dir.resolve("idx").toString(), "--format", "json",
        "--query", "How long is the Rhine river?", "--budget", "400");
    assertThat(cli.code()).as(cli.err()).isZero();
    JsonNode pkg = cli.json();
    Path file = Files.writeString(dir.resolve("rhine-package.json"), cli.out());

    driver.findElement(By.cssSelector("#load summary")).click();
    driver.findElement(By.id("package-file")).sendKeys(file.toAbsolutePath().toString());
    wait(10).until(d -> d.findElement(By.id("status")).getText().startsWith("Showing the package from rhine-package.json"));
    screenshot("05-loaded");

    assertThat(driver.findElement(By.id("query")).getAttribute("value")).isEqualTo("How long is the Rhine river?");
    String prompt = (String) ((JavascriptExecutor) driver).executeScript("return document.getElementById('prompt').textContent");
    assertThat(prompt).isEqualTo(pkg.get("prompt").asText());
    assertThat(driver.findElements(By.cssSelector("#sources .source"))).hasSize(pkg.get("sources").size());
    // The guard kept the two atlases apart (1,230 vs 1,320 km): the row links both sources.
    String rhine = label(pkg, "rhine");
    String old = label(pkg, "rhine-old");
    WebElement keep = driver.findElement(By.cssSelector("#links .decision[data-action='keep']"));
    assertThat(keep.getText()).contains("near:guard:number");
    assertThat(keep.findElements(By.cssSelector("a.chip"))).extracting(WebElement::getText).containsExactlyInAnyOrder(rhine, old);
    keep.click();
    wait(5).until(d -> d.findElement(By.id("src-" + rhine)).getAttribute("class").contains("pinned")
        && d.findElement(By.id("src-" + old)).getAttribute("class").contains("pinned"));
    scrollTo("sources-h");
    screenshot("06-loaded-sources");
    // The later copy's repeated sentences are greyed as duplicates.
    assertThat(driver.findElement(By.id("src-" + old)).findElements(By.cssSelector(".seg.dropped[data-reason='duplicate']"))).isNotEmpty();

    // Something that is not a package says what is missing.
    WebElement paste = driver.findElement(By.id("package-json"));
    paste.sendKeys("{\"query\": \"q\", \"sources\": []}");
    driver.findElement(By.id("load-btn")).click();
    wait(5).until(d -> d.findElement(By.id("status")).getText().contains("no \"prompt\" string"));
    assertThat(driver.findElement(By.id("status")).getAttribute("class")).contains("error");
  }

  // ---- helpers ----

  private static String doc(String id, String title, String text) {
    return Json.line(Json.object().put("_id", id).put("title", title).put("text", text));
  }

  private static JsonNode pack(String query, int budget) throws Exception {
    ObjectNode req = Json.object().put("query", query).put("budget", budget);
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/pack"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.line(req))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.MAPPER.readTree(r.body());
  }

  private static void packInPage(String query, String budget) {
    driver.findElement(By.id("query")).sendKeys(query);
    if (!budget.isEmpty()) driver.findElement(By.id("budget")).sendKeys(budget);
    driver.findElement(By.id("pack-btn")).click();
    wait(30).until(d -> d.findElement(By.id("status")).getText().startsWith("Packed in"));
  }

  private static String label(JsonNode pkg, String docId) {
    for (JsonNode s : pkg.get("sources")) if (s.get("docId").asText().equals(docId)) return s.get("id").asText();
    throw new AssertionError("no source of " + docId + " in " + pkg);
  }

  private static JsonNode source(JsonNode pkg, String label) {
    for (JsonNode s : pkg.get("sources")) if (s.get("id").asText().equals(label)) return s;
    throw new AssertionError("no source " + label);
  }

  private static String text(String id) {
    return driver.findElement(By.id(id)).getText();
  }

  private static void scrollTo(String id) {
    ((JavascriptExecutor) driver).executeScript("document.getElementById(arguments[0]).scrollIntoView()", id);
  }

  private static WebDriverWait wait(int seconds) {
    return new WebDriverWait(driver, Duration.ofSeconds(seconds));
  }

  private static void screenshot(String name) throws IOException {
    byte[] png = ((ChromeDriver) driver).getScreenshotAs(OutputType.BYTES);
    Files.write(SCREENSHOTS.resolve(name + ".png"), png);
  }
}
