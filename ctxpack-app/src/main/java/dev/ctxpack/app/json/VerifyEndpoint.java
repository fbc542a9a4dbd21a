package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.CitationCheck;
import dev.ctxpack.verify.Claim;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.QuoteCheck;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code verify}: {@code {"id", "query", "sources": [{"id", "text"}], "answer": "..." | {"answer",
 * "claims"}, "minRelevance", "minCoverage"}} to the verification (docs/API.md; the last two judge an
 * abstention against the relevance line as {@code pack} reads them), a {@code --batch} line and {@code POST /v1/verify};
 * and the readers of sources and answers and the view the command's file mode shares.
 */
public final class VerifyEndpoint {
  private VerifyEndpoint() {}

  /** The endpoint over {@code verifier}; {@code defaultQuery} (may be null) for requests that give none. */
  public static JsonEndpoint of(Verifier verifier, String defaultQuery) {
    return of(verifier, defaultQuery, Requests.MAX_SENTENCES, "");
  }

  /**
   * {@link #of(Verifier, String)}, refusing a request whose sources hold more than {@code
   * maxSentences} sentences ({@link WorkLimitException}; {@code hint}, when not empty, says how to
   * raise the cap).
   */
  public static JsonEndpoint of(Verifier verifier, String defaultQuery, int maxSentences, String hint) {
    return req -> handle(req, verifier, defaultQuery, maxSentences, hint);
  }

  /** One request to its result. */
  public static ObjectNode handle(ObjectNode req, Verifier verifier, String defaultQuery) throws Exception {
    return handle(req, verifier, defaultQuery, Requests.MAX_SENTENCES, "");
  }

  private static ObjectNode handle(ObjectNode req, Verifier verifier, String defaultQuery, int maxSentences, String hint)
      throws Exception {
    List<VerifySource> sources = sources(Requests.texts(req, "sources", Requests.MAX_SOURCES, " of {\"id\", \"text\"}"), "sources");
    Requests.checkSentences(sources.stream().map(VerifySource::text).toList(), "sources", maxSentences, hint);
    JsonNode a = req.get("answer");
    if (a == null || a.isNull()) throw new IllegalArgumentException("field 'answer' is required");
    Answer answer;
    if (a.isTextual()) {
      answer = answer(capped(a.asText(), "answer"));
    } else if (a.isObject()) {
      capped(Requests.text((ObjectNode) a, "answer", ""), "answer.answer");
      JsonNode cs = a.get("claims");
      if (cs != null && cs.isArray() && cs.size() > Requests.MAX_CLAIMS) {
        throw new IllegalArgumentException("field 'answer.claims' has " + cs.size() + " items; at most "
            + Requests.MAX_CLAIMS + " are accepted per request");
      }
      answer = claims((ObjectNode) a);
    } else {
      throw new IllegalArgumentException("field 'answer' must be a string or an object {\"answer\", \"claims\"}");
    }
    String q = Requests.query(req, defaultQuery);
    Verifier v = verifier;
    if (req.has("minRelevance") || req.has("minCoverage")) {
      // The abstention judged against the line the request's pack used, read as pack reads it.
      double line = req.has("minRelevance") ? PackEndpoint.minRelevance(req.get("minRelevance")) : PackOptions.Relevance.AUTO;
      double cover = req.has("minCoverage") ? PackEndpoint.minCoverage(req.get("minCoverage"), "field 'minCoverage'")
          : PackOptions.Relevance.AUTO;
      v = verifier.withRelevance(line, cover);
    }
    ObjectNode res = Json.object();
    String id = Requests.text(req, "id", null);
    if (id != null) res.put("id", id);
    res.setAll(view(v.verify(q, sources, answer)));
    return res;
  }

  /** {@code text}, refused over {@link Requests#MAX_ANSWER_CHARS} characters. */
  private static String capped(String text, String field) {
    if (text.length() > Requests.MAX_ANSWER_CHARS) {
      throw new IllegalArgumentException("field '" + field + "' has " + text.length() + " characters; at most "
          + Requests.MAX_ANSWER_CHARS + " are accepted");
    }
    return text;
  }

