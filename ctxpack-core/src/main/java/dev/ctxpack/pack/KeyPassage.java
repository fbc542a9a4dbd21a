package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.BudgetReport;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The key passage repeated at the end of the sources ({@link PackOptions#repeatKey()}), for one
 * request. The key is the best sentence of the strongest source (the highest-scored passage, ties
 * by id), as the compressor's sentence scorer rates it against the query (its calibrated model, pt
 * and en), cut to its best clause-aligned part when longer than {@value #MAX_TOKENS} tokens: the
 * sentence most likely to hold the answer, verbatim, not the whole source again.
 * It goes after the SOURCES block (and the conflict lines), before the question, under a header in
 * the template's language and in a fence of its own with the source's label, so a citation of it is
 * a citation of that source and the text stays fenced as data:
 *
 * <pre>
 * Key passage (repeated from S1):
 * &lt;source-3fa2c19b04de id="S1"&gt;
 * ...
 * &lt;/source-3fa2c19b04de&gt;
 * </pre>
 *
 * Its tokens are paid from the budget: {@link #reserve} is set aside before selection, and the exact
 * count of the whole prompt includes the key. Not thread-safe: one per request.
 */
final class KeyPassage {
  /** The most text the key repeats, in tokens. */
  static final int MAX_TOKENS = 60;

  /** A key: the source it repeats, its spans in that source's text, and the block as it goes in the prompt. */
  record Key(Source source, List<int[]> spans, String text, String block) {}

  private final Compressor compressor;
  private final PromptRenderer renderer;
  private final InjectionGuard guard;
  private final String query;
  private final Language language;
  private final InjectionPolicy policy;
  private final Map<String, Optional<Chosen>> cut = new HashMap<>();

  KeyPassage(Compressor compressor, PromptRenderer renderer, InjectionGuard guard, String query, Language language,
      InjectionPolicy policy) {
    this.compressor = compressor;
    this.renderer = renderer;
    this.guard = guard;
    this.query = query;
    this.language = language == Language.PT ? Language.PT : Language.EN;
    this.policy = policy;
  }

  /** The line above the repeated text, in the template's language. */
  static String header(Language language, String label) {
    return language == Language.PT ? "Trecho principal (repetido de " + label + "):" : "Key passage (repeated from " + label + "):";
  }

  /** Tokens set aside for the key before selection: its header and fence around {@value #MAX_TOKENS} tokens of text. */
  int reserve(Tokenizer tok) {
    String tag = policy == InjectionPolicy.OFF ? "source" : "source-3fa2c19b04de";
    Source empty = new Source("S10", "", "", "", "", 0, "", List.of(), "");
    return tok.count("\n" + header(language, "S10") + "\n" + renderer.block(empty, tag) + "\n") + MAX_TOKENS;
  }

  /** The index in {@code kept} of the strongest passage: the highest score, ties by id. */
  static int strongest(List<Passage> kept) {
    Comparator<Passage> best = Comparator.comparingDouble((Passage p) -> -p.score()).thenComparing(Passage::id);
    int at = 0;
    for (int i = 1; i < kept.size(); i++) if (best.compare(kept.get(i), kept.get(at)) < 0) at = i;
    return at;
  }

  /**
   * The key of the rendered {@code sources} (labelled, redacted and guarded as in the prompt, in the
   * order of {@code kept}), fenced with {@code tag}; empty when there are no sources, the compressor
   * keeps nothing, or the key's text would hold the fence.
   */
  Optional<Key> of(List<Passage> kept, List<Source> sources, String tag) throws IOException {
    if (sources.isEmpty()) return Optional.empty();
    Source s = sources.get(strongest(kept));
    Optional<Chosen> chosen = cut.get(s.passage() + '\u0000' + s.text());
    if (chosen == null) {
      chosen = choose(s);
      cut.put(s.passage() + '\u0000' + s.text(), chosen);
    }
    if (chosen.isEmpty()) return Optional.empty();
    String text = chosen.get().text();
    Source repeated = new Source(s.label(), s.docId(), "", "", "", 0, "", List.of(), text, s.passage(), List.of(), List.of());
    String fenced;
    if (policy == InjectionPolicy.OFF) {
      if (text.contains("<" + tag) || text.contains("</" + tag)) return Optional.empty();
      fenced = renderer.block(repeated, tag);
    } else {
      Source g = guard.guard(repeated, policy);
      String token = tag.substring(tag.indexOf('-') + 1).toLowerCase(Locale.ROOT);
      if (g.guard().promptText().toLowerCase(Locale.ROOT).contains(token)) return Optional.empty();
      fenced = renderer.block(g, tag, language);
    }
    return Optional.of(new Key(s, chosen.get().spans(), text, "\n" + header(language, s.label()) + "\n" + fenced + "\n"));
  }

  /** What a key repeats of its source: spans of the source's text and their text (joined by the gap). */
  private record Chosen(List<int[]> spans, String text) {}

  /**
   * The best sentence of {@code s} by the compressor's scorer, cut to its best clause when longer
   * than {@value #MAX_TOKENS} tokens; with another compressor, what it keeps within that budget.
   */
  private Optional<Chosen> choose(Source s) throws IOException {
    List<CompressInput.Part> parts = new ArrayList<>();
    if (s.redactions().isEmpty() && !s.pieces().isEmpty() && Passage.join(s.pieces()).equals(s.text())) {
      for (Passage.Piece p : s.pieces()) parts.add(new CompressInput.Part(p.text(), p.docId(), p.span().start()));
    } else {
      parts.add(CompressInput.Part.of(s.text()));
    }
    int[] partStart = new int[parts.size()];
    for (int i = 1; i < parts.size(); i++) partStart[i] = partStart[i - 1] + parts.get(i - 1).text().length() + Passage.GAP.length();
    List<String> chunkIds = s.spans().stream().map(Source.DocSpan::chunkId).filter(c -> !c.isEmpty()).toList();
    CompressInput in = new CompressInput(s.passage(), parts, s.title(), Double.NaN, chunkIds);
    if (compressor instanceof ExtractiveCompressor e) {
      List<Sentence> sentences = e.sentences(List.of(in));
      if (sentences.isEmpty()) return Optional.empty();
      double[] score = e.scorer().score(query, List.of(in), sentences);
      int at = 0;
      for (int i = 1; i < sentences.size(); i++) if (score[i] > score[at]) at = i; // ties: the earlier sentence
      Sentence b = sentences.get(at);
      int base = partStart[b.part()] + b.start();
      if (e.tokenizer().count(b.text()) <= MAX_TOKENS) {
        return Optional.of(new Chosen(List.of(new int[] {base, base + b.text().length()}), b.text()));
      }
      // Too long: the compressor cuts the sentence alone to its best clause-aligned part that fits.
      CompressInput.Part p = parts.get(b.part());
      in = new CompressInput(s.passage(), List.of(new CompressInput.Part(b.text(), p.docId(),
          p.docId() == null ? 0 : p.docStart() + b.start())), s.title(), Double.NaN, chunkIds);
      partStart = new int[] {base};
    }
    Compression c = compressor.compress(query, List.of(in), CompressOptions.budget(MAX_TOKENS).withKeepPredecessor(false));
    if (c.passages().isEmpty() || c.passages().get(0).text().isBlank()) return Optional.empty();
    List<int[]> spans = new ArrayList<>();
    for (Compression.Span sp : c.passages().get(0).spans()) {
      spans.add(new int[] {partStart[sp.part()] + sp.start(), partStart[sp.part()] + sp.end()});
    }
    return Optional.of(new Chosen(spans, c.passages().get(0).text()));
  }

  /** The trace line of a key that made it into the prompt. */
  static void record(Key key, int tokens, Trace trace) {
    StringBuilder where = new StringBuilder();
    for (int[] sp : key.spans()) where.append(where.length() == 0 ? "" : ", ").append('[').append(sp[0]).append(", ").append(sp[1]).append(')');
    trace.add(Stage.ORDER, Action.REPEAT_KEY, "repeat-key:best-sentences", List.of(key.source().label(), key.source().passage()), "", 0,
        "repeated " + where + " of " + key.source().label() + "'s text (the strongest source) after the SOURCES block,"
            + " before the question: " + tokens + " tokens with its header and fence");
  }

  /** {@code p} with the key's tokens as their own budget component, taken out of {@code sources}. */
  static ContextPackage withKeyComponent(ContextPackage p, int keyTokens) {
    Map<String, Integer> by = new LinkedHashMap<>();
    int sources = p.budget().byComponent().getOrDefault("sources", 0);
    int key = Math.min(keyTokens, sources);
    p.budget().byComponent().forEach((name, v) -> {
      if (name.equals("sources")) {
        by.put("sources", v - key);
        by.put("key", key);
      } else {
        by.put(name, v);
      }
    });
    BudgetReport b = new BudgetReport(p.budget().limit(), p.budget().used(), p.budget().reserve(), by);
    return new ContextPackage(p.query(), p.prompt(), p.sources(), b, p.plan(), p.trace(), p.conflicts());
  }
}
