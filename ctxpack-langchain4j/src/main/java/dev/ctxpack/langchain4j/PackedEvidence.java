package dev.ctxpack.langchain4j;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Stage;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.content.Content;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one aggregation (or injection of raw contents) packed: the question, ctxpack's {@link
 * ContextPackage} (prompt, labelled sources, budget report, conflicts and the trace of every merge,
 * stitch, drop and trim), the contents handed on to the injector, the token grant and the tokens the
 * chat memory took. Immutable, one per call: safe to read from any thread.
 *
 * <p>Reach it from what LangChain4j gives back: {@link #of(List)} over the aggregated contents, or
 * {@link #of(AugmentationResult)} (for example in an output guardrail or from {@code Result.sources()}).
 */
public final class PackedEvidence {
  private final String query;
  private final ContextPackage pack;
  private final List<PackedContent> contents;
  private final int grantTokens;
  private final int memoryTokens;

  PackedEvidence(String query, ContextPackage pack, Map<String, ContentCandidates.Origin> origins, int grantTokens, int memoryTokens) {
    this.query = Objects.requireNonNull(query, "query");
    this.pack = Objects.requireNonNull(pack, "pack");
    this.grantTokens = grantTokens;
    this.memoryTokens = memoryTokens;
    List<PackedContent> out = new ArrayList<>(pack.sources().size());
    for (Source s : pack.sources()) out.add(new PackedContent(s, origins, this));
    this.contents = List.copyOf(out);
  }

  /** The question the evidence was packed for (the user's message, not a transformed query). */
  public String query() {
    return query;
  }

  /** ctxpack's package: {@code prompt()}, {@code sources()}, {@code budget()}, {@code conflicts()}, {@code trace()}. */
  public ContextPackage pack() {
    return pack;
  }

  /** The prompt ctxpack rendered: the user message {@link CtxpackContentInjector} sends. */
  public String prompt() {
    return pack.prompt();
  }

  /** One content per source, in prompt order ({@code S1} first). */
  public List<Content> contents() {
    return List.copyOf(contents);
  }

  /** The same contents, typed. */
  public List<PackedContent> packedContents() {
    return contents;
  }

  /** Every decision the packer made, in order. */
  public List<Decision> trace() {
    return pack.trace();
  }

  /** The dedup decisions: what was merged, stitched or grouped into what (and what was kept apart). */
  public List<Decision> merged() {
    return pack.trace().stream().filter(d -> d.stage() == Stage.DEDUP).toList();
  }

  /** What selection, the exact count or compression dropped. */
  public List<Decision> dropped() {
    return pack.trace().stream().filter(d -> d.action() == Action.DROP).toList();
  }

  /** The tokens the rendered prompt was allowed. */
  public int grantTokens() {
    return grantTokens;
  }

  /** The tokens counted for the rest of the request (memory, system message, overheads); 0 when no window was set. */
  public int memoryTokens() {
    return memoryTokens;
  }

  /** The evidence of {@code contents} when they are the contents of one packing, in any order. */
  public static Optional<PackedEvidence> of(List<? extends Content> contents) {
    if (contents == null || contents.isEmpty()) return Optional.empty();
    PackedEvidence e = null;
    for (Content c : contents) {
      if (!(c instanceof PackedContent p)) return Optional.empty();
      if (e == null) e = p.evidence();
      else if (e != p.evidence()) return Optional.empty();
    }
    return Optional.ofNullable(e);
  }

  /** The evidence an augmentation was made with, when its contents come from {@link CtxpackContentAggregator}. */
  public static Optional<PackedEvidence> of(AugmentationResult result) {
    return result == null ? Optional.empty() : of(result.contents());
  }

  @Override
  public String toString() {
    return "PackedEvidence{query=" + query + ", sources=" + pack.sources().size() + ", used=" + pack.budget().used()
        + " of " + grantTokens + " tokens, memory=" + memoryTokens + "}";
  }
}
