package dev.ctxpack.solr;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexContract;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link SolrIndex} keeps the index contract on a real SolrCloud ({@link SolrTestCluster}): each
 * index a collection of 2 shards × 2 replicas made by {@link SolrCollections#init}, opened and
 * opened again by spec through {@link Indexes}, as the CLI opens it.
 */
class SolrIndexContractTest extends IndexContract {
  private final Map<String, IndexSpec> specs = new HashMap<>();

  @Override
  protected Index create(String name) throws IOException {
    IndexSpec spec = SolrTestCluster.newSpec(name);
    SolrCollections.init(spec, 2, 2, 0);
    specs.put(name, spec);
    return Indexes.openExisting(spec);
  }

  @Override
  protected Index reopen(String name) throws IOException {
    return Indexes.openExisting(specs.get(name));
  }

  @AfterEach
  void deleteCollections() throws IOException {
    for (IndexSpec spec : specs.values()) SolrCollections.delete(spec);
  }
}
