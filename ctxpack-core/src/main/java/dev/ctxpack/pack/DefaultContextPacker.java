package dev.ctxpack.pack;

import dev.ctxpack.dedup.Deduplicator;
import dev.ctxpack.dedup.ExactDeduplicator;
import dev.ctxpack.model.BudgetReport;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Trace;
import dev.ctxpack.order.DefaultOrderer;
import dev.ctxpack.order.Orderer;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.select.GreedySelector;
import dev.ctxpack.select.Selector;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The orchestrator of {@code pack}. One request runs:
 *
 * <ol>
 *   <li>choose the template by the query's language (unless one is given) and measure the fixed
 *       part of the prompt; reject a budget that cannot hold it;
 *   <li>retrieve candidates ({@link Retriever}, hybrid by default);
 *   <li>dedup them into passages ({@link Deduplicator}, exact level), keeping every source;
 *   <li>select passages to fill the evidence budget ({@link Selector}), each costed exactly as its
 *       rendered block;
 *   <li>order them ({@link Orderer}, lost-in-the-middle by default);
 *   <li>label sources {@code S1}, {@code S2}... in prompt order and render ({@link PromptRenderer});
 *   <li>count the whole prompt exactly and, while it is over the limit, drop the weakest passage;
 *   <li>report the budget per component, the one-step plan, and the trace.
 * </ol>
 *
 * Every stage comes in through the {@link Builder}; each can be switched off by {@link PackOptions}.
 * Thread-safe if its stages are.
 */
public final class DefaultContextPacker implements ContextPacker {
  private final Retriever retriever;
  private final Tokenizer tokenizer;
  private final Deduplicator deduplicator;
  private final Selector selector;
  private final Orderer orderer;
  private final PromptRenderer renderer;
  private final LanguageDetector languageDetector = new LanguageDetector();

