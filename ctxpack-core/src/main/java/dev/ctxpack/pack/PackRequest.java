package dev.ctxpack.pack;

import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * What one {@code pack} request works with once its options are read: the tokenizer (the model's, or
 * the packer's), the template chosen by the query's language, the evidence budget, how a passage is
 * costed as its rendered block, the PII redactor, the repeated key (null when off), the trace lines
 * every round of it starts with, and its clock. Not thread-safe: one per request.
 */
final class PackRequest {
  private static final LanguageDetector LANGUAGES = new LanguageDetector();

  final String query;
  final PackOptions options;
  final Tokenizer tok;
  final PromptTemplate template;
  final InjectionPolicy policy;
  final boolean planned;
  final boolean rerank;
  final SourceRedactor pii;
  final KeyPassage keys;
  final EvidenceBudget budget;
  final ToIntFunction<Passage> cost;
  final Trace head = new Trace();
  final StageClock clock = new StageClock();

  PackRequest(String query, PackOptions o, PackStages s, Tokenizer tok) {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    this.query = query;
    this.options = o;
    this.planned = o.plan().strategy() != Strategy.STUFF;
    this.tok = tok;
    Language queryLanguage = LANGUAGES.detect(query);
    this.template = o.layout().template().map(t -> t.forQuery(queryLanguage)).orElse(PromptTemplate.forLanguage(queryLanguage));
    this.rerank = o.stages().rerank() && s.reranking() != null;
    this.pii = SourceRedactor.of(o.safety().redactPii());
    this.policy = o.safety().injection();
    int limit = o.limit();
    if (pii.on()) head.add(Stage.OPTIONS, Action.CONFIGURE, "pii", List.of(), "", 0, "redact PII: " + o.safety().redactPii().describe());
    // A plan has no single prompt to repeat the key in: the repeat is for stuff prompts.
    this.keys = o.layout().repeatKey() && !planned
        ? new KeyPassage(s.compressor(), s.renderer(), s.guard(), query, template.language(), policy) : null;
    if (keys != null) {
      head.add(Stage.OPTIONS, Action.CONFIGURE, "repeat-key", List.of(), "", 0,
          "repeat the strongest source's best sentence (at most " + KeyPassage.MAX_TOKENS + " tokens) before the question");
    }
    head.add(Stage.OPTIONS, Action.CONFIGURE, "defaults", List.of(), "", 0,
        "budget=" + o.budget().tokens() + ", limit=" + limit + ", reserve=" + o.budget().reserve()
            + o.budget().model().map(m -> ", model=" + m.name()).orElse("") + ", tokenizer=" + tok.name()
            + ", strategy=" + o.plan().strategy().key() + ", order=" + (o.stages().reorder() ? o.layout().order().key() : "none")
            + ", dedup=" + (o.stages().dedup() ? "conservative[" + s.conservative().describe() + "] then strict["
                + s.strict().describe() + "]" : "off")
            + ", rerank=" + (rerank ? s.reranking().reranker().id() : "off")
            + ", mmr=" + (o.stages().mmr() ? "lambda " + o.stages().mmrLambda() : "off")
            + ", compress=" + (o.stages().compress() ? s.compressorId() : "off")
            + ", template=" + template.name() + " (query language " + queryLanguage.code() + ")"
            + ", injection=" + policy.key());
    // Budgeted with the widest citation example ([S1] or [S1][S2]): a prompt with fewer sources only gets shorter.
    int fixed = tok.count(s.renderer().render(template, query, List.of(), policy).prompt())
        + Math.max(0, tok.count(template.renderedInstructions()) - tok.count(template.renderedInstructions(List.of())));
    if (fixed > limit) throw new BudgetTooSmallException(limit, fixed);
    this.budget = EvidenceBudget.of(limit, fixed, keys == null ? 0 : keys.reserve(tok), planned, o.plan().maxCalls(),
        o.stages().compress());
    this.cost = blockCost(s);
  }

  /**
   * Each passage costed as a rendered block with a two-digit label (the common case), redacted and
   * guarded as it will be (a typical boundary token); the exact count of the whole prompt corrects
   * any difference.
   */
  private ToIntFunction<Passage> blockCost(PackStages s) {
    String tag = policy == InjectionPolicy.OFF ? "source" : "source-3fa2c19b04de";
    if (policy == InjectionPolicy.OFF) return p -> tok.count(s.renderer().block(pii.one(Sources.toSource(p, "S10")), tag)) + 1;
    Map<String, Integer> guarded = new HashMap<>();
    return p -> guarded.computeIfAbsent(p.id() + '\u0000' + p.text(),
        k -> tok.count(s.renderer().block(s.guard().guard(pii.one(Sources.toSource(p, "S10")), policy), tag, template.language())) + 1);
  }

  int limit() {
    return budget.limit();
  }

  /** A fresh trace holding the lines every round of this request starts with. */
  Trace startRound() {
    Trace t = new Trace();
    for (var d : head.decisions()) t.add(d);
    return t;
  }
}
