package dev.ctxpack.pack;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.compress.DropReason;
import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.Decimals;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * The compression stage over selected passages: each passage becomes a {@link CompressInput} of its
 * verbatim pieces, the {@link Compressor} keeps what answers the query within what the passages'
 * blocks leave of the evidence budget, and the kept spans become the passages' pieces again at
 * their document offsets. Every cut is a {@code compress} decision.
 */
final class EvidenceCompression {
  private EvidenceCompression() {}

  /**
   * Compresses the selected passages so that their blocks fit {@code evidence} tokens: the text's
   * budget is what the blocks leave once their labels and metadata are paid for. Each passage keeps
   * its kept spans as pieces at their document offsets; a passage left with nothing is dropped. The
   * spans dropped from each passage go into {@code cut}, by passage id, for its source to show.
   * With {@code line} above 0, only sentences at least that likely to hold the answer are kept
   * ({@code below-relevance} drops otherwise).
   */
  static Compressed compress(PackStages s, PackRequest r, List<Passage> selected, int evidence, double line, Trace trace,
      Map<String, List<Source.Dropped>> cut) throws IOException {
    String query = r.query;
    ToIntFunction<Passage> cost = r.cost;
    Tokenizer tok = r.tok;
    InjectionPolicy policy = r.policy;
    InjectionGuard guard = s.guard();
    Compressor compressor = s.compressor();
    List<CompressInput> inputs = new ArrayList<>(selected.size());
    int overhead = 0;
    int textTokens = 0;
    // Under datamark a text costs more in the prompt than plain: the compressor's plain budget is scaled by that.
    long markedTokens = 0;
    Map<String, Integer> blockOverhead = new HashMap<>();
    for (Passage p : selected) {
      List<CompressInput.Part> parts = new ArrayList<>(p.pieces().size());
      for (Passage.Piece piece : p.pieces()) parts.add(new CompressInput.Part(piece.text(), piece.docId(), piece.span().start()));
      List<String> chunkIds = p.sources().stream().map(c -> c.chunk().id()).toList();
      inputs.add(new CompressInput(p.id(), parts, p.primary().doc().title(), p.score(), chunkIds));
      int text = tok.count(p.text());
      textTokens += text;
      int inPrompt = policy == InjectionPolicy.DATAMARK ? tok.count(guard.inspect(p.text(), p.pieces(), policy).promptText()) : text;
      markedTokens += inPrompt;
      int own = Math.max(0, cost.applyAsInt(p) - inPrompt);
      blockOverhead.put(p.id(), own);
      overhead += own;
    }
    int budget = evidence - overhead;
    if (markedTokens > textTokens && budget > 0) budget = (int) ((long) budget * textTokens / markedTokens);
    if (budget <= 0) {
      trace.add(Stage.COMPRESS, Action.SKIP, "budget:blocks", List.of(), "", 0,
          "the blocks' labels and metadata alone take " + overhead + " of " + evidence + " tokens; nothing compressed");
      return new Compressed(selected, 0, List.of());
    }
    PackOptions.Relevance relevance = r.options.relevance();
    CompressOptions options = relevance.gate(CompressOptions.budget(budget), line);
    Compression c = compressor.compress(query, inputs, options);
    if (c.coverage() != null) RelevanceLine.covered(trace, c.coverage(), line, relevance.coverageNeeded());
    Map<String, Compression.Compressed> kept = new HashMap<>();
    for (Compression.Compressed k : c.passages()) kept.put(k.id(), k);
    Map<String, Passage> byId = new HashMap<>();
    for (Passage p : selected) byId.put(p.id(), p);
    Map<String, Map<String, Integer>> reasons = new LinkedHashMap<>();
    int roomless = 0; // relevant sentences cut only for room
    Set<String> relevantPassages = new HashSet<>(kept.keySet());
    for (Compression.Dropped d : c.dropped()) {
      if (d.reason() == DropReason.BUDGET && d.score() >= StuffFallback.RELEVANCE) {
        roomless += d.tokens();
        relevantPassages.add(d.id());
      }
      Passage p = byId.get(d.id());
      Passage.Piece piece = p.pieces().get(d.span().part());
      int start = piece.span().start() + d.span().start();
      int end = piece.span().start() + d.span().end();
      trace.add(Stage.COMPRESS, Action.DROP, "compress:" + d.reason().key(), List.of(d.id()), "", d.tokens(),
          piece.docId() + " [" + start + ", " + end + ") score " + Decimals.fixed(d.score(), 4));
      reasons.computeIfAbsent(d.id(), x -> new LinkedHashMap<>()).merge(d.reason().key(), 1, Integer::sum);
      cut.computeIfAbsent(d.id(), x -> new ArrayList<>()).add(new Source.Dropped(piece.docId(), start, end,
          piece.text().substring(d.span().start(), d.span().end()), d.reason().key(), d.score()));
    }
    List<Passage> out = new ArrayList<>(selected.size());
    for (Passage p : selected) {
      Compression.Compressed k = kept.get(p.id());
      if (k == null) {
        trace.add(Stage.COMPRESS, Action.DROP, "compress:empty", List.of(p.id()), "", tok.count(p.text()),
            "no sentence of the passage was kept (" + reasons.getOrDefault(p.id(), Map.of()) + ")");
        continue;
      }
      List<Passage.Piece> pieces = new ArrayList<>(k.spans().size());
      for (Compression.Span sp : k.spans()) {
        Passage.Piece piece = p.pieces().get(sp.part());
        int start = piece.span().start() + sp.start();
        pieces.add(new Passage.Piece(piece.docId(), new Span(start, piece.span().start() + sp.end()),
            piece.text().substring(sp.start(), sp.end())));
      }
      Passage compressed = Passage.of(p.id(), pieces, p.sources(), p.score());
      if (!compressed.text().equals(p.text())) {
        trace.add(Stage.COMPRESS, Action.COMPRESS, s.compressorId(), List.of(p.id()), "", Math.max(0, tok.count(p.text()) - k.tokens()),
            "kept " + k.spans().size() + " span(s), " + k.tokens() + " tokens; dropped " + reasons.getOrDefault(p.id(), Map.of()));
      }
      out.add(compressed);
    }
    trace.add(Stage.COMPRESS, Action.SUMMARY, s.compressorId(), List.of(), "", Math.max(0, textTokens - c.tokensOut()),
        "text of " + selected.size() + " passages: " + textTokens + " -> " + c.tokensOut() + " tokens (budget " + budget
            + " after " + overhead + " tokens of block overhead); " + out.size() + " passages keep text");
    int relevant = c.tokensOut() + roomless;
    for (String id : relevantPassages) relevant += blockOverhead.getOrDefault(id, 0);
    return new Compressed(out, relevant, line > 0 && out.isEmpty() ? RelevanceLine.closest(c, byId) : List.of());
  }

  /**
   * What compression kept, and what the relevant evidence would take in one prompt without the
   * instructions and query: the kept text, the sentences cut only for room whose probability of
   * holding the answer is at least {@link StuffFallback#RELEVANCE}, and the blocks of the passages
   * holding either; when a relevance line kept nothing, the sentences that came closest ({@link
   * RelevanceLine#closest}).
   */
  record Compressed(List<Passage> passages, int relevantTokens, List<ContextPackage.Closest> closest) {}
}
