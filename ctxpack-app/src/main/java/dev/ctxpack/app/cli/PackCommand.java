package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.PackEndpoint;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.pack.Budgets;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.pack.PlanExecutor;
import dev.ctxpack.pack.PromptTemplate;
import dev.ctxpack.pack.StageListener;
import dev.ctxpack.pack.Strategy;
import dev.ctxpack.pack.TemplateFile;
import dev.ctxpack.pii.RedactionOptions;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.ModelProfile;
import dev.ctxpack.token.ModelProfiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "pack", mixinStandardHelpOptions = true,
    description = "Retrieve, deduplicate, select to a token budget, order and render the prompt with cited sources.")
final class PackCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin CommonOptions common = new CommonOptions();
  @Mixin PackFlags flags = new PackFlags();
  @Mixin FusionFlags fusion = new FusionFlags();
  @Mixin DedupFlags dedup = new DedupFlags();
  @Mixin LlmFlags llm = new LlmFlags();

  @Option(names = {"-q", "--query"}, paramLabel = "Q", description = "The question.")
  String query;

  @Option(names = "--batch", paramLabel = "FILE",
      description = "JSON Lines of {\"id\", \"query\", \"budget\" or \"preset\", \"injection\", \"order\","
          + " \"repeatKey\", \"minRelevance\", \"minCoverage\", \"onInsufficient\", \"strategy\", \"execute\"}; - for stdin.")
  String batch;

  @Option(names = "--execute",
      description = "Run the plan: with --llm, every step is a call to that model; without, the intermediate steps run"
          + " offline (extractive, verbatim, labelled notes) and the final prompt is printed ready to send.")
  boolean execute;

  @Option(names = "--window", paramLabel = "N", defaultValue = "0",
      description = "Widen each retrieved chunk to N sentences each side, read from the stored document (for indexes"
          + " built with --chunker sentence-window; 0 = off). Default: ${DEFAULT-VALUE}.")
  int window;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (batch == null && (query == null || query.isBlank())) throw new UsageException("--query must not be empty");
    PackOptions options = flags.options();
    LlmClient model = llm.client();
    if (model != null && !execute && batch == null) throw new UsageException("--llm is used by --execute: add --execute");
    try (Index index = Components.openExisting(common.indexSpec())) {
      Embedder embedder = Components.searchEmbedder(index, common.embedder);
      DefaultContextPacker packer = packer(index, embedder);
      if (batch != null) return BatchRunner.run(batch, out, PackEndpoint.of(packer, options, model, execute));
      ContextPackage p = packer.pack(query, options);
      PlanExecutor.Execution run = execute ? packer.executor(model, options).execute(p) : null;
      if (common.json()) {
        var json = Views.pack(null, p);
        if (run != null) json.set("execution", Views.execution(run));
        out.println(Json.line(json));
      } else {
        if (run != null) {
          out.print(run.answer() != null ? run.answer() + "\n" : run.finalPrompt());
        } else {
          out.print(p.plan().size() > 1 ? Texts.plan(p) : p.prompt());
        }
        out.flush();
        err.println(Texts.budget(p));
        if (run != null) err.println(Texts.execution(run));
      }
    }
    return ExitCodes.OK;
  }

  /** The packer over {@code index} wired from these options. */
  DefaultContextPacker packer(SearchableIndex index, Embedder embedder) {
    return Components.packer(index, embedder, fusion.fusion(), dedup.apply(DedupOptions.conservative()),
        dedup.apply(DedupOptions.strict()), flags.noRerank ? null : Components.reranker(flags.reranker), window,
        StageListener.NONE);
  }

  /** {@code --template}: a template file when {@code value} names one that exists, else a built-in name. */
  static PromptTemplate template(String value) {
    try {
      Path file = Path.of(value);
      if (Files.isRegularFile(file)) return TemplateFile.load(file);
    } catch (InvalidPathException e) {
      // not a path: a name
    } catch (IOException e) {
      throw new UsageException("--template: cannot read " + value + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new UsageException("--template: " + e.getMessage());
    }
    try {
      return PromptTemplate.byName(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--template: " + e.getMessage() + ", or the path of a template file");
    }
  }

  /** The options of pack (shared with demo). */
  static final class PackFlags {
    @Option(names = "--budget", paramLabel = "N", description = "Token budget of the prompt.")
    Integer budget;

    @Option(names = "--preset", paramLabel = "P", description = "low, medium or high (1,000 / 4,000 / 10,000 tokens). Default: medium.")
    String preset;

    @Option(names = "--model", paramLabel = "NAME", description = "Model profile: its tokenizer and window cap the budget.")
    String model;

    @Option(names = "--reserve", paramLabel = "N", description = "Generation reserve with --model. Default: the model's.")
    Integer reserve;

    @Option(names = "--strategy", defaultValue = "stuff",
        description = "stuff (one prompt), map-reduce, refine or tree (a plan of calls, each within the budget)."
            + " Default: ${DEFAULT-VALUE}.")
    String strategy;

    @Option(names = "--max-calls", paramLabel = "N", defaultValue = "" + PackOptions.DEFAULT_CALLS,
        description = "Most calls a plan may make; a plan gathers N-1 prompts' worth of evidence. Default: ${DEFAULT-VALUE}.")
    int maxCalls;

    @Option(names = "--fallback", paramLabel = "STRATEGY", defaultValue = "map-reduce",
        description = "What a stuff request becomes when its relevant evidence cannot fit one prompt even compressed:"
            + " map-reduce, refine, tree or none. Default: ${DEFAULT-VALUE}.")
    String fallback;

    @Option(names = "--order", defaultValue = "lost-in-the-middle",
        description = "lost-in-the-middle, score, source (grouped by document), topic (grouped by topic) or position"
            + " (reading order: documents by date, then passages by offset). Default: ${DEFAULT-VALUE}.")
    String order;

    @Option(names = "--repeat-key", description = "Repeat the strongest source's best sentence under its label after the"
        + " sources, before the question (paid from the budget). Default: off.")
    boolean repeatKey;

    @Option(names = "--template", paramLabel = "NAME|FILE",
        description = "en, pt, json (JSON claims by the query's language), quotes (claim then verbatim extract),"
            + " quote-first (extract then paraphrase), digest (key extracts, then the answer); each of the last four"
            + " also as NAME-en or NAME-pt; or a template file (docs/API.md). Default: en or pt by the query's language.")
    String template;

    @Option(names = "--mode", defaultValue = "hybrid", description = "Retrieval: bm25, dense or hybrid. Default: ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "-k", defaultValue = "40", description = "Candidates retrieved. Default: ${DEFAULT-VALUE}.")
    int k;

    @Option(names = "--no-dedup", description = "Skip deduplication (ablation).")
    boolean noDedup;

    @Option(names = "--no-reorder", description = "Keep selection order (ablation).")
    boolean noReorder;

    @Option(names = "--no-mmr", description = "Select by score alone, without MMR diversity (ablation).")
    boolean noMmr;

    @Option(names = "--mmr-lambda", paramLabel = "L", defaultValue = "0.7",
        description = "MMR relevance weight in [0, 1] (1 = by score alone). Default: ${DEFAULT-VALUE}.")
    double mmrLambda;

    @Option(names = "--no-compress", description = "Keep selected passages whole: no query-aware compression (ablation).")
    boolean noCompress;

    @Option(names = "--min-relevance", paramLabel = "P",
        description = "The relevance line, in [0, 1]: send evidence only when its best sentence is at least this likely to"
            + " hold the answer, then the sentences at least a tenth as likely (0 = fill the budget; auto = the preset's"
            + " default, " + PackOptions.Relevance.DEFAULT_LINE + "). Default: auto.")
    String minRelevance;

    @Option(names = "--min-coverage", paramLabel = "C",
        description = "A request whose best sentence is under the relevance line but at least "
            + PackOptions.Relevance.COVERED_SHARE + " of it still sends its evidence when that sentence's passage holds"
            + " at least this share, in [0, 1], of the query's IDF-weighted terms; off: the line alone decides; auto:"
            + " " + PackOptions.Relevance.DEFAULT_COVERAGE + " with the default line, off with --min-relevance P."
            + " Default: auto.")
    String minCoverage;

    @Option(names = "--on-insufficient", paramLabel = "ACTION", defaultValue = "abstain",
        description = "When nothing clears the line: abstain (no sources; the prompt asks the model to say so), best-effort"
            + " (send the best evidence anyway) or fail (exit code 3). Default: ${DEFAULT-VALUE}.")
    String onInsufficient;

    @Option(names = "--injection", paramLabel = "POLICY", defaultValue = "flag",
        description = "Retrieved text that looks like instructions: flag (keep, warn inside its fence), quarantine (drop),"
            + " datamark (flag, and join every source's words with ˆ) or off (no guard). Default: ${DEFAULT-VALUE}.")
    String injection;

    @Option(names = "--no-rerank", description = "Skip reranking (ablation).")
    boolean noRerank;

    @Option(names = "--reranker", paramLabel = "SPEC", defaultValue = "features",
        description = "features (default: learned, no model), none, http:URL[,model=..][,format=cohere|tei][,batch=N]"
            + " (key in CTXPACK_RERANK_KEY), or onnx:/path/cross-encoder.onnx[,tokenizer=..][,max-length=N].")
    String reranker;

    @Option(names = "--redact-pii", paramLabel = "TYPES", arity = "0..1", fallbackValue = "all",
        description = "Replace PII in the sources by typed placeholders ([EMAIL_1], [CPF_1]...): all kinds, or a"
            + " comma-separated choice of email, phone, card, iban, ip, cpf, cnpj. Default: off.")
    String redactPii;

    /** {@code --min-relevance}: auto (or absent) for the preset's default, else a number in [0, 1]. */
    static double minRelevanceFlag(String value) {
      if (value == null || value.trim().equalsIgnoreCase("auto")) return PackOptions.Relevance.AUTO;
      double p;
      try {
        p = Double.parseDouble(value.trim());
      } catch (NumberFormatException e) {
        throw new UsageException("--min-relevance must be a number in [0, 1] or auto, was '" + value + "'");
      }
      if (!(p >= 0 && p <= 1)) throw new UsageException("--min-relevance must be in [0, 1], was " + value);
      return p;
    }

    /** {@code --min-coverage}: absent or auto for the default, off for none, else a number in [0, 1]. */
    static double minCoverageFlag(String value) {
      if (value == null) return PackOptions.Relevance.AUTO;
      try {
        return PackEndpoint.minCoverage(value.trim(), "--min-coverage");
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }

    private static OrderMode parseOrderFlag(String value) {
      try {
        return OrderMode.parse(value);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--order: " + e.getMessage());
      }
    }

    PackOptions options() {
      if (budget != null && preset != null) throw new UsageException("give --budget or --preset, not both");
      int b = budget != null ? budget : Budgets.preset(preset != null ? preset : "medium");
      if (b <= 0) throw new UsageException("--budget must be a positive number of tokens, was " + b);
      int perSignal = Math.max(1, Math.min(RetrievalOptions.MAX_K, (k + 1) / 2));
      RetrievalOptions r = new RetrievalOptions(RetrievalMode.parse(mode), k, perSignal, perSignal);
      PackOptions o = PackOptions.builder().budget(b).retrieval(r)
          .strategy(Strategy.parse(strategy)).order(parseOrderFlag(order))
          .dedup(!noDedup).reorder(!noReorder).mmr(!noMmr).rerank(!noRerank)
          .compress(!noCompress).build();
      if (!(mmrLambda >= 0 && mmrLambda <= 1)) throw new UsageException("--mmr-lambda must be in [0, 1], was " + mmrLambda);
      try {
        o = o.toBuilder().maxCalls(maxCalls).fallback(PackEndpoint.parseFallback(fallback, "--fallback")).build();
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage().startsWith("--") ? e.getMessage() : "--max-calls: " + e.getMessage());
      }
      o = o.toBuilder().mmrLambda(mmrLambda).build();
      try {
        o = o.toBuilder().injection(InjectionPolicy.parse(injection)).build();
      } catch (IllegalArgumentException e) {
        throw new UsageException("--injection: " + e.getMessage());
      }
      if (template != null) o = o.toBuilder().template(template(template)).build();
      if (repeatKey) o = o.toBuilder().repeatKey(true).build();
      o = o.toBuilder().minRelevance(minRelevanceFlag(minRelevance)).minCoverage(minCoverageFlag(minCoverage)).build();
      try {
        o = o.toBuilder().onInsufficient(PackEndpoint.parseOnInsufficient(onInsufficient, "--on-insufficient")).build();
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      if (redactPii != null) {
        try {
          o = o.toBuilder().redactPii(RedactionOptions.parse(redactPii)).build();
        } catch (IllegalArgumentException e) {
          throw new UsageException("--redact-pii: " + e.getMessage());
        }
      }
      if (model != null) {
        ModelProfile m = ModelProfiles.builtIn().get(model);
        o = o.toBuilder().model(m, reserve != null ? reserve : m.defaultReserve()).build();
      } else if (reserve != null) {
        throw new UsageException("--reserve needs --model");
      }
      return o;
    }
  }
}
