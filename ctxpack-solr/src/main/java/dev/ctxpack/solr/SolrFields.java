package dev.ctxpack.solr;

/**
 * Field names and values of ctxpack's Solr schema ({@code configset/managed-schema.xml}). Each
 * ctxpack document is flat Solr documents sharing {@link #DOC_KEY}: a record, one per chunk, one
 * per vector window, one per recorded exact duplicate; their ids start with the routed document
 * key ({@code KEY!...}), so all of them live on one shard.
 */
final class SolrFields {
  /** The schema's name: ctxpack's schema version, checked when a collection is opened. */
  static final String SCHEMA_NAME = "ctxpack-2";

  static final String ID = "id";
  static final String TYPE = "type";
  static final String TYPE_DOC = "doc";
  static final String TYPE_CHUNK = "chunk";
  static final String TYPE_VECTOR = "vector";
  static final String TYPE_DUP = "dup";
  static final String TYPE_META = "meta";
  static final String DOC_KEY = "docKey";
  static final String CHUNK_ID = "chunkId";
  static final String URI = "uri";
  static final String TITLE = "title";
  static final String LANGUAGE = "language";
  /** The document's metadata: one value per entry, {@code LEN:KEYVALUE} with LEN the key's length. */
  static final String META = "meta";
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
  /** A chunk's searchable length in terms of its body field: what BM25's length norm reads. */
  static final String LENGTH = "len";
  /** That length as Lucene's norm encodes it, at least 1; absent from a chunk without terms. */
  static final String NORM_LENGTH = "normLen";
  static final String ACL = "acl";
  static final String SENTENCE_VECTORS = "sentVecs";
  static final String BANDS = "lshBand";
  static final String SIGNATURE = "minhash";
  static final String NEAR_DUP_OF = "nearDupOf";
  static final String NEAR_SIM = "nearSim";
  static final String FILE_TIME = "fileTime";
  static final String CHUNK_KEYS = "chunkKeys";
  static final String CHUNK_KEY = "chunkKey";
  static final String DUP_PATH = "dupPath";
  static final String DUP_ID = "dupId";
  static final String EMBEDDER = "embedder";
  static final String DIMENSION = "dimension";
  /** The vector field, added with the embedder's dimension when the first vectors are written. */
  static final String VECTOR = "vec";
  /** The id of the record of the collection's embedder when it was kept once, not per shard (read, no longer written). */
  static final String META_ID = "_ctxpack!meta";
  /** The route prefix of the record's copies, one per shard ({@code _ctxpack.N!meta}); {@link #META_ID} is the copy of collections written before. */
  static final String META_PREFIX = "_ctxpack.";

  private SolrFields() {}

  /**
   * The routing prefix of document {@code docKey}'s Solr ids: the key with {@code !} and {@code %}
   * escaped, so Solr's compositeId router reads the whole key as the route and nothing more.
   */
  static String route(String docKey) {
    return docKey.replace("%", "%25").replace("!", "%21") + "!";
  }
}
