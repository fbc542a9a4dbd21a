package dev.ctxpack.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hostile requests of issue 9, part 5, each with the status the service must answer: built from
 * a real query's words so the text is what a client could send. The caps they cross are those of
 * docs/API.md ("Limits"), repeated here because this module does not depend on the CLI's: 1,024
 * words or 8,192 characters of query, k in [1, 1000], budget in [1, 2,000,000], 256 passages or
 * sources holding at most 250,000 characters of text, 20,000 characters of answer, 64 levels of
 * nesting, the body cap.
 */
final class HostileCases {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int MAX_ITEMS = 256;
  static final int MAX_TEXT_CHARS = 250_000;
  static final int MAX_ANSWER_CHARS = 20_000;

  /** One request: what it is, where it goes, its body, and the status it must get. */
  record Case(String name, String path, byte[] body, int expected) {}

  private HostileCases() {}

  /** The cases, for a service whose body cap is {@code maxBodyBytes}; {@code query} lends its words. */
  static List<Case> all(String query, long maxBodyBytes) {
    List<Case> out = new ArrayList<>();
    String fiveThousand = words(query, 5_000);
    out.add(new Case("query of 5,000 words", "/v1/search", json(obj().put("query", fiveThousand)), 400));
    out.add(new Case("query of 5,000 words", "/v1/pack", json(obj().put("query", fiveThousand)), 400));
    out.add(new Case("query of 5,000 words", "/v1/compress",
        json(passages(obj().put("query", fiveThousand).put("budget", 100), 3, query)), 400));
    out.add(new Case("query of 20,000 characters, one word", "/v1/search", json(obj().put("query", "x".repeat(20_000))), 400));
    out.add(new Case("JSON nested 10,000 deep (arrays)", "/v1/search",
        utf8("{\"query\": " + quote(query) + ", \"x\": " + "[".repeat(10_000) + "]".repeat(10_000) + "}"), 400));
    out.add(new Case("JSON nested 10,000 deep (objects)", "/v1/pack", utf8("{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000)), 400));
    // Over the cap by less than what the service drains, so the 413 reaches the client before it
    // finishes writing (a larger body gets the same 413, but the client may see the reset first).
    int over = (int) Math.min(Integer.MAX_VALUE - 64, maxBodyBytes + 64 * 1024);
    out.add(new Case("body over the cap (" + maxBodyBytes + " bytes)", "/v1/search",
        utf8("{\"query\": " + quote(query) + ", \"pad\": \"" + "x".repeat(over) + "\"}"), 413));
    byte[] head = ("{\"query\": \"" + query.replace("\"", "")).getBytes(StandardCharsets.UTF_8);
    byte[] bad = new byte[head.length + 4];
    System.arraycopy(head, 0, bad, 0, head.length);
    bad[head.length] = (byte) 0xC3; // a lead byte with no continuation
    bad[head.length + 1] = (byte) 0x28;
    bad[head.length + 2] = '"';
    bad[head.length + 3] = '}';
    out.add(new Case("invalid UTF-8", "/v1/search", bad, 400));
    ObjectNode unknown = obj().put("query", query).put("colour", "blue");
    unknown.putObject("extra").putArray("list").add(1).add(2);
    out.add(new Case("unknown fields (ignored)", "/v1/search", json(unknown), 200));
    out.add(new Case("budget -1", "/v1/pack", json(obj().put("query", query).put("budget", -1)), 400));
    out.add(new Case("budget 0", "/v1/pack", json(obj().put("query", query).put("budget", 0)), 400));
    out.add(new Case("budget 1,000,000,000", "/v1/pack", json(obj().put("query", query).put("budget", 1_000_000_000)), 400));
    out.add(new Case("k 0", "/v1/search", json(obj().put("query", query).put("k", 0)), 400));
    out.add(new Case("k 1,000,000", "/v1/search", json(obj().put("query", query).put("k", 1_000_000)), 400));
    out.add(new Case("\"k\": \"ten\"", "/v1/search", utf8("{\"query\": " + quote(query) + ", \"k\": \"ten\"}"), 400));
    out.add(new Case("\"budget\": [1]", "/v1/pack", utf8("{\"query\": " + quote(query) + ", \"budget\": [1]}"), 400));
    out.add(new Case("257 passages", "/v1/compress", json(passages(obj().put("query", query).put("budget", 100), MAX_ITEMS + 1, query)), 400));
    out.add(new Case("257 passages", "/v1/dedup", json(passages(obj(), MAX_ITEMS + 1, query)), 400));
    ObjectNode bigText = obj().put("query", query).put("budget", 100);
    String huge = words(query, MAX_TEXT_CHARS / 5);
    bigText.putArray("passages").add(obj().put("id", "p0").put("text", huge));
    out.add(new Case(String.format(Locale.ROOT, "one passage of %,d characters", huge.length()), "/v1/compress", json(bigText), 400));
    ObjectNode sources = obj().put("query", query).put("answer", query + " [S1].");
    ArrayNode ss = sources.putArray("sources");
    for (int i = 1; i <= MAX_ITEMS + 1; i++) ss.add(obj().put("id", "S" + i).put("text", query));
    out.add(new Case("257 sources", "/v1/verify", json(sources), 400));
    ObjectNode longAnswer = obj().put("query", query).put("answer", (query + " [S1]. ").repeat(MAX_ANSWER_CHARS / (query.length() + 7) + 1));
    longAnswer.putArray("sources").add(obj().put("id", "S1").put("text", query));
    out.add(new Case("answer over 20,000 characters", "/v1/verify", json(longAnswer), 400));
    return out;
  }

  /**
   * The largest requests the caps let through, each of which must be answered 200 within the
   * request timeout: what the caps bound a request's work to. The passages and sources are real
   * abstracts taken in turn from {@code texts}, as many as the caps let through; the answer is
   * {@code query}'s words, cut into sentences that cite the sources in turn.
   */
  static List<Case> atTheCaps(String query, List<String> texts) {
    List<Case> out = new ArrayList<>();
    // As many of the query's words, in turn, as both caps let through (1,024 words, 8,192 characters).
    String[] w = query.trim().split("\\s+");
    StringBuilder sb = new StringBuilder();
    int n = 0;
    while (n < 1_024 && sb.length() + 1 + w[n % w.length].length() <= 8_192) {
      if (n > 0) sb.append(' ');
      sb.append(w[n++ % w.length]);
    }
    String name = String.format(Locale.ROOT, "query at the caps (%,d words, %,d characters)", n, sb.length());
    out.add(new Case(name, "/v1/search", json(obj().put("query", sb.toString())), 200));
    out.add(new Case(name, "/v1/pack", json(obj().put("query", sb.toString())), 200));
    List<String> capped = new ArrayList<>();
    int chars = 0;
    for (String t : texts) {
      if (capped.size() == MAX_ITEMS || chars + t.length() > MAX_TEXT_CHARS) break;
      capped.add(t);
      chars += t.length();
    }
    String many = String.format(Locale.ROOT, "%d abstracts, %,d characters (the caps)", capped.size(), chars);
    ObjectNode compress = obj().put("query", query).put("budget", 500);
    ObjectNode dedup = obj();
    ArrayNode cps = compress.putArray("passages");
    ArrayNode dps = dedup.putArray("passages");
    for (int i = 0; i < capped.size(); i++) {
      cps.add(obj().put("id", "p" + i).put("text", capped.get(i)));
      dps.add(obj().put("id", "p" + i).put("text", capped.get(i)));
    }
    out.add(new Case(many, "/v1/compress", json(compress), 200));
    out.add(new Case(many, "/v1/dedup", json(dedup), 200));
    ObjectNode verify = obj().put("query", query);
    StringBuilder answer = new StringBuilder();
    for (int i = 0; answer.length() + query.length() + 12 <= MAX_ANSWER_CHARS; i++) {
      answer.append(query.replaceAll("[.?!]+$", "")).append(" [S").append(i % capped.size() + 1).append("]. ");
    }
    verify.put("answer", answer.toString());
    ArrayNode ss = verify.putArray("sources");
    for (int i = 0; i < capped.size(); i++) ss.add(obj().put("id", "S" + (i + 1)).put("text", capped.get(i)));
    out.add(new Case(many + " as sources, a " + String.format(Locale.ROOT, "%,d", answer.length()) + "-character answer",
        "/v1/verify", json(verify), 200));
    return out;
  }

  /** {@code n} words taken in turn from {@code text}. */
  static String words(String text, int n) {
    String[] w = text.trim().split("\\s+");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) sb.append(' ');
      sb.append(w[i % w.length]);
    }
    return sb.toString();
  }

  private static ObjectNode passages(ObjectNode req, int n, String text) {
    ArrayNode ps = req.putArray("passages");
    for (int i = 0; i < n; i++) ps.add(obj().put("id", "p" + i).put("text", text + " (" + i + ")"));
    return req;
  }

  private static ObjectNode obj() {
    return JSON.createObjectNode();
  }

  private static String quote(String s) {
    return JSON.getNodeFactory().textNode(s).toString();
  }

  private static byte[] json(ObjectNode o) {
    return utf8(o.toString());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
