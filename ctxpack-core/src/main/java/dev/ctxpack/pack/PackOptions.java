package dev.ctxpack.pack;

import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.pii.RedactionOptions;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.select.MmrSelector;
import dev.ctxpack.token.ModelProfile;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of one {@code pack} request, by concern: how many tokens it may spend ({@link Budget}),
 * what it retrieves ({@link RetrievalOptions}), which stages run ({@link Stages}, the ablation
 * switches), how the prompt is laid out ({@link Layout}), whether it becomes a plan of calls ({@link
 * Plan}) and how retrieved text is made safe ({@link Safety}). Built with {@link #builder()} (from
 * {@link #defaults()}) or {@link #toBuilder()}:
 *
 * <pre>{@code
 * PackOptions o = PackOptions.builder().budget(2000).order(OrderMode.TOPIC).repeatKey(true).build();
 * PackOptions ablated = o.toBuilder().compress(false).build();
 * }</pre>
 *
 * Each part validates itself when built and names the bad value. {@link #defaults()} are the
 * defaults of the CLI, the service and the library alike.
 */
public record PackOptions(Budget budget, RetrievalOptions retrieval, Stages stages, Layout layout, Plan plan,
    Safety safety, Relevance relevance) {

  /** The fewest and most calls a plan may be given, and the default. */
  public static final int MIN_CALLS = 2;
  public static final int MAX_CALLS = 64;
  public static final int DEFAULT_CALLS = 8;

  public PackOptions {
    Objects.requireNonNull(budget, "budget");
    if (retrieval == null) retrieval = RetrievalOptions.defaults();
    Objects.requireNonNull(stages, "stages");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(safety, "safety");
    if (relevance == null) relevance = Relevance.defaults();
  }

  /** The options with the default relevance line ({@link Relevance#defaults()}). */
  public PackOptions(Budget budget, RetrievalOptions retrieval, Stages stages, Layout layout, Plan plan, Safety safety) {
    this(budget, retrieval, stages, layout, plan, safety, Relevance.defaults());
  }

  /**
   * The prompt's token limit and what it is counted against: {@code tokens} is the budget; with a
   * model, the limit is also capped at the model's usable window less {@code reserve}, the
   * generation's share, and the model's tokenizer counts.
   */
  public record Budget(int tokens, int reserve, Optional<ModelProfile> model) {
    public Budget {
      if (tokens <= 0 || tokens > Budgets.MAX) {
        throw new IllegalArgumentException("budget must be in [1, " + Budgets.MAX + "] tokens, was " + tokens);
      }
      if (reserve < 0) throw new IllegalArgumentException("reserve must be >= 0, was " + reserve);
      model = model == null ? Optional.empty() : model;
      if (model.isPresent() && model.get().usableWindow() - reserve <= 0) {
        throw new IllegalArgumentException("reserve " + reserve + " leaves nothing of " + model.get().name()
            + "'s usable window of " + model.get().usableWindow() + " tokens");
      }
    }

    /** The prompt's token limit: the budget, capped by the model's usable window less the reserve. */
    public int limit() {
      return model.map(m -> Math.min(tokens, m.usableWindow() - reserve)).orElse(tokens);
    }
  }

  /**
   * Which stages run: each switch turns one off, for ablations. {@code mmrLambda} is MMR's relevance
   * weight (1 = by score alone) when {@code mmr} is on; {@code compress} is query-aware extractive
   * compression of the selected passages; {@code reorder} off keeps selection order.
   */
  public record Stages(boolean dedup, boolean rerank, boolean mmr, double mmrLambda, boolean compress, boolean reorder) {
    public Stages {
      if (!(mmrLambda >= 0 && mmrLambda <= 1)) {
        throw new IllegalArgumentException("MMR lambda must be in [0, 1], was " + mmrLambda);
      }
    }
  }

  /**
   * How the prompt is laid out: the {@code order} of its sources, the {@code template} (empty: chosen
   * by the query's language), and {@code repeatKey}, the strongest source's best sentence repeated
   * after the SOURCES block under its label, paid from the budget.
   */
  public record Layout(OrderMode order, Optional<PromptTemplate> template, boolean repeatKey) {
    public Layout {
      if (order == null) order = OrderMode.LOST_IN_THE_MIDDLE;
      template = template == null ? Optional.empty() : template;
    }
  }

  /**
   * One prompt or a plan of calls: {@code strategy}; {@code fallback}, the plan strategy a {@link
   * Strategy#STUFF} request turns into when its relevant evidence cannot fit one prompt even
   * compressed ({@link Strategy#STUFF} for none); {@code maxCalls}, the most model calls a plan may ask
   * for (it also sizes how much evidence a plan gathers: {@code maxCalls - 1} prompts' worth).
   */
  public record Plan(Strategy strategy, Strategy fallback, int maxCalls) {
    public Plan {
      if (strategy == null) strategy = Strategy.STUFF;
      if (fallback == null) fallback = Strategy.STUFF;
      if (maxCalls < MIN_CALLS || maxCalls > MAX_CALLS) {
        throw new IllegalArgumentException("maxCalls must be in [" + MIN_CALLS + ", " + MAX_CALLS + "], was " + maxCalls);
      }
    }
  }

  /**
   * What is done to retrieved text before a model sees it: the kinds of PII replaced by placeholders
   * ({@link RedactionOptions#off()} for none) and what happens to text that looks like instructions
   * ({@link InjectionPolicy}).
   */
  public record Safety(RedactionOptions redactPii, InjectionPolicy injection) {
    public Safety {
      if (redactPii == null) redactPii = RedactionOptions.off();
      if (injection == null) injection = InjectionPolicy.FLAG;
    }
  }

  /**
   * How much of the budget a request spends: the budget is the most it may spend, and {@code
   * minRelevance} decides what it does spend: evidence is sent only when its best sentence's
   * calibrated probability of holding the answer is at least this ({@link Relevance#AUTO}, NaN: the
   * default line for the request's budget, {@link Relevance#lineFor(int)}; 0: fill the budget, as
   * before the line), and then only the sentences at least {@code relative} as likely as that best
   * one. A request whose best sentence is under the line but at least {@link #COVERED_SHARE} of it
   * still has its evidence sent when the passage holding that sentence covers at least {@code
   * coverage} of the query's IDF-weighted terms ({@link #AUTO}: {@link #DEFAULT_COVERAGE} with the
   * default line, none with a line set by hand; {@link #NO_COVER}: the line alone decides). When
   * no sentence clears the line, the evidence is insufficient and {@code onInsufficient} says what
   * the request does.
   */
  public record Relevance(double minRelevance, OnInsufficient onInsufficient, double relative, double coverage) {
    /** The default line for the request's budget. */
    public static final double AUTO = dev.ctxpack.compress.RelevanceGate.AUTO;
    /**
     * The default line of every preset: chosen on the FIT half of the relevance evaluation
     * (docs/BENCHMARKS.md), where it tells off-corpus questions from answerable ones.
     */
    public static final double DEFAULT_LINE = dev.ctxpack.compress.RelevanceGate.DEFAULT_LINE;
    /**
     * The default relative line: once the best sentence clears the line, a sentence is sent when it is
     * at least this share as likely as the best (chosen with {@link #DEFAULT_LINE}).
     */
    public static final double DEFAULT_RELATIVE = dev.ctxpack.compress.RelevanceGate.DEFAULT_RELATIVE;
    /**
     * The default coverage that lets a request whose best sentence is under the default line
     * through it: chosen on the FIT half of the relevance evaluation (docs/BENCHMARKS.md), where the
     * passages found for off-corpus questions cover less of them than this and those of answerable
     * questions whose answer sentence scored low mostly more.
     */
    public static final double DEFAULT_COVERAGE = dev.ctxpack.compress.RelevanceGate.DEFAULT_COVERAGE;
    /**
     * The share of the line a best sentence needs for its passage's coverage to be read at all
     * (0.084 under the default line): chosen with {@link #DEFAULT_COVERAGE} on the FIT half.
     */
    public static final double COVERED_SHARE = dev.ctxpack.compress.RelevanceGate.COVERED_SHARE;
    /** A coverage no passage reaches: the line alone decides. */
    public static final double NO_COVER = dev.ctxpack.compress.RelevanceGate.NO_COVER;

    public Relevance {
      dev.ctxpack.compress.RelevanceGate.checkCoverage(coverage, "min coverage");
      dev.ctxpack.compress.RelevanceGate.checkLine(minRelevance, "min relevance");
      if (!(relative >= 0 && relative <= 1)) throw new IllegalArgumentException("relative relevance must be in [0, 1], was " + relative);
      if (onInsufficient == null) onInsufficient = OnInsufficient.ABSTAIN;
    }

    public Relevance(double minRelevance, OnInsufficient onInsufficient, double relative) {
      this(minRelevance, onInsufficient, relative, AUTO);
    }

    public Relevance(double minRelevance, OnInsufficient onInsufficient) {
      this(minRelevance, onInsufficient, DEFAULT_RELATIVE);
    }

    /** The default line for the request's budget, abstaining when nothing clears it. */
    public static Relevance defaults() {
      return new Relevance(AUTO, OnInsufficient.ABSTAIN, DEFAULT_RELATIVE, AUTO);
    }

    /**
     * The default line for a budget of {@code limit} tokens: {@value #DEFAULT_LINE} for every preset
     * (low, medium and high alike).
     */
    public static double lineFor(int limit) {
      return DEFAULT_LINE;
    }

    /** The line a request with this limit uses: {@code minRelevance}, or the default for the limit. */
    public double line(int limit) {
      return Double.isNaN(minRelevance) ? lineFor(limit) : minRelevance;
    }

    /**
     * {@code base} with this relevance's gate at {@code line} (a line of 0 or less adds none): the
     * line as the compressor's threshold, the {@code relative} line, and the second way through it by
     * coverage ({@link #coverageNeeded()}, read from {@link #COVERED_SHARE} of the line up). {@code
     * pack} compresses its evidence with these options and {@code verify} judges an abstention with
     * them ({@link dev.ctxpack.compress.RelevanceGate}, {@link
     * dev.ctxpack.compress.ExtractiveCompressor#gate}): one notion of "the sources answer this".
     */
    public dev.ctxpack.compress.CompressOptions gate(dev.ctxpack.compress.CompressOptions base, double line) {
      return dev.ctxpack.compress.RelevanceGate.apply(base, line, relative, coverageNeeded());
    }

    /**
     * The coverage that lets a request under the line through it: {@code coverage}, or for
     * {@link #AUTO} the default with the default line and {@link #NO_COVER} with a line set by hand
     * (so a hand-set line means what it says).
     */
    public double coverageNeeded() {
      return dev.ctxpack.compress.RelevanceGate.coverageNeeded(minRelevance, coverage);
    }
  }

  /**
   * Medium preset (4,000 tokens), no model, hybrid retrieval k = 40, every stage on (compression
   * too), MMR λ = 0.7, lost-in-the-middle, the template by the query's language, no repeated key,
   * one prompt falling back to map-reduce (at most {@value #DEFAULT_CALLS} calls) when its relevant
   * evidence cannot fit, injection flagged, no PII redaction.
   */
  public static PackOptions defaults() {
    return new PackOptions(new Budget(Budgets.MEDIUM, 0, Optional.empty()), RetrievalOptions.defaults(),
        new Stages(true, true, true, MmrSelector.DEFAULT_LAMBDA, true, true),
        new Layout(OrderMode.LOST_IN_THE_MIDDLE, Optional.empty(), false),
        new Plan(Strategy.STUFF, Strategy.MAP_REDUCE, DEFAULT_CALLS),
        new Safety(RedactionOptions.off(), InjectionPolicy.FLAG), Relevance.defaults());
  }

  /** A builder starting from {@link #defaults()}. */
  public static Builder builder() {
    return defaults().toBuilder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The prompt's token limit: {@link Budget#limit()}. */
  public int limit() {
    return budget.limit();
  }

  /** Sets options one by one; {@link #build()} validates each part and names a bad value. */
  public static final class Builder {
    private int tokens;
    private int reserve;
    private Optional<ModelProfile> model;
    private RetrievalOptions retrieval;
    private boolean dedup;
    private boolean rerank;
    private boolean mmr;
    private double mmrLambda;
    private boolean compress;
    private boolean reorder;
    private OrderMode order;
    private Optional<PromptTemplate> template;
    private boolean repeatKey;
    private Strategy strategy;
    private Strategy fallback;
    private int maxCalls;
    private RedactionOptions redactPii;
    private InjectionPolicy injection;
    private double minRelevance;
    private OnInsufficient onInsufficient;
    private double relativeRelevance;
    private double minCoverage;

    private Builder(PackOptions o) {
      tokens = o.budget.tokens();
      reserve = o.budget.reserve();
      model = o.budget.model();
      retrieval = o.retrieval;
      dedup = o.stages.dedup();
      rerank = o.stages.rerank();
      mmr = o.stages.mmr();
      mmrLambda = o.stages.mmrLambda();
      compress = o.stages.compress();
      reorder = o.stages.reorder();
      order = o.layout.order();
      template = o.layout.template();
      repeatKey = o.layout.repeatKey();
      strategy = o.plan.strategy();
      fallback = o.plan.fallback();
      maxCalls = o.plan.maxCalls();
      redactPii = o.safety.redactPii();
      injection = o.safety.injection();
      minRelevance = o.relevance.minRelevance();
      onInsufficient = o.relevance.onInsufficient();
      relativeRelevance = o.relevance.relative();
      minCoverage = o.relevance.coverage();
    }

    /** The prompt's token budget. */
    public Builder budget(int tokens) {
      this.tokens = tokens;
      return this;
    }

    /** The model whose tokenizer counts and whose usable window less {@code reserveTokens} caps the limit. */
    public Builder model(ModelProfile m, int reserveTokens) {
      this.model = Optional.of(Objects.requireNonNull(m, "model"));
      this.reserve = reserveTokens;
      return this;
    }

    public Builder retrieval(RetrievalOptions r) {
      this.retrieval = Objects.requireNonNull(r, "retrieval");
      return this;
    }

    public Builder dedup(boolean on) {
      this.dedup = on;
      return this;
    }

    public Builder rerank(boolean on) {
      this.rerank = on;
      return this;
    }

    public Builder mmr(boolean on) {
      this.mmr = on;
      return this;
    }

    public Builder mmrLambda(double lambda) {
      this.mmrLambda = lambda;
      return this;
    }

    public Builder compress(boolean on) {
      this.compress = on;
      return this;
    }

    public Builder reorder(boolean on) {
      this.reorder = on;
      return this;
    }

    public Builder order(OrderMode o) {
      this.order = Objects.requireNonNull(o, "order");
      return this;
    }

    /** The template; {@code null} to choose it by the query's language. */
    public Builder template(PromptTemplate t) {
      this.template = Optional.ofNullable(t);
      return this;
    }

    public Builder repeatKey(boolean on) {
      this.repeatKey = on;
      return this;
    }

    public Builder strategy(Strategy s) {
      this.strategy = Objects.requireNonNull(s, "strategy");
      return this;
    }

    /** What a stuff request becomes when it cannot fit ({@link Strategy#STUFF}: none). */
    public Builder fallback(Strategy s) {
      this.fallback = Objects.requireNonNull(s, "fallback");
      return this;
    }

    public Builder maxCalls(int n) {
      this.maxCalls = n;
      return this;
    }

    /** The kinds of PII to redact ({@link RedactionOptions#off()} for none). */
    public Builder redactPii(RedactionOptions r) {
      this.redactPii = Objects.requireNonNull(r, "redactPii");
      return this;
    }

    /** The injection policy ({@link InjectionPolicy#OFF} for none). */
    public Builder injection(InjectionPolicy p) {
      this.injection = Objects.requireNonNull(p, "injection");
      return this;
    }

    /**
     * The relevance line in [0, 1]: sentences less likely than this to hold the answer are not sent
     * ({@link Relevance#AUTO} for the budget's default, 0 to fill the budget).
     */
    public Builder minRelevance(double p) {
      this.minRelevance = p;
      return this;
    }

    /** The relative line in [0, 1]: a sentence is sent only at least this share as likely as the request's best. */
    public Builder relativeRelevance(double share) {
      this.relativeRelevance = share;
      return this;
    }

    /**
     * The coverage in [0, 1] that lets a request whose best sentence is under the line (but at
     * least {@link Relevance#COVERED_SHARE} of it) through it, by the best passage's share of the
     * query's IDF-weighted terms; {@link Relevance#AUTO} (the default) for the default with the
     * default line and none with a hand-set one, {@link Relevance#NO_COVER} for none.
     */
    public Builder minCoverage(double share) {
      this.minCoverage = share;
      return this;
    }

    /** What a request does when nothing clears the relevance line. */
    public Builder onInsufficient(OnInsufficient o) {
      this.onInsufficient = Objects.requireNonNull(o, "onInsufficient");
      return this;
    }

    public PackOptions build() {
      return new PackOptions(new Budget(tokens, reserve, model), retrieval,
          new Stages(dedup, rerank, mmr, mmrLambda, compress, reorder), new Layout(order, template, repeatKey),
          new Plan(strategy, fallback, maxCalls), new Safety(redactPii, injection),
          new Relevance(minRelevance, onInsufficient, relativeRelevance, minCoverage));
    }
  }
}
