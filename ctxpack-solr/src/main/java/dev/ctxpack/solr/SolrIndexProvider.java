package dev.ctxpack.solr;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexProvider;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.util.Set;
import org.apache.solr.client.solrj.impl.CloudSolrClient;

/**
 * The SolrCloud backend, found by {@link dev.ctxpack.index.Indexes} through {@code
 * META-INF/services}: specs {@code solr:http://HOST:PORT/solr/COLLECTION} and {@code
 * solr+zk://HOST:PORT[,HOST:PORT]/CHROOT/COLLECTION}. Opening a collection that does not exist
 * creates it with one shard and one replica; {@code ctxpack solr init} creates one of a chosen
 * layout ({@link SolrCollections#init}).
 */
public final class SolrIndexProvider implements IndexProvider {
  @Override
  public Set<String> schemes() {
    return Set.of(SolrLocation.HTTP_SCHEME, SolrLocation.ZK_SCHEME);
  }

  @Override
  public Index open(IndexSpec spec) throws IOException {
    return SolrIndex.open(spec, true, 1, 1);
  }

  @Override
  public Index openExisting(IndexSpec spec) throws IOException {
    return SolrIndex.open(spec, false, 1, 1);
  }

  @Override
  public boolean exists(IndexSpec spec) throws IOException {
    SolrLocation loc = SolrLocation.parse(spec);
    try (CloudSolrClient client = SolrIndex.connect(loc)) {
      return SolrAdmin.exists(client, loc.collection());
    }
  }
}
