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
    Safety safety) {

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
        new Safety(RedactionOptions.off(), InjectionPolicy.FLAG));
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

    public PackOptions build() {
      return new PackOptions(new Budget(tokens, reserve, model), retrieval,
          new Stages(dedup, rerank, mmr, mmrLambda, compress, reorder), new Layout(order, template, repeatKey),
          new Plan(strategy, fallback, maxCalls), new Safety(redactPii, injection));
    }
  }
}
