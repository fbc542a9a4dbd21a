package dev.ctxpack.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.model.Candidate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.HttpSolrClient;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node of the 3-node cluster stops under load and comes back, with a 2 × 2 collection: queries
 * are still answered (from the other replica of each shard), none wrongly; an ingest goes on, and
 * no acknowledged document is lost or written twice. The counts printed ({@code solr-fault:})
 * are the figures docs/BENCHMARKS.md quotes.
 */
class SolrFaultTest {
  private static final List<String> QUERIES = List.of("salary review", "engineer handbook budget", "garden bird morning",
      "stock market announcement", "remote office contract", "avaliação do curso", "renovação de matrícula prazo",
      "bolsa estudante", "clima do cerrado no inverno", "vendor invoice holiday");

  @TempDir Path dir;

  /** The node holding the leader of the collection's first shard (stopping it forces an election). */
  private static JettySolrRunner leaderNode(MiniSolrCloudCluster cluster, String collection) {
    DocCollection state = cluster.getSolrClient().getClusterState().getCollection(collection);
    Slice first = state.getSlices().stream().sorted(java.util.Comparator.comparing(Slice::getName)).findFirst().orElseThrow();
    String node = first.getLeader().getNodeName();
    return cluster.getJettySolrRunners().stream().filter(j -> j.getNodeName().equals(node)).findFirst().orElseThrow();
  }

  private static void restart(MiniSolrCloudCluster cluster, JettySolrRunner node, String collection) throws Exception {
    if (!node.isRunning()) cluster.startJettySolrRunner(node, true);
    cluster.waitForNode(node, 60);
    cluster.waitForActiveCollection(collection, 60, TimeUnit.SECONDS);
  }

