package dev.ctxpack.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.CitationCheck;
import dev.ctxpack.verify.Claim;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.onnx.OpenAiChatClient;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.LlmJudge;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Checks an answer's claims against the sources it was given: cited IDs exist, each claim is"
        + " supported, partial, unsupported, contradicted or uncited, with the best evidence sentence and"
        + " feedback for a regeneration loop.")
final class VerifyCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--package", paramLabel = "FILE",
      description = "A package as written by `ctxpack pack --format json`: its sources (and query) are what the answer may cite.")
  String packageFile;

  @Option(names = "--sources", paramLabel = "FILE", description = "JSON Lines of {\"id\": \"S1\", \"text\": \"...\"}.")
  String sourcesFile;

  @Option(names = "--answer", paramLabel = "FILE",
      description = "The answer: text with inline [S1] citations, or JSON {\"answer\", \"claims\": [{\"text\", \"citations\"}]}; - for stdin.")
  String answerFile;

  @Option(names = {"-q", "--query"}, paramLabel = "Q",
      description = "The question answered (default: the package's query). With it, an abstention is judged against the sources.")
  String query;

  @Option(names = "--batch", paramLabel = "FILE",
      description = "JSON Lines of {\"id\", \"query\", \"sources\": [{\"id\", \"text\"}], \"answer\": \"...\" | {...}}, one result line each; - for stdin.")
  String batch;

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder for semantic support of English claims: minilm (default), onnx:..., openai:..., or none (lexical only).")
  String embedder;

  @Option(names = "--judge", paramLabel = "SPEC",
      description = "An LLM judge for claims with valid citations, off by default: openai:MODEL (base URL from"
          + " CTXPACK_LLM_URL, key from CTXPACK_LLM_KEY or OPENAI_API_KEY). Its verdict replaces the lexical one.")
  String judge;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "Output: text (for people) or json (for machines). Default: ${DEFAULT-VALUE}.")
  CommonOptions.Format format;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (batch != null) {
      if (packageFile != null || sourcesFile != null || answerFile != null) {
        throw new UsageException("--batch takes its sources and answers from its lines: drop --package, --sources and --answer");
      }
      return BatchRunner.run(batch, out, endpoint());
    }
    if ((packageFile == null) == (sourcesFile == null)) throw new UsageException("give --package FILE or --sources FILE");
    if (answerFile == null) throw new UsageException("--answer FILE (or - for stdin) is required");
    if (answerFile.equals("-") && "-".equals(sourcesFile)) throw new UsageException("--sources and --answer cannot both be stdin");

    List<VerifySource> sources;
    String q = query;
    if (packageFile != null) {
      ObjectNode pkg = parseFile(packageFile);
      sources = sources(pkg.get("sources"), packageFile + ": sources");
      if (q == null) q = BatchRunner.text(pkg, "query", null);
    } else {
      sources = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      List<String> lines = BatchRunner.readLines(sourcesFile);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).isBlank()) continue;
        try {
          VerifySource s = source(Json.parseObject(lines.get(i)));
          if (!ids.add(s.id())) throw new IllegalArgumentException("id '" + s.id() + "' appears twice");
          sources.add(s);
        } catch (IllegalArgumentException e) {
          throw new UsageException(sourcesFile + ": line " + (i + 1) + ": " + e.getMessage());
        }
      }
    }
    String raw = String.join("\n", BatchRunner.readLines(answerFile));
    Answer answer;
    try {
      answer = answer(raw);
    } catch (IllegalArgumentException e) {
      throw new UsageException(answerFile + ": " + e.getMessage());
    }
    Verifier verifier = verifier(embedder, judge);
    Verification v = verifier.verify(q, sources, answer);
    if (format == CommonOptions.Format.json) {
      out.println(Json.pretty(view(v)));
    } else {
      printText(out, v);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** One request (a batch line, or the body of {@code POST /v1/verify}) to its result, with this command's options. */
  JsonEndpoint endpoint() {
    Verifier verifier = verifier(embedder, judge);
    return req -> handle(req, verifier, query);
  }

  static Verifier verifier(String embedderSpec, String judgeSpec) {
    EvidenceVerifier.Builder b = EvidenceVerifier.builder();
    if (!embedderSpec.equals("none")) b.embedder(Components.embedder(embedderSpec));
    if (judgeSpec != null) {
      if (!judgeSpec.startsWith("openai:") || judgeSpec.length() == "openai:".length()) {
        throw new UsageException("--judge must be openai:MODEL, was '" + judgeSpec + "'");
      }
      try {
        b.judge(new LlmJudge(OpenAiChatClient.fromEnvironment(judgeSpec.substring("openai:".length()))));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--judge: " + e.getMessage());
      }
    }
    return b.build();
  }

  /** One request (a batch line, or the body of {@code POST /v1/verify}) to its result. */
  static ObjectNode handle(ObjectNode req, Verifier verifier, String defaultQuery) throws Exception {
    List<VerifySource> sources = sources(BatchRunner.texts(req, "sources", BatchRunner.MAX_SOURCES, " of {\"id\", \"text\"}"), "sources");
    JsonNode a = req.get("answer");
    if (a == null || a.isNull()) throw new IllegalArgumentException("field 'answer' is required");
    Answer answer;
    if (a.isTextual()) {
      answer = answer(capped(a.asText(), "answer"));
    } else if (a.isObject()) {
      capped(BatchRunner.text((ObjectNode) a, "answer", ""), "answer.answer");
      JsonNode cs = a.get("claims");
      if (cs != null && cs.isArray() && cs.size() > BatchRunner.MAX_CLAIMS) {
        throw new IllegalArgumentException("field 'answer.claims' has " + cs.size() + " items; at most "
            + BatchRunner.MAX_CLAIMS + " are accepted per request");
      }
      answer = claims((ObjectNode) a);
    } else {
      throw new IllegalArgumentException("field 'answer' must be a string or an object {\"answer\", \"claims\"}");
    }
    String q = BatchRunner.query(req, defaultQuery);
    ObjectNode res = Json.object();
    String id = BatchRunner.text(req, "id", null);
    if (id != null) res.put("id", id);
    res.setAll(view(verifier.verify(q, sources, answer)));
    return res;
  }

  /** {@code text}, refused over {@link BatchRunner#MAX_ANSWER_CHARS} characters. */
  private static String capped(String text, String field) {
    if (text.length() > BatchRunner.MAX_ANSWER_CHARS) {
      throw new IllegalArgumentException("field '" + field + "' has " + text.length() + " characters; at most "
          + BatchRunner.MAX_ANSWER_CHARS + " are accepted");
    }
    return text;
  }

  private static ObjectNode parseFile(String file) throws java.io.IOException {
    String text = String.join("\n", BatchRunner.readLines(file));
    try {
      return Json.parseObject(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(file + ": " + e.getMessage());
    }
  }

  static List<VerifySource> sources(JsonNode arr, String field) {
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
  private static VerifySource source(ObjectNode o) {
    String id = BatchRunner.text(o, "id", BatchRunner.text(o, "label", null));
    if (id == null || id.isBlank()) throw new IllegalArgumentException("field 'id' must be a non-empty string");
    String text = BatchRunner.text(o, "text", null);
    if (text == null) throw new IllegalArgumentException("field 'text' of " + id + " must be a string");
    return new VerifySource(id, text);
  }

  /** Text with inline citations, or (when it is a JSON object) the JSON claims format. */
  static Answer answer(String raw) {
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
    String text = BatchRunner.text(o, "answer", "");
    JsonNode cs = o.get("claims");
    if (cs == null || cs.isNull()) return Answer.parse(text);
    if (!cs.isArray()) throw new IllegalArgumentException("field 'claims' must be an array");
    List<Claim> claims = new ArrayList<>();
    for (int i = 0; i < cs.size(); i++) {
      JsonNode c = cs.get(i);
      if (!c.isObject()) throw new IllegalArgumentException("claims[" + i + "] must be an object");
      String ct = BatchRunner.text((ObjectNode) c, "text", null);
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
    }
    return Answer.of(text, claims);
  }

  static ObjectNode view(Verification v) {
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

  private static void printText(PrintWriter out, Verification v) {
    for (ClaimVerdict c : v.claims()) {
      StringBuilder cites = new StringBuilder();
      for (String id : c.claim().citations()) cites.append('[').append(id).append(']');
      out.printf("Claim %d %s %s: %s%n", c.index(), c.verdict().wireName().toUpperCase(java.util.Locale.ROOT),
          cites.length() == 0 ? "(no citation)" : cites, c.claim().text());
      if (c.evidence() != null) {
        out.printf("  evidence [%s] %d-%d (%.2f): %s%n", c.evidence().source(), c.evidence().start(), c.evidence().end(),
            c.evidence().score(), c.evidence().text().strip().replaceAll("\\s+", " "));
      }
      out.println("  " + c.reason());
    }
    if (!v.invalidCitations().isEmpty()) out.println("Invalid citations: " + String.join(", ", v.invalidCitations()));
    out.printf("Citation precision %.2f, recall %.2f; abstained: %s%s%n", v.citationPrecision(), v.citationRecall(),
        v.abstained() ? "yes" : "no",
        v.abstentionCorrect() == null ? "" : v.abstentionCorrect() ? " (right)" : " (wrong)");
    out.println(v.passed() ? "Passed." : "Feedback:\n" + v.feedback().lines().map(l -> "  " + l)
        .reduce((a, b) -> a + "\n" + b).orElse("  (none)"));
  }
}
