package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.app.json.Requests;
import dev.ctxpack.app.json.VerifyEndpoint;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.onnx.OpenAiChatClient;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.ClaimVerdict;
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
import picocli.CommandLine.Mixin;
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

  @Option(names = "--min-relevance", paramLabel = "P",
      description = "The relevance line an abstention is judged against, as pack reads it: the sources answer the query"
          + " when their best sentence is at least this likely to hold the answer (auto = pack's default, "
          + PackOptions.Relevance.DEFAULT_LINE + "; 0 = any source answers). Default: auto.")
  String minRelevance;

  @Option(names = "--min-coverage", paramLabel = "C",
      description = "As pack reads it: sources whose best sentence is under the line but at least "
          + PackOptions.Relevance.COVERED_SHARE + " of it still answer when that sentence's passage holds at least this"
          + " share of the query's IDF-weighted terms; off: the line alone decides; auto: "
          + PackOptions.Relevance.DEFAULT_COVERAGE + " with the default line, off with --min-relevance P. Default: auto.")
  String minCoverage;

  @Mixin FormatOption format = new FormatOption();

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
      sources = VerifyEndpoint.sources(pkg.get("sources"), packageFile + ": sources");
      if (q == null) q = Requests.text(pkg, "query", null);
    } else {
      sources = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      List<String> lines = BatchRunner.readLines(sourcesFile);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).isBlank()) continue;
        try {
          VerifySource s = VerifyEndpoint.source(Json.parseObject(lines.get(i)));
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
      answer = VerifyEndpoint.answer(raw);
    } catch (IllegalArgumentException e) {
      throw new UsageException(answerFile + ": " + e.getMessage());
    }
    Verifier verifier = verifier(embedder, judge);
    Verification v = verifier.verify(q, sources, answer);
    if (format.json()) {
      out.println(Json.pretty(VerifyEndpoint.view(v)));
    } else {
      printText(out, v);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** One {@code --batch} line to its result, with this command's options ({@code POST /v1/verify} runs the same function with none). */
  JsonEndpoint endpoint() {
    return VerifyEndpoint.of(verifier(embedder, judge), query);
  }

  /** The verifier of {@code --embedder}, {@code --judge}, {@code --min-relevance} and {@code --min-coverage}. */
  private Verifier verifier(String embedderSpec, String judgeSpec) {
    double line = PackCommand.PackFlags.minRelevanceFlag(minRelevance);
    double cover = PackCommand.PackFlags.minCoverageFlag(minCoverage);
    try {
      return verifierOf(embedderSpec, judgeSpec).withRelevance(line, cover);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The verifier of {@code --embedder} and {@code --judge}. */
  static Verifier verifierOf(String embedderSpec, String judgeSpec) {
    return Components.verifier(embedderSpec, judge(judgeSpec));
  }

  /** The model of {@code --judge openai:MODEL}, or null. */
  private static LlmClient judge(String judgeSpec) {
    if (judgeSpec == null) return null;
    if (!judgeSpec.startsWith("openai:") || judgeSpec.length() == "openai:".length()) {
      throw new UsageException("--judge must be openai:MODEL, was '" + judgeSpec + "'");
    }
    try {
      return OpenAiChatClient.fromEnvironment(judgeSpec.substring("openai:".length()));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--judge: " + e.getMessage());
    }
  }

  private static ObjectNode parseFile(String file) throws java.io.IOException {
    String text = String.join("\n", BatchRunner.readLines(file));
    try {
      return Json.parseObject(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(file + ": " + e.getMessage());
    }
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
    int qn = 0;
    for (dev.ctxpack.verify.QuoteCheck q : v.quotes()) {
      qn++;
      out.printf("Quote %d %s %s: \"%s\"%n", qn, q.status().wireName().toUpperCase(java.util.Locale.ROOT),
          q.quote().citations().isEmpty() ? "(no citation)" : "[" + String.join("][", q.quote().citations()) + "]",
          q.quote().text().strip().replaceAll("\\s+", " "));
      if (q.misquote() && q.closest() != null) {
        out.printf("  closest [%s] %d-%d (%.2f): %s%n", q.closest().source(), q.closest().start(), q.closest().end(),
            q.similarity(), q.closest().text().strip().replaceAll("\\s+", " "));
      }
    }
    if (v.gap() != null) {
      if (!v.gap().missing().isEmpty()) out.println("Missing: " + v.gap().missing());
      if (!v.gap().next().isEmpty()) out.println("Next: " + v.gap().next());
    }
    if (!v.invalidCitations().isEmpty()) out.println("Invalid citations: " + String.join(", ", v.invalidCitations()));
    out.printf("Citation precision %.2f, recall %.2f; abstained: %s%s%n", v.citationPrecision(), v.citationRecall(),
        v.abstained() ? "yes" : "no",
        v.abstentionCorrect() == null ? "" : v.abstentionCorrect() ? " (right)" : " (wrong)");
    out.println(v.passed() ? "Passed." : "Feedback:\n" + v.feedback().lines().map(l -> "  " + l)
        .reduce((a, b) -> a + "\n" + b).orElse("  (none)"));
  }
}
