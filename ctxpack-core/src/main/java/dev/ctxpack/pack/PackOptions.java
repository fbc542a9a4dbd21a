package dev.ctxpack.pack;

import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.pii.RedactionOptions;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.select.MmrSelector;
import dev.ctxpack.token.ModelProfile;
import java.util.Optional;

/**
 * Options of one {@code pack} request. {@code budget} is the prompt's token limit; with a model,
 * the limit is also capped at the model's usable window less {@code reserve}. {@code template} is
 * empty to choose by the query's language. The switches turn stages off for ablations; {@code
 * mmrLambda} is MMR's relevance weight (1 = by score alone); {@code compress} runs query-aware
 * extractive compression on the selected passages; {@code redactPii} the kinds of PII replaced by
 * placeholders in the sources (off by default). {@code injection} is what happens to retrieved
 * text that looks like instructions ({@link InjectionPolicy}; flag by default). {@code fallback} is the
 * plan strategy a {@link Strategy#STUFF} request turns into when its relevant evidence cannot fit one
 * prompt even compressed ({@link Strategy#STUFF} for none, the default of {@link #defaults()});
 * {@code maxCalls} is the most model calls a plan strategy may ask for (it also sizes how much
 * evidence such a plan gathers: {@code maxCalls - 1} prompts' worth).
 * {@code repeatKey} repeats the strongest source's best sentence after the SOURCES block, under its
 * label, paid from the budget (off by default).
 */
public record PackOptions(
    int budget,
    int reserve,
    Optional<ModelProfile> model,
    RetrievalOptions retrieval,
    Strategy strategy,
    OrderMode order,
    Optional<PromptTemplate> template,
    boolean dedup,
    boolean reorder,
    boolean rerank,
    boolean mmr,
    double mmrLambda,
    boolean compress,
    RedactionOptions redactPii,
    InjectionPolicy injection,
    Strategy fallback,
    int maxCalls,
    boolean repeatKey) {

  /** The fewest and most calls a plan may be given, and the default. */
  public static final int MIN_CALLS = 2;
  public static final int MAX_CALLS = 64;
  public static final int DEFAULT_CALLS = 8;

  public PackOptions {
    if (budget <= 0 || budget > Budgets.MAX) {
      throw new IllegalArgumentException("budget must be in [1, " + Budgets.MAX + "] tokens, was " + budget);
    }
    if (reserve < 0) throw new IllegalArgumentException("reserve must be >= 0, was " + reserve);
    if (!(mmrLambda >= 0 && mmrLambda <= 1)) {
      throw new IllegalArgumentException("MMR lambda must be in [0, 1], was " + mmrLambda);
    }
    model = model == null ? Optional.empty() : model;
    template = template == null ? Optional.empty() : template;
    if (retrieval == null) retrieval = RetrievalOptions.defaults();
    if (strategy == null) strategy = Strategy.STUFF;
    if (order == null) order = OrderMode.LOST_IN_THE_MIDDLE;
    if (redactPii == null) redactPii = RedactionOptions.off();
    if (injection == null) injection = InjectionPolicy.FLAG;
    if (fallback == null) fallback = Strategy.STUFF;
    if (maxCalls < MIN_CALLS || maxCalls > MAX_CALLS) {
      throw new IllegalArgumentException("maxCalls must be in [" + MIN_CALLS + ", " + MAX_CALLS + "], was " + maxCalls);
    }
    if (model.isPresent() && model.get().usableWindow() - reserve <= 0) {
      throw new IllegalArgumentException("reserve " + reserve + " leaves nothing of " + model.get().name()
          + "'s usable window of " + model.get().usableWindow() + " tokens");
    }
  }

  /** Medium preset, no model, hybrid retrieval k=40, lost-in-the-middle, every stage on (compression too), λ = 0.7. */
  public static PackOptions defaults() {
    return new PackOptions(Budgets.MEDIUM, 0, Optional.empty(), RetrievalOptions.defaults(), Strategy.STUFF,
        OrderMode.LOST_IN_THE_MIDDLE, Optional.empty(), true, true, true, true, MmrSelector.DEFAULT_LAMBDA, true,
        RedactionOptions.off(), InjectionPolicy.FLAG, Strategy.STUFF, DEFAULT_CALLS, false);
  }

  /** The prompt's token limit: the budget, capped by the model's usable window less the reserve. */
  public int limit() {
    return model.map(m -> Math.min(budget, m.usableWindow() - reserve)).orElse(budget);
  }

  public PackOptions withBudget(int b) {
    return new PackOptions(b, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withRetrieval(RetrievalOptions r) {
    return new PackOptions(budget, reserve, model, r, strategy, order, template, dedup, reorder, rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withModel(ModelProfile m, int reserveTokens) {
    return new PackOptions(budget, reserveTokens, Optional.of(m), retrieval, strategy, order, template, dedup, reorder,
        rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withOrder(OrderMode o) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, o, template, dedup, reorder, rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withTemplate(PromptTemplate t) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, Optional.ofNullable(t), dedup, reorder,
        rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withDedup(boolean on) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, on, reorder, rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withReorder(boolean on) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, on, rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withStrategy(Strategy s) {
    return new PackOptions(budget, reserve, model, retrieval, s, order, template, dedup, reorder, rerank, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withRerank(boolean on) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, on, mmr, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withMmr(boolean on) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, on, mmrLambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withMmrLambda(double lambda) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr, lambda, compress, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  public PackOptions withCompress(boolean on) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr,
        mmrLambda, on, redactPii, injection, fallback, maxCalls, repeatKey);
  }

  /** With the kinds of PII to redact ({@link RedactionOptions#off()} for none). */
  public PackOptions withRedactPii(RedactionOptions r) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr,
        mmrLambda, compress, r, injection, fallback, maxCalls, repeatKey);
  }

  /** With {@code p} as the injection policy ({@link InjectionPolicy#OFF} for none). */
  public PackOptions withInjection(InjectionPolicy p) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr,
        mmrLambda, compress, redactPii, p, fallback, maxCalls, repeatKey);
  }

  /** With {@code s} as the strategy a stuff request falls back to when it cannot fit ({@link Strategy#STUFF}: none). */
  public PackOptions withFallback(Strategy s) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr,
        mmrLambda, compress, redactPii, injection, s, maxCalls, repeatKey);
  }

  /** With at most {@code n} model calls per plan. */
  public PackOptions withMaxCalls(int n) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr,
        mmrLambda, compress, redactPii, injection, fallback, n, repeatKey);
  }

  /** With the key passage repeated after the SOURCES block, or not. */
  public PackOptions withRepeatKey(boolean on) {
    return new PackOptions(budget, reserve, model, retrieval, strategy, order, template, dedup, reorder, rerank, mmr,
        mmrLambda, compress, redactPii, injection, fallback, maxCalls, on);
  }
}
