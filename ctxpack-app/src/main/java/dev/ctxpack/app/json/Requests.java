package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The readers of a request's fields, shared by every endpoint: each refuses a field of the wrong
 * type, or over its cap, with an {@link IllegalArgumentException} naming the field and the limit
 * (docs/API.md, "Limits"), so a {@code --batch} line and the service refuse the same request with
 * the same message.
 */
public final class Requests {
  /** The longest {@code query} a request may give, in characters. */
  public static final int MAX_QUERY_CHARS = 8_192;
  /** The most words (runs of non-space characters) a request's {@code query} may have. */
  public static final int MAX_QUERY_WORDS = 1_024;
  /** The most {@code passages} one compress or dedup request may give. */
  public static final int MAX_PASSAGES = 256;
  /** The most {@code sources} one verify request may give. */
  public static final int MAX_SOURCES = 256;
  /**
   * The most characters of {@code text} all the passages (or sources) of one request may hold
   * together: their work (sentences split, scored, embedded) grows with it. About 60,000 tokens,
   * six times the {@code high} budget.
   */
  public static final int MAX_TEXT_CHARS = 250_000;
  /** The longest {@code answer} one verify request may give, in characters. */
  public static final int MAX_ANSWER_CHARS = 20_000;
  /** The most {@code claims} one verify request may give. */
  public static final int MAX_CLAIMS = 256;

  private Requests() {}

  /** The string {@code field}, or {@code fallback} when it is missing or null. */
  public static String text(ObjectNode o, String field, String fallback) {
    var v = o.get(field);
    if (v == null || v.isNull()) return fallback;
    if (!v.isTextual()) throw new IllegalArgumentException("field '" + field + "' must be a string");
    return v.asText();
  }

  /**
   * The {@code query} field (or {@code fallback}), refused over {@link #MAX_QUERY_CHARS} characters
   * or {@link #MAX_QUERY_WORDS} words: a query is a question, not a document, and its cost (analysis,
   * embedding, matching every sentence) grows with its length.
   */
  public static String query(ObjectNode o, String fallback) {
    String q = text(o, "query", fallback);
    if (q == null) return null;
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < q.length(); i++) {
      boolean space = Character.isWhitespace(q.charAt(i));
      if (!space && !inWord) words++;
      inWord = !space;
    }
    if (words > MAX_QUERY_WORDS) {
      throw new IllegalArgumentException("field 'query' has " + words + " words; at most " + MAX_QUERY_WORDS + " are accepted");
    }
    if (q.length() > MAX_QUERY_CHARS) {
      throw new IllegalArgumentException("field 'query' has " + q.length() + " characters; at most " + MAX_QUERY_CHARS + " are accepted");
    }
    return q;
  }

  /**
   * The array {@code field} of {@code {"text", ...}} items, refused when missing, not an array,
   * longer than {@code max}, or when its items' texts hold more than {@link #MAX_TEXT_CHARS}
   * characters together.
   */
  public static JsonNode texts(ObjectNode o, String field, int max, String shape) {
    JsonNode v = o.get(field);
    if (v == null || !v.isArray()) throw new IllegalArgumentException("field '" + field + "' must be an array" + shape);
    if (v.size() > max) {
      throw new IllegalArgumentException("field '" + field + "' has " + v.size() + " items; at most " + max + " are accepted per request");
    }
    long chars = 0;
    for (JsonNode item : v) {
      JsonNode t = item.get("text");
      if (t != null && t.isTextual()) chars += t.asText().length();
    }
    if (chars > MAX_TEXT_CHARS) {
      throw new IllegalArgumentException("field '" + field + "' holds " + chars + " characters of text; at most "
          + MAX_TEXT_CHARS + " are accepted per request");
    }
    return v;
  }

  /** {@link #integer(ObjectNode, String, int)} within {@code [min, max]}, the field named when it is not. */
  public static int integer(ObjectNode o, String field, int fallback, int min, int max) {
    int v = integer(o, field, fallback);
    if (v < min || v > max) throw new IllegalArgumentException("field '" + field + "' must be in [" + min + ", " + max + "], was " + v);
    return v;
  }

  /** The integer {@code field}, or {@code fallback} when it is missing or null. */
  public static int integer(ObjectNode o, String field, int fallback) {
    var v = o.get(field);
    if (v == null || v.isNull()) return fallback;
    if (!v.canConvertToInt() || !v.isIntegralNumber()) {
      throw new IllegalArgumentException("field '" + field + "' must be an integer, was " + v);
    }
    return v.asInt();
  }
}