  /**
   * The first answer to {@code query} after a restart: the index's own client learns that the node is
   * live again from ZooKeeper a moment after the cluster's does, so a query may still find no live
   * server for a short while (at most 30 s here).
   */
  private static List<Candidate> answeredAgain(dev.ctxpack.index.SearchableIndex index, String query) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return index.searchSparse(query, 10);
      } catch (IOException e) {
        if (System.nanoTime() > deadline) throw e;
        Thread.sleep(200);
      }
    }
  }

  private static String answer(List<Candidate> hits) {
    StringBuilder b = new StringBuilder();
    for (Candidate c : hits) b.append(c.chunk().id()).append('=').append(String.format(java.util.Locale.ROOT, "%.5f", c.score())).append(' ');
    return b.toString();
  }

  @Test
  void everyQueryIsAnsweredRightFromTheReplicasWhileANodeIsDown() throws Exception {
    MiniSolrCloudCluster cluster = SolrTestCluster.get();
    IndexSpec spec = SolrTestCluster.newSpec("outage");
    SolrCollections.init(spec, 2, 2, 0);
    String collection = SolrLocation.parse(spec).collection();
    JettySolrRunner down = null;
    try (Index index = Indexes.openExisting(spec)) {
      index.write(SolrScoringTest.corpus(new Random(3), 150), List.of());
      Map<String, String> expected = new HashMap<>();
      for (String q : QUERIES) expected.put(q, answer(index.searchSparse(q, 10)));
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicBoolean outage = new AtomicBoolean(false);
      AtomicInteger answered = new AtomicInteger();
      AtomicInteger duringOutage = new AtomicInteger();
      ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<String> failed = new ConcurrentLinkedQueue<>();
      Thread load = new Thread(() -> {
        for (int i = 0; running.get(); i++) {
          String q = QUERIES.get(i % QUERIES.size());
          boolean out = outage.get();
          try {
            String got = answer(index.searchSparse(q, 10));
            answered.incrementAndGet();
            if (out && outage.get()) duringOutage.incrementAndGet();
            if (!got.equals(expected.get(q))) wrong.add(q + ": " + got);
          } catch (IOException | RuntimeException e) {
            failed.add(q + ": " + e);
          }
        }
      });
      load.start();
      Thread.sleep(500);
      down = leaderNode(cluster, collection);
      cluster.stopJettySolrRunner(down);
      cluster.waitForJettyToStop(down);
      outage.set(true);
      Thread.sleep(4_000);
      outage.set(false);
      restart(cluster, down, collection);
      down = null;
      Thread.sleep(500);
      running.set(false);
      load.join();
      System.out.println("solr-fault: queries answered " + answered.get() + ", during the outage " + duringOutage.get()
          + ", wrong " + wrong.size() + ", failed " + failed.size());
      assertThat(failed).isEmpty();
      assertThat(wrong).isEmpty();
      assertThat(duringOutage.get()).isGreaterThan(0);
    } finally {
      if (down != null) restart(cluster, down, collection);
      SolrCollections.delete(spec);
    }
  }

  @Test
  void anIngestThroughANodeOutageLosesNothingAndWritesNothingTwice() throws Exception {
    MiniSolrCloudCluster cluster = SolrTestCluster.get();
    IndexSpec spec = SolrTestCluster.newSpec("ingest_outage");
    SolrCollections.init(spec, 2, 2, 0);
    String collection = SolrLocation.parse(spec).collection();
    List<IndexEntry> all = SolrScoringTest.corpus(new Random(5), 200);
    JettySolrRunner down = null;
    int retried = 0;
    try (Index index = Indexes.openExisting(spec); Index embedded = Indexes.open(IndexSpec.ofPath(dir.resolve("embedded")))) {
      for (int b = 0; b < 10; b++) {
        if (b == 3) {
          down = leaderNode(cluster, collection);
          cluster.stopJettySolrRunner(down);
          cluster.waitForJettyToStop(down);
        }
        if (b == 7) {
          restart(cluster, down, collection);
          down = null;
        }
        List<IndexEntry> batch = all.subList(20 * b, 20 * b + 20);
        retried += writeAcknowledged(index, batch);
        embedded.write(batch, List.of());
      }
      cluster.waitForActiveCollection(collection, 60, TimeUnit.SECONDS);
      waitForReplicasToAgree(cluster, collection);
      System.out.println("solr-fault: ingest of 10 batches through an outage, batches retried " + retried);
      assertThat(index.stats()).isEqualTo(embedded.stats());
      List<String> ids = index.corpusDocuments().stream().map(d -> d.id()).toList();
      assertThat(ids).doesNotHaveDuplicates().hasSize(200);
      assertThat(new TreeSet<>(ids)).isEqualTo(new TreeSet<>(all.stream().map(e -> e.doc().id()).toList()));
      // Every replica of every shard holds the same documents: the restarted one recovered them all.
      DocCollection state = cluster.getSolrClient().getClusterState().getCollection(collection);
      long total = 0;
      for (Slice s : state.getSlices()) {
        List<Long> counts = new ArrayList<>();
        for (Replica r : s.getReplicas()) counts.add(count(r));
        assertThat(counts).as("replicas of %s", s.getName()).hasSize(2).containsOnly(counts.get(0));
        total += counts.get(0);
      }
      assertThat(total).isEqualTo(index.stats().documents() + index.stats().chunks() + index.stats().vectors()
          + state.getSlices().size()); // and the collection's record, one copy per shard
    } finally {
      if (down != null) restart(cluster, down, collection);
      SolrCollections.delete(spec);
    }
  }

  @Test
  void aShardWithNoLiveReplicaFailsTheQueryRatherThanAnswerFromPartOfTheCorpus() throws Exception {
    MiniSolrCloudCluster cluster = SolrTestCluster.get();
    IndexSpec spec = SolrTestCluster.newSpec("no_replica");
    SolrCollections.init(spec, 2, 1, 0);
    String collection = SolrLocation.parse(spec).collection();
    JettySolrRunner down = null;
    try (Index index = Indexes.openExisting(spec)) {
      index.write(SolrScoringTest.corpus(new Random(9), 40), List.of());
      assertThat(index.searchSparse("salary review", 10)).isNotEmpty();
      down = leaderNode(cluster, collection);
      cluster.stopJettySolrRunner(down);
      cluster.waitForJettyToStop(down);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> index.searchSparse("salary review", 10))
          .isInstanceOf(IOException.class).hasMessageContaining("Solr could not search " + collection);
      restart(cluster, down, collection);
      down = null;
      assertThat(answeredAgain(index, "salary review")).isNotEmpty();
    } finally {
      if (down != null) restart(cluster, down, collection);
      SolrCollections.delete(spec);
    }
  }

  @Test
  void aToleratingSpecAnswersFromTheLiveShardsAndNamesTheMissingOneNeverSilently() throws Exception {
    MiniSolrCloudCluster cluster = SolrTestCluster.get();
    IndexSpec strict = SolrTestCluster.newSpec("tolerant");
    IndexSpec spec = IndexSpec.parse(strict + "?shards.tolerant=true");
    SolrCollections.init(spec, 2, 1, 0);
    String collection = SolrLocation.parse(spec).collection();
    JettySolrRunner down = null;
    try (Index index = Indexes.openExisting(spec); Index failing = Indexes.openExisting(strict)) {
      List<IndexEntry> corpus = SolrScoringTest.corpus(new Random(11), 60);
      index.write(corpus, List.of());
      down = leaderNode(cluster, collection);
      String downNode = down.getNodeName();
      // What each shard holds, and which shards the stopped node takes with it (it may hold both).
      DocCollection state = cluster.getSolrClient().getClusterState().getCollection(collection);
      List<String> missing = new ArrayList<>();
      TreeSet<String> liveChunks = new TreeSet<>();
      for (Slice s : state.getSlices()) {
        boolean lost = s.getReplicas().stream().allMatch(r -> r.getNodeName().equals(downNode));
        if (lost) missing.add(s.getName());
        else liveChunks.addAll(chunkIds(cluster, collection, s.getName()));
      }
      java.util.Collections.sort(missing);
      cluster.stopJettySolrRunner(down);
      cluster.waitForJettyToStop(down);

      for (String q : QUERIES) {
        dev.ctxpack.index.ReadCoverage coverage = new dev.ctxpack.index.ReadCoverage();
        List<Candidate> hits = index.reportingTo(coverage).searchSparse(q, 10);
        assertThat(coverage.missingShards()).as(q).isEqualTo(missing);
        assertThat(hits).allSatisfy(c -> assertThat(liveChunks).contains(c.chunk().id()));
      }
      // Through the retriever the trace says it, naming the shards.
      dev.ctxpack.model.Trace trace = new dev.ctxpack.model.Trace();
      List<Candidate> retrieved = new dev.ctxpack.retrieve.HybridRetriever(index, null)
          .retrieve("salary review", dev.ctxpack.retrieve.RetrievalOptions.of(dev.ctxpack.retrieve.RetrievalMode.BM25, 10), trace);
      assertThat(dev.ctxpack.index.ReadCoverage.missingShards(trace.decisions())).isEqualTo(missing);
      if (!liveChunks.isEmpty()) {
        assertThat(retrieved).isNotEmpty();
        // The retrieved chunks' own reads answer from the shards that hold them.
        assertThat(index.sentenceVectors(retrieved.stream().map(c -> c.chunk().id()).toList())).isNotNull();
        assertThat(index.document(retrieved.get(0).doc().id())).isPresent();
      }
      // Without a coverage to report to, or without the option, a partial cluster is an error, never a silent answer.
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> index.searchSparse("salary review", 10))
          .isInstanceOf(IOException.class).hasMessageContaining("Solr could not search " + collection);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> failing.reportingTo(new dev.ctxpack.index.ReadCoverage())
          .searchSparse("salary review", 10)).isInstanceOf(IOException.class);
      org.assertj.core.api.Assertions.assertThatThrownBy(index::corpusDocuments).isInstanceOf(IOException.class);
      // What sets a request up (vectors? of which embedder?) answers from the live shards.
      assertThat(index.stats().documents()).isLessThan(corpus.size());
      System.out.println("solr-fault: tolerant searches with " + missing + " down answered from the live shard, "
          + QUERIES.size() + " of " + QUERIES.size() + " naming the missing shards");

      restart(cluster, down, collection);
      down = null;
      answeredAgain(index, "salary review");
      dev.ctxpack.index.ReadCoverage whole = new dev.ctxpack.index.ReadCoverage();
      assertThat(index.reportingTo(whole).searchSparse("salary review", 10)).isEqualTo(index.searchSparse("salary review", 10));
      assertThat(whole.partial()).isFalse();
    } finally {
      if (down != null) restart(cluster, down, collection);
      SolrCollections.delete(spec);
    }
  }

  /** The chunk ids shard {@code shard} of {@code collection} holds, asked of that shard alone. */
  private static List<String> chunkIds(MiniSolrCloudCluster cluster, String collection, String shard) throws Exception {
    SolrQuery q = new SolrQuery("*:*").addFilterQuery("{!term f=" + SolrFields.TYPE + "}" + SolrFields.TYPE_CHUNK)
        .setFields(SolrFields.CHUNK_ID).setRows(10_000);
    q.set("shards", shard);
    List<String> out = new ArrayList<>();
    for (var d : cluster.getSolrClient().query(collection, q).getResults()) out.add((String) d.getFieldValue(SolrFields.CHUNK_ID));
    return out;
  }

  /** Writes {@code batch} until a commit is acknowledged (as a re-run ingest would); returns the retries it took. */
  private static int writeAcknowledged(WritableIndex index, List<IndexEntry> batch) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int attempt = 0; ; attempt++) {
      try {
        index.write(batch, List.of());
        return attempt;
      } catch (IOException e) {
        if (System.nanoTime() > until) throw e;
        Thread.sleep(500);
      }
    }
  }

  private static long count(Replica r) throws Exception {
    try (HttpSolrClient c = new HttpSolrClient.Builder(r.getCoreUrl()).build()) {
      return c.query(new SolrQuery("*:*").setRows(0).setParam("distrib", "false")).getResults().getNumFound();
    }
  }

  private static void waitForReplicasToAgree(MiniSolrCloudCluster cluster, String collection) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until) {
      boolean agree = true;
      for (Slice s : cluster.getSolrClient().getClusterState().getCollection(collection).getSlices()) {
        List<Long> counts = new ArrayList<>();
        for (Replica r : s.getReplicas()) counts.add(count(r));
        agree &= counts.stream().distinct().count() == 1;
      }
      if (agree) return;
      Thread.sleep(500);
    }
  }
}