  /** The sources of {@code arr}, each {@code {"id", "text"}}; errors name {@code field[i]}. */
  public static List<VerifySource> sources(JsonNode arr, String field) {
    if (arr == null || !arr.isArray()) throw new IllegalArgumentException("field '" + field + "' must be an array of {\"id\", \"text\"}");
    List<VerifySource> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < arr.size(); i++) {
      JsonNode n = arr.get(i);
      if (!n.isObject()) throw new IllegalArgumentException(field + "[" + i + "] must be an object");
      VerifySource s;
      try {
        s = source((ObjectNode) n);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(field + "[" + i + "]: " + e.getMessage(), e);
      }
      if (!ids.add(s.id())) throw new IllegalArgumentException(field + "[" + i + "]: id '" + s.id() + "' appears twice");
      out.add(s);
    }
    return out;
  }

  /** {@code {"id", "text"}}; a package source's {@code label} is taken for a missing {@code id}. */
  public static VerifySource source(ObjectNode o) {
    String id = Requests.text(o, "id", Requests.text(o, "label", null));
    if (id == null || id.isBlank()) throw new IllegalArgumentException("field 'id' must be a non-empty string");
    String text = Requests.text(o, "text", null);
    if (text == null) throw new IllegalArgumentException("field 'text' of " + id + " must be a string");
    return new VerifySource(id, text);
  }

  /** Text with inline citations, or (when it is a JSON object) the JSON claims format. */
  public static Answer answer(String raw) {
    String t = raw.strip();
    if (t.startsWith("{") && t.endsWith("}")) {
      ObjectNode o;
      try {
        o = Json.parseObject(t);
      } catch (IllegalArgumentException e) {
        return Answer.parse(raw); // text that happens to be braced
      }
      return claims(o);
    }
    return Answer.parse(raw);
  }

  private static Answer claims(ObjectNode o) {
    String text = Requests.text(o, "answer", "");
    JsonNode cs = o.get("claims");
    if (cs == null || cs.isNull()) return Answer.parse(text);
    if (!cs.isArray()) throw new IllegalArgumentException("field 'claims' must be an array");
    List<Claim> claims = new ArrayList<>();
    List<List<String>> quotes = new ArrayList<>();
    for (int i = 0; i < cs.size(); i++) {
      JsonNode c = cs.get(i);
      if (!c.isObject()) throw new IllegalArgumentException("claims[" + i + "] must be an object");
      String ct = Requests.text((ObjectNode) c, "text", null);
      if (ct == null || ct.isBlank()) throw new IllegalArgumentException("claims[" + i + "].text must be a non-empty string");
      List<String> cites = new ArrayList<>();
      JsonNode ci = c.get("citations");
      if (ci != null && !ci.isNull()) {
        if (!ci.isArray()) throw new IllegalArgumentException("claims[" + i + "].citations must be an array of IDs");
        for (JsonNode x : ci) {
          if (!x.isTextual() || x.asText().isBlank()) throw new IllegalArgumentException("claims[" + i + "].citations must hold non-empty strings");
          if (!cites.contains(x.asText())) cites.add(x.asText());
        }
      }
      claims.add(Claim.of(ct, cites));
      List<String> qs = new ArrayList<>();
      JsonNode qn = c.get("quotes");
      if (qn != null && !qn.isNull()) {
        if (!qn.isArray()) throw new IllegalArgumentException("claims[" + i + "].quotes must be an array of strings");
        for (JsonNode x : qn) {
          if (!x.isTextual() || x.asText().isBlank()) {
            throw new IllegalArgumentException("claims[" + i + "].quotes must hold non-empty strings");
          }
          qs.add(x.asText());
        }
      }
      quotes.add(qs);
    }
    return Answer.of(text, claims, quotes);
  }

  /** The verification as JSON: each claim's verdict with its evidence, the citation scores, the feedback. */
  public static ObjectNode view(Verification v) {
    ObjectNode res = Json.object();
    ArrayNode claims = res.putArray("claims");
    for (ClaimVerdict c : v.claims()) {
      ObjectNode co = claims.addObject();
      co.put("index", c.index());
      co.put("text", c.claim().text());
      if (c.claim().start() >= 0) co.putArray("span").add(c.claim().start()).add(c.claim().end());
      ArrayNode cites = co.putArray("citations");
      c.claim().citations().forEach(cites::add);
      co.put("verdict", c.verdict().wireName());
      if (c.evidence() != null) {
        co.putObject("evidence").put("source", c.evidence().source()).put("start", c.evidence().start())
            .put("end", c.evidence().end()).put("score", Views.round(c.evidence().score()))
            .put("text", c.evidence().text());
      } else {
        co.putNull("evidence");
      }
      co.put("reason", c.reason());
      ArrayNode missing = co.putArray("missing");
      c.missing().forEach(missing::add);
      ArrayNode better = co.putArray("betterSources");
      c.betterSources().forEach(better::add);
      ArrayNode checks = co.putArray("checks");
      for (CitationCheck cc : c.checks()) {
        ObjectNode k = checks.addObject().put("source", cc.source()).put("valid", cc.valid())
            .put("verdict", cc.verdict().wireName());
        if (cc.evidence() != null) k.put("score", Views.round(cc.evidence().score()));
      }
    }
    ArrayNode quotes = res.putArray("quotes");
    for (QuoteCheck q : v.quotes()) {
      ObjectNode qo = quotes.addObject();
      qo.put("text", q.quote().text());
      if (q.quote().start() >= 0) qo.putArray("span").add(q.quote().start()).add(q.quote().end());
      qo.put("claim", q.quote().claim());
      ArrayNode qc = qo.putArray("citations");
      q.quote().citations().forEach(qc::add);
      qo.put("status", q.status().wireName());
      qo.put("misquote", q.misquote());
      if (q.source() == null) qo.putNull("source");
      else qo.put("source", q.source());
      if (q.closest() == null) {
        qo.putNull("closest");
      } else {
        qo.putObject("closest").put("source", q.closest().source()).put("start", q.closest().start())
            .put("end", q.closest().end()).put("text", q.closest().text()).put("similarity", Views.round(q.similarity()));
      }
    }
    if (v.gap() != null) res.putObject("gap").put("missing", v.gap().missing()).put("next", v.gap().next());
    ArrayNode invalid = res.putArray("invalidCitations");
    v.invalidCitations().forEach(invalid::add);
    res.put("citationPrecision", Views.round(v.citationPrecision()));
    res.put("citationRecall", Views.round(v.citationRecall()));
    res.put("abstained", v.abstained());
    if (v.abstentionCorrect() == null) res.putNull("abstentionCorrect");
    else res.put("abstentionCorrect", v.abstentionCorrect());
    res.put("passed", v.passed());
    res.put("feedback", v.feedback());
    return res;
  }
}
