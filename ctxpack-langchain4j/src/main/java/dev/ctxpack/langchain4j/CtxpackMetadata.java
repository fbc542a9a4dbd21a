package dev.ctxpack.langchain4j;

import java.util.List;

/**
 * The {@link dev.langchain4j.data.segment.TextSegment} metadata keys this adapter writes and reads.
 *
 * <p>{@link CtxpackContentRetriever} writes the {@code ctxpack.*} keys on every segment it returns;
 * {@link CtxpackContentAggregator} reads them to stitch overlapping windows of one document at their
 * real offsets. For segments from other retrievers it also reads common keys: a document id from
 * {@link #DOC_ID_KEYS} and an offset from {@link #START_KEYS}; LangChain4j's splitters write {@code
 * index} (the segment's position), which names the chunk and orders segments when offsets are
 * inferred from overlapping text. The packed contents the aggregator returns carry {@link #LABEL},
 * {@link #CHUNKS} and {@link #DOC_IDS} besides the keys of their leading segment.
 */
public final class CtxpackMetadata {
  private CtxpackMetadata() {}

  /** The chunk's id in the ctxpack index ({@code docId#n}). */
  public static final String CHUNK_ID = "ctxpack.chunkId";
  /** The id of the document the chunk belongs to. */
  public static final String DOC_ID = "ctxpack.docId";
  /** The chunk's start offset (chars) in its document. */
  public static final String START = "ctxpack.start";
  /** The chunk's end offset (chars, exclusive) in its document. */
  public static final String END = "ctxpack.end";
  /** The document's title. */
  public static final String TITLE = "ctxpack.title";
  /** The document's URI. */
  public static final String URI = "ctxpack.uri";
  /** The chunk's language code ({@code en}, {@code pt}, {@code unknown}). */
  public static final String LANGUAGE = "ctxpack.language";
  /** The retrieval score (higher is better). */
  public static final String SCORE = "ctxpack.score";
  /** A packed content's label in the prompt ({@code S1}, {@code S2}...). */
  public static final String LABEL = "ctxpack.label";
  /** A packed content's merged chunk ids, comma-separated, the leading one first. */
  public static final String CHUNKS = "ctxpack.chunks";
  /** A packed content's documents, comma-separated, the leading one first. */
  public static final String DOC_IDS = "ctxpack.docIds";

  /** Keys read, in order, for a segment's document id. */
  public static final List<String> DOC_ID_KEYS = List.of(DOC_ID, "document_id", "doc_id", "docId", "file_name", "url");
  /** Keys read, in order, for a segment's start offset in its document. */
  public static final List<String> START_KEYS = List.of(START, "start_offset", "start_index", "start");
  /** Keys read, in order, for a segment's chunk id. */
  public static final List<String> CHUNK_ID_KEYS = List.of(CHUNK_ID, "chunk_id", "id");
  /** The key LangChain4j's document splitters write: the segment's position in its document. */
  public static final String INDEX = "index";
  /** Keys read, in order, for a document's title. */
  public static final List<String> TITLE_KEYS = List.of(TITLE, "title", "file_name");
  /** Keys read, in order, for a document's URI. */
  public static final List<String> URI_KEYS = List.of(URI, "url", "uri", "source");
}
