package dev.ctxpack.lucene;

/**
 * Field names of the Lucene schema. Each document is one block: a record, one Lucene document per
 * chunk (with its sentence vectors, if any, in one stored field), and one per vector window
 * (pointing at its chunk by id).
 */
final class Fields {
  static final String TYPE = "type";
  static final String TYPE_DOC = "doc";
  static final String TYPE_CHUNK = "chunk";
  static final String TYPE_VECTOR = "vector";
  /** The owning document id, on the record and on every chunk: the unit of atomic replacement. */
  static final String DOC_KEY = "docKey";
  static final String CHUNK_ID = "chunkId";
  static final String URI = "uri";
  static final String TITLE = "title";
  static final String LANGUAGE = "language";
  static final String META_PREFIX = "meta.";
  static final String SOURCE_PATH = "sourcePath";
  static final String CONTENT_HASH = "contentHash";
  static final String TEXT = "text";
  static final String CHUNK_COUNT = "chunkCount";
  static final String START = "start";
  static final String END = "end";
  static final String SECTION = "section";
  static final String PAGE = "page";
  static final String TOKENS = "tokens";
  static final String ORDINAL = "ordinal";
  static final String VECTOR = "vec";
  static final String HAS_VECTOR = "hasVec";
  /**
   * A window's chunk id as doc values, so dense search maps its hits to chunks without reading stored
   * fields. Written since ctxpack 0.1 with this field; a window without it (an older index) is read
   * by its stored {@link #CHUNK_ID}.
   */
  static final String WINDOW_CHUNK = "windowChunk";
  /**
   * On a chunk: its sentence vectors, stored only (not indexed, not searched), quantised in one
   * binary value ({@link SentenceVectorCodec}). Absent from chunks without them and in indexes
   * written before they existed.
   */
  static final String SENTENCE_VECTORS = "sentVecs";

  /**
   * Corpus-level duplicates (ctxpack 0.1), absent from documents written before. On the record: the
   * MinHash signature (stored, 4 bytes per position), its LSH band keys (indexed, one term each),
   * the near-duplicate mark and its similarity (stored, also on every chunk), the source file's
   * time, and the normalised keys of its chunks (indexed, distinct: their document frequency is the
   * number of documents holding that chunk text). On each chunk: its own key (indexed and stored).
   */
  static final String SIGNATURE = "minhash";
  static final String BANDS = "lshBand";
  static final String NEAR_DUP_OF = "nearDupOf";
  static final String NEAR_SIM = "nearSim";
  static final String FILE_TIME = "fileTime";
  static final String CHUNK_KEYS = "chunkKeys";
  static final String CHUNK_KEY = "chunkKey";
  /** A record of an exact duplicate file that was not indexed; its {@link #DOC_KEY} is the original's id. */
  static final String TYPE_DUP = "dup";
  static final String DUP_KEY = "dupKey";
  static final String DUP_PATH = "dupPath";
  static final String DUP_ID = "dupId";

  /**
   * Access labels (ctxpack 0.1), indexed on the record, every chunk and every vector window of a
   * document: one term per label, or {@link Acl#UNLABELLED}. Absent from documents written before.
   */
  static final String ACL = "acl";

  /** Commit user data keys. */
  static final String COMMIT_EMBEDDER = "ctxpack.embedder";
  static final String COMMIT_DIMENSION = "ctxpack.dimension";
  static final String COMMIT_SCHEMA = "ctxpack.schema";
  static final String SCHEMA_VERSION = "2";

  private Fields() {}
}
