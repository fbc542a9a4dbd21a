package dev.ctxpack.solr;

import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;

/**
 * Creating ctxpack's collections ({@code ctxpack solr init}): the configset this module ships, a
 * layout of shards and replicas, and the vector field for an embedder's dimension when it is known
 * in advance (otherwise the first vectors written add it).
 */
public final class SolrCollections {
  private SolrCollections() {}

  /** What {@link #init} found or did. */
  public record Init(String spec, boolean created, int shards, int replicas, int dimension) {}

  /**
   * Creates the collection {@code spec} names with {@code shards} shards of {@code replicas}
   * replicas and ctxpack's configset, and the vector field of {@code dimension} dimensions when
   * {@code dimension > 0}. A collection that already exists with ctxpack's schema (and, if {@code
   * dimension > 0}, a vector field of that dimension or none yet) is left as it is ({@code created}
   * false); one with another schema or dimension is refused with an {@link IOException} naming it.
   */
  public static Init init(IndexSpec spec, int shards, int replicas, int dimension) throws IOException {
    if (shards < 1 || replicas < 1) {
      throw new IllegalArgumentException("--shards and --replicas must be >= 1, were " + shards + " and " + replicas);
    }
    if (dimension < 0) throw new IllegalArgumentException("--dimension must be >= 0, was " + dimension);
    SolrLocation loc = SolrLocation.parse(spec);
    try (CloudSolrClient client = SolrIndex.connect(loc)) {
      boolean created = false;
      if (!SolrAdmin.exists(client, loc.collection())) {
        SolrAdmin.create(client, loc.collection(), shards, replicas);
        created = true;
      }
      SolrAdmin.checkSchema(client, loc.collection(), loc.spec());
      int have = SolrAdmin.vectorDimension(client, loc.collection());
      if (dimension > 0 && have == 0) {
        SolrAdmin.addVectorField(client, loc.collection(), dimension);
        have = dimension;
      } else if (dimension > 0 && have != dimension) {
        throw new IOException("index " + loc.spec() + ": collection " + loc.collection() + " holds vectors of " + have
            + " dimensions, not " + dimension + ": use the same embedder, or another collection");
      }
      var state = client.getClusterState().getCollection(loc.collection());
      int nShards = state.getSlices().size();
      int nReplicas = state.getSlices().iterator().next().getReplicas().size();
      return new Init(loc.spec(), created, nShards, nReplicas, have);
    }
  }

  /** Deletes the collection {@code spec} names and its configset (tests, and a user starting over). */
  public static void delete(IndexSpec spec) throws IOException {
    SolrLocation loc = SolrLocation.parse(spec);
    try (CloudSolrClient client = SolrIndex.connect(loc)) {
      SolrAdmin.delete(client, loc.collection());
    }
  }
}
