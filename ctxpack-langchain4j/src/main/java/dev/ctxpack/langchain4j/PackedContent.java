package dev.ctxpack.langchain4j;

import dev.ctxpack.model.Source;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One source of a ctxpack package as a LangChain4j {@link Content}: its text is the source's verbatim
 * (stitched, merged, compressed) text; its segment metadata is the leading original segment's, plus
 * {@link CtxpackMetadata#LABEL}, {@link CtxpackMetadata#CHUNKS} and {@link CtxpackMetadata#DOC_IDS}
 * (the offsets of the original segment are left out: the text is no longer that segment's; {@link
 * #source()} has every piece with its offsets). {@link #origins()} are the contents merged into it:
 * a chunk two retrievers returned with different metadata is one packed content with two origins.
 */
public final class PackedContent implements Content {
  private final Source source;
  private final TextSegment segment;
  private final Map<ContentMetadata, Object> metadata;
  private final List<Content> origins;
  private final PackedEvidence evidence;

  PackedContent(Source source, Map<String, ContentCandidates.Origin> byId, PackedEvidence evidence) {
    this.source = Objects.requireNonNull(source, "source");
    this.evidence = evidence;
    Set<String> chunks = new LinkedHashSet<>();
    Set<String> docs = new LinkedHashSet<>();
    List<Content> from = new ArrayList<>();
    for (Source.DocSpan s : source.spans()) {
      chunks.add(s.chunkId());
      ContentCandidates.Origin o = byId.get(s.chunkId());
      if (o != null && !from.contains(o.content())) from.add(o.content());
      docs.add(o != null && o.docKey() != null ? o.docKey() : s.docId());
    }
    this.origins = List.copyOf(from);
    Metadata md = from.isEmpty() || from.get(0).textSegment().metadata() == null ? new Metadata()
        : from.get(0).textSegment().metadata().copy();
    md.remove(CtxpackMetadata.START);
    md.remove(CtxpackMetadata.END);
    md.put(CtxpackMetadata.LABEL, source.label());
    md.put(CtxpackMetadata.CHUNKS, String.join(",", chunks));
    md.put(CtxpackMetadata.DOC_IDS, String.join(",", docs));
    if (!source.title().isBlank()) md.put(CtxpackMetadata.TITLE, source.title());
    if (!source.uri().isBlank()) md.put(CtxpackMetadata.URI, source.uri());
    this.segment = TextSegment.from(source.text(), md);
    Map<ContentMetadata, Object> m = new EnumMap<>(ContentMetadata.class);
    if (!from.isEmpty() && from.get(0).metadata() != null) m.putAll(from.get(0).metadata());
    this.metadata = Collections.unmodifiableMap(m);
  }

  /** The source's text with its metadata. */
  @Override
  public TextSegment textSegment() {
    return segment;
  }

  /** The leading original content's {@link ContentMetadata} (score, embedding id). */
  @Override
  public Map<ContentMetadata, Object> metadata() {
    return metadata;
  }

  /** Its label in the prompt: {@code S1}, {@code S2}... */
  public String label() {
    return source.label();
  }

  /** ctxpack's source: label, spans of every merged copy, verbatim pieces, what compression cut, the guard's report. */
  public Source source() {
    return source;
  }

  /** The original contents merged, stitched or grouped into this one, the leading one first. */
  public List<Content> origins() {
    return origins;
  }

  /** The packing this content belongs to. */
  public PackedEvidence evidence() {
    return evidence;
  }

  /** Equal when the segments and metadata are (as LangChain4j's contents are). */
  @Override
  public boolean equals(Object o) {
    return o instanceof PackedContent p && segment.equals(p.segment) && metadata.equals(p.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(segment, metadata);
  }

  @Override
  public String toString() {
    return "PackedContent{label=" + source.label() + ", origins=" + origins.size() + ", textSegment=" + segment + "}";
  }
}
