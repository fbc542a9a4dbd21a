package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.model.WorkLimitException;
import java.util.ArrayList;
import java.util.List;

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
  /**
   * The most sentence pairs one dedup request's guard may compare: each pair of look-alike passages
   * (near copies, or close in meaning) costs the product of their sentence counts: about half a
   * second of one core. 256 passages that all look alike and all differ in a number are 32,640
   * pairs at each of two levels; with one sentence each they pass, with two or more they do not
   * (ctxpack serve --max-dedup-comparisons).
   */
  public static final long MAX_DEDUP_COMPARISONS = 250_000;
  /**
   * The most sentences the passages of one compress request, or the sources of one verify request,
   * may hold together: each is scored and embedded (ctxpack serve --max-sentences). 256 abstracts
   * at the character cap hold about 2,300.
   */
  public static final int MAX_SENTENCES = 5_000;

  private Requests() {}

  /** Splits text into sentences as compress and verify do (no vectors: segmentation only). */
  private static final class Segmentation {
    static final ExtractiveCompressor SPLITTER =
        ExtractiveCompressor.defaults(SentenceVectors.none());
  }

  /**
   * Refuses {@code texts} (the items of {@code field}) when they hold more than {@code max}
   * sentences together, as compress and verify cut them ({@link WorkLimitException}).
   */
  public static void checkSentences(List<String> texts, String field, int max, String hint) {
    List<CompressInput> in = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) in.add(CompressInput.of("t" + i, texts.get(i)));
    int n = Segmentation.SPLITTER.sentences(in).size();
    if (n > max) throw new WorkLimitException("sentences in '" + field + "'", n, max, false, hint);
  }

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
