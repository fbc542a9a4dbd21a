package dev.ctxpack.solr;

import dev.ctxpack.index.IndexSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.cloud.MiniSolrCloudCluster;

/**
 * One real SolrCloud for the module's tests: ZooKeeper and three Jetty nodes in this JVM, on
 * loopback, started on first use and stopped when the JVM exits. Each test makes collections of its
 * own ({@link #newSpec}), 2 shards of 2 replicas unless it asks otherwise.
 */
final class SolrTestCluster {
  static final int NODES = 3;
  private static MiniSolrCloudCluster cluster;
  private static final AtomicInteger collections = new AtomicInteger();

  private SolrTestCluster() {}

  static synchronized MiniSolrCloudCluster get() {
    if (cluster == null) {
      try {
        System.setProperty("solr.log.dir", Path.of("target", "solr-logs").toAbsolutePath().toString());
        System.setProperty("host", "127.0.0.1");
        Path dir = Files.createTempDirectory("ctxpack-solr-test");
        cluster = new MiniSolrCloudCluster.Builder(NODES, dir).build();
        MiniSolrCloudCluster c = cluster;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          try {
            c.shutdown();
          } catch (Exception e) {
            // the JVM is exiting
          }
        }));
      } catch (Exception e) {
        throw new IllegalStateException("could not start the test SolrCloud", e);
      }
    }
    return cluster;
  }

  /** The ZooKeeper spec of a collection name not used before in this JVM (the collection is not created). */
  static IndexSpec newSpec(String hint) {
    String name = hint.replaceAll("[^A-Za-z0-9_]", "_") + "_" + collections.incrementAndGet();
    return IndexSpec.parse("solr+zk://" + get().getZkServer().getZkAddress() + "/" + name);
  }
}
