package dev.ctxpack.bench.solr;

import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.eval.Evaluation;
import dev.ctxpack.eval.Judgments;
import dev.ctxpack.eval.Metric;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Language;
import dev.ctxpack.solr.SolrCollections;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.impl.CloudLegacySolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.util.ContentStreamBase;

/**
 * What distributed IDF changes, measured on Solr's own BM25 (edismax over the body fields, Solr's
 * analysis) over the same corpus in two collections of {@code shards} shards: one with ctxpack's
 * configset (collection-wide statistics, {@code ExactStatsCache}), one with the same configset but
 * {@code LocalStatsCache} (each shard scores with its own statistics, Solr's default). ctxpack's
 * own scoring needs neither: it asks for collection-wide statistics itself.
 */
final class NativeIdf {
  private NativeIdf() {}

  static List<SolrEval.Row> rows(String name, java.nio.file.Path corpus, Language language, String base, int shards,
      Map<String, String> queries, Map<String, Judgments> qrels, PrintStream log) throws IOException {
    List<SolrEval.Row> out = new ArrayList<>();
    for (boolean exact : List.of(true, false)) {
      String collection = "bench_idf_" + (exact ? "exact_" : "local_") + name;
      IndexSpec spec = IndexSpec.parse(base + "/" + collection);
      if (Indexes.exists(spec)) SolrCollections.delete(spec);
      try {
        if (exact) {
          SolrCollections.init(spec, shards, 1, 0);
        } else {
          createLocal(base, collection, shards);
        }
        try (Index idx = Indexes.openExisting(spec)) {
          log.println("[" + name + "] native BM25, " + (exact ? "collection-wide" : "per-shard") + " statistics: ingest ...");
          new Ingestor(idx, Loaders.defaults(), CtxpackPipeline.options(null, language, CtxpackPipeline.CHUNK_TOKENS), null)
              .ingest(List.of(corpus));
        }
        Map<String, List<String>> run = new LinkedHashMap<>();
        long[] nanos = new long[queries.size()];
        int i = 0;
        try (CloudSolrClient client = client(base)) {
          for (Map.Entry<String, String> q : queries.entrySet()) {
            long a = System.nanoTime();
            run.put(q.getKey(), rank(client, collection, q.getValue()));
            nanos[i++] = System.nanoTime() - a;
          }
        }
        double ndcg = Evaluation.evaluate(run, qrels, List.of(Metric.ndcg(10))).mean(Metric.ndcg(10));
        out.add(new SolrEval.Row(name, "Solr's own bm25 (edismax), " + (exact ? "collection-wide statistics" : "per-shard statistics"),
            "solr " + shards + "x1", ndcg, SolrEval.percentile(nanos, 50), SolrEval.percentile(nanos, 99), queries.size()));
        log.println("[" + name + "] " + out.get(out.size() - 1));
      } finally {
        if (Indexes.exists(spec)) SolrCollections.delete(spec);
      }
    }
    return out;
  }

  private static List<String> rank(CloudSolrClient client, String collection, String query) throws IOException {
    SolrQuery q = new SolrQuery(query);
    q.set("defType", "edismax");
    q.set("qf", "body_en body_pt body_und");
    q.set("tie", "1.0");
    q.set("q.op", "OR");
    q.addFilterQuery("type:chunk");
    q.setFields("docKey", "score");
    q.setRows(100);
    try {
      LinkedHashSet<String> docs = new LinkedHashSet<>();
      for (SolrDocument d : client.query(collection, q, SolrRequest.METHOD.POST).getResults()) docs.add(String.valueOf(d.getFirstValue("docKey")));
      return new ArrayList<>(docs);
    } catch (Exception e) {
      throw new IOException("native query on " + collection + ": " + e.getMessage(), e);
    }
  }

  private static CloudSolrClient client(String base) {
    // base: solr+zk://HOST:PORT/CHROOT
    String rest = base.substring("solr+zk://".length());
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String chroot = slash < 0 ? "" : rest.substring(slash);
    return new CloudLegacySolrClient.Builder(List.of(hosts.split(",")), chroot.isEmpty() ? Optional.empty() : Optional.of(chroot)).build();
  }

  /** ctxpack's configset with Solr's default per-shard statistics, and a collection of it. */
  private static void createLocal(String base, String collection, int shards) throws IOException {
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      for (String f : List.of("solrconfig.xml", "managed-schema.xml")) {
        try (InputStream in = SolrCollections.class.getResourceAsStream("configset/" + f)) {
          String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          if (f.equals("solrconfig.xml")) body = body.replace("org.apache.solr.search.stats.ExactStatsCache", "org.apache.solr.search.stats.LocalStatsCache");
          z.putNextEntry(new ZipEntry(f));
          z.write(body.getBytes(StandardCharsets.UTF_8));
          z.closeEntry();
        }
      }
    }
    try (CloudSolrClient client = client(base)) {
      String config = "ctxpack." + collection;
      if (!new ConfigSetAdminRequest.List().process(client).getConfigSets().contains(config)) {
        new ConfigSetAdminRequest.Upload().setConfigSetName(config)
            .setUploadStream(new ContentStreamBase.ByteArrayStream(zip.toByteArray(), config + ".zip", "application/zip")).process(client);
      }
      CollectionAdminRequest.Create create = CollectionAdminRequest.createCollection(collection, config, shards, 1);
      create.setWaitForFinalState(true);
      create.process(client);
    } catch (Exception e) {
      throw new IOException("could not create " + collection + ": " + e.getMessage(), e);
    }
  }
}