  private DefaultContextPacker(Builder b) {
    this.retriever = Objects.requireNonNull(b.retriever, "retriever");
    this.tokenizer = b.tokenizer;
    this.deduplicator = b.deduplicator;
    this.selector = b.selector;
    this.orderer = b.orderer;
    this.renderer = b.renderer;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public ContextPackage pack(String query, PackOptions o) throws IOException {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    if (o.strategy() != Strategy.STUFF) {
      throw new UnsupportedOperationException(
          "strategy " + o.strategy().key() + " is not available in this version: use stuff");
    }
    Trace trace = new Trace();
    Tokenizer tok = o.model().map(m -> m.tokenizerInstance()).orElse(tokenizer);
    int limit = o.limit();
    Language queryLanguage = languageDetector.detect(query);
    PromptTemplate template = o.template().orElse(PromptTemplate.forLanguage(queryLanguage));
    trace.add("options", "configure", "defaults", List.of(), "", 0,
        "budget=" + o.budget() + ", limit=" + limit + ", reserve=" + o.reserve()
            + o.model().map(m -> ", model=" + m.name()).orElse("") + ", tokenizer=" + tok.name()
            + ", strategy=" + o.strategy().key() + ", order=" + (o.reorder() ? o.order().key() : "none")
            + ", dedup=" + o.dedup() + ", template=" + template.name()
            + " (query language " + queryLanguage.code() + ")");

    int base = tok.count(renderer.render(template, query, List.of()).prompt());
    if (base > limit) throw new BudgetTooSmallException(limit, base);

    List<Candidate> candidates = retriever.retrieve(query, o.retrieval(), trace);
    List<Passage> passages = o.dedup()
        ? deduplicator.dedup(candidates, trace)
        : candidates.stream().map(Passage::of).toList();

    // Cost each passage as a rendered block with a two-digit label (the common case); the exact
    // count of the whole prompt below corrects any difference.
    String tag = "source";
    List<Passage> selected = selector.select(passages, limit - base,
        p -> tok.count(renderer.block(toSource(p, "S10"), tag)) + 1, trace);

    List<Passage> ordered = o.reorder() ? orderer.order(selected, o.order(), trace) : selected;
    List<Passage> kept = new ArrayList<>(ordered);
    while (true) {
      List<Source> sources = label(kept);
      PromptRenderer.Rendered r = renderer.render(template, query, sources);
      int used = tok.count(r.prompt());
      if (used <= limit) {
        return finish(query, r, sources, used, limit, o, tok, trace);
      }
      Passage weakest = kept.stream()
          .min(Comparator.comparingDouble(Passage::score).thenComparing(Passage::id, Comparator.reverseOrder()))
          .orElseThrow();
      kept.remove(weakest);
      trace.add("select", "drop", "budget:exact-count", List.of(weakest.id()), "", 0,
          "the rendered prompt counted " + used + " tokens, over the limit of " + limit
              + "; dropped the weakest passage");
    }
  }

  private ContextPackage finish(String query, PromptRenderer.Rendered r, List<Source> sources, int used, int limit,
      PackOptions o, Tokenizer tok, Trace trace) {
    // Components are counted apart; tokens can merge across their seams, so the sources get the
    // exact remainder and the instructions absorb any seam difference: the parts sum to used.
    int q = tok.count(r.query());
    int sourcesTokens = sources.isEmpty() ? 0 : Math.max(0, used - tok.count(r.instructions()) - q);
    Map<String, Integer> by = new LinkedHashMap<>();
    by.put("instructions", used - q - sourcesTokens);
    by.put("sources", sourcesTokens);
    by.put("query", q);
    BudgetReport budget = new BudgetReport(limit, used, o.reserve(), by);
    List<PlanStep> plan = List.of(new PlanStep(1, "generate", sources.stream().map(Source::label).toList(), r.prompt()));
    trace.add("render", "render", o.strategy().key(), sources.stream().map(Source::label).toList(), "", 0,
        sources.size() + " sources, " + used + " of " + limit + " tokens");
    return new ContextPackage(query, r.prompt(), sources, budget, plan, trace.decisions());
  }

  private static List<Source> label(List<Passage> passages) {
    List<Source> out = new ArrayList<>(passages.size());
    for (int i = 0; i < passages.size(); i++) out.add(toSource(passages.get(i), "S" + (i + 1)));
    return out;
  }

  static Source toSource(Passage p, String label) {
    Candidate c = p.primary();
    List<Source.DocSpan> spans = p.sources().stream()
        .map(s -> new Source.DocSpan(s.doc().id(), s.chunk().span().start(), s.chunk().span().end()))
        .toList();
    return new Source(label, c.doc().id(), c.doc().title(), c.doc().uri(), c.chunk().section(), c.chunk().page(),
        c.doc().date(), spans, p.text());
  }

  /** Stages with defaults: exact dedup, greedy selection, the default orderer, o200k_base. */
  public static final class Builder {
    private Retriever retriever;
    private Tokenizer tokenizer = Tokenizers.defaultTokenizer();
    private Deduplicator deduplicator = new ExactDeduplicator();
    private Selector selector = new GreedySelector();
    private Orderer orderer = new DefaultOrderer();
    private PromptRenderer renderer = new PromptRenderer();

    public Builder retriever(Retriever r) {
      this.retriever = Objects.requireNonNull(r, "retriever");
      return this;
    }

    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      return this;
    }

    public Builder deduplicator(Deduplicator d) {
      this.deduplicator = Objects.requireNonNull(d, "deduplicator");
      return this;
    }

    public Builder selector(Selector s) {
      this.selector = Objects.requireNonNull(s, "selector");
      return this;
    }

    public Builder orderer(Orderer o) {
      this.orderer = Objects.requireNonNull(o, "orderer");
      return this;
    }

    public Builder renderer(PromptRenderer r) {
      this.renderer = Objects.requireNonNull(r, "renderer");
      return this;
    }

    public DefaultContextPacker build() {
      if (retriever == null) throw new IllegalStateException("a retriever is required");
      return new DefaultContextPacker(this);
    }
  }
}
