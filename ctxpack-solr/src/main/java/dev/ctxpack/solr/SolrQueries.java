package dev.ctxpack.solr;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.ReadCoverage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.CursorMarkParams;
import org.apache.solr.common.params.ShardParams;

/**
 * Queries of one collection, as one reader sees it: every filter is a term or terms query whose
 * values travel as separate parameters ({@code v=$p3}), so no value is ever parsed as query syntax.
 * The reader's {@link Access} is a filter on every query.
 *
 * <p>When the collection's spec tolerates a shard with no live replica ({@link SolrLocation#tolerant})
 * and the reader reports to a {@link ReadCoverage}, every query asks Solr for {@code
 * shards.tolerant} and a partial answer names the shards it lacked there; a query {@link
 * Builder#tolerating marked} tolerates too, without a report: reads by id of the chunks a search
 * returned (they live on the shards that answered it), the collection's record and its counts. Any
 * other query of a partial cluster fails: listings of the corpus, the reads of an ingest.
 */
final class SolrQueries {
  /** Separates the values of a terms filter: a control character no id, key or label holds. */
  private static final String SEPARATOR = "\u0001";
  static final int PAGE = 1000;

  private final CloudSolrClient client;
  private final String collection;
  private final Access access;
  private final boolean tolerant;
  /** Where partial answers are reported; null: the reader does not report, and only marked queries tolerate. */
  private final ReadCoverage coverage;

  SolrQueries(CloudSolrClient client, String collection, Access access) {
    this(client, collection, access, false, null);
  }

  SolrQueries(CloudSolrClient client, String collection, Access access, boolean tolerant, ReadCoverage coverage) {
    this.client = client;
    this.collection = collection;
    this.access = access;
    this.tolerant = tolerant;
    this.coverage = coverage;
  }

  ReadCoverage coverage() {
    return coverage;
  }

  /**
   * The shards of the collection with no active replica on a live node, by name; Solr's own name for
   * a shard it could not reach ({@code unknown_shard}) when the cluster state names none yet.
   */
  private List<String> downShards() {
    org.apache.solr.common.cloud.ClusterState state = client.getClusterState();
    java.util.Set<String> live = state.getLiveNodes();
    List<String> down = new ArrayList<>();
    for (org.apache.solr.common.cloud.Slice s : state.getCollection(collection).getSlices()) {
      if (s.getReplicas().stream().noneMatch(r -> r.isActive(live))) down.add(s.getName());
    }
    return down.isEmpty() ? List.of("unknown_shard") : down;
  }

  Access access() {
    return access;
  }

  /** Threads for the requests a search sends side by side (daemons: they never hold the JVM open). */
  private static final java.util.concurrent.ExecutorService REQUESTS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "ctxpack-solr-request");
    t.setDaemon(true);
    return t;
  });

  interface Call<T> {
    T call() throws IOException;
  }

  /** Runs {@code c} beside the caller. */
  static <T> java.util.concurrent.CompletableFuture<T> async(Call<T> c) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return c.call();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, REQUESTS);
  }

  /** The result of {@link #async}, its failure rethrown as it was. */
  static <T> T join(java.util.concurrent.CompletableFuture<T> f) throws IOException {
    try {
      return f.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof java.io.UncheckedIOException u) throw u.getCause();
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw e;
    }
  }

  /** A query of the documents of {@code type} this reader may read, returning {@code fields}. */
  Builder of(String type, String... fields) {
    Builder b = ofAnyType();
    b.term(SolrFields.TYPE, type);
    if (fields.length > 0) b.q.setFields(fields);
    return b;
  }

  /** A query of every document this reader may read, whatever its type. */
  Builder ofAnyType() {
    Builder b = new Builder();
    if (!access.everything()) {
      List<String> values = new ArrayList<>(access.labels().size() + 1);
      values.add(SolrDocs.UNLABELLED);
      values.addAll(access.labels());
      b.terms(SolrFields.ACL, values);
    }
    return b;
  }

  final class Builder {
    final SolrQuery q = new SolrQuery("*:*");
    private int params;
    private boolean tolerate;

    /** Marks this query as one that answers from the shards that answer, with a tolerating spec, unreported. */
    Builder tolerating() {
      tolerate = true;
      return this;
    }

    Builder term(String field, String value) {
      q.addFilterQuery("{!term f=" + field + " v=$" + param(value) + "}");
      return this;
    }

    Builder terms(String field, Collection<String> values) {
      q.addFilterQuery("{!terms f=" + field + " separator=$" + param(SEPARATOR) + " v=$" + param(String.join(SEPARATOR, values)) + "}");
      return this;
    }

    Builder prefix(String field, String value) {
      q.addFilterQuery("{!prefix f=" + field + " v=$" + param(value) + "}");
      return this;
    }

    /** A parameter holding {@code value}, by name, for a {@code $name} reference. */
    String param(String value) {
      String name = "p" + params++;
      q.set(name, value);
      return name;
    }

    long count() throws IOException {
      q.setRows(0);
      return run().getResults().getNumFound();
    }

    QueryResponse run() throws IOException {
      boolean report = tolerant && coverage != null;
      if (report || tolerant && tolerate) q.set(ShardParams.SHARDS_TOLERANT, true);
      QueryResponse r = SolrAdmin.call(() -> client.query(collection, q, SolrRequest.METHOD.POST), "search " + collection);
      if (report && Boolean.TRUE.equals(r.getResponseHeader().get("partialResults"))) coverage.missing(downShards());
      return r;
    }

    /** Every match, in {@link SolrFields#ID} order, a page at a time. */
    List<SolrDocument> all() throws IOException {
      q.setRows(PAGE);
      q.setSort(SolrFields.ID, SolrQuery.ORDER.asc);
      List<SolrDocument> out = new ArrayList<>();
      String cursor = CursorMarkParams.CURSOR_MARK_START;
      while (true) {
        q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
        QueryResponse r = run();
        SolrDocumentList page = r.getResults();
        out.addAll(page);
        String next = r.getNextCursorMark();
        if (next == null || next.equals(cursor) || page.isEmpty()) return out;
        cursor = next;
      }
    }

    /** Every match whose {@code field} is one of {@code values}, asked {@link #PAGE} values at a time. */
    List<SolrDocument> allIn(String field, Collection<String> values) throws IOException {
      List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(values));
      List<SolrDocument> out = new ArrayList<>();
      String[] fqs = q.getFilterQueries();
      for (int from = 0; from < distinct.size(); from += PAGE) {
        Builder page = new Builder();
        page.q.add(q);
        page.params = params;
        page.tolerate = tolerate;
        page.q.setFilterQueries(fqs);
        page.terms(field, distinct.subList(from, Math.min(distinct.size(), from + PAGE)));
        out.addAll(page.all());
      }
      return out;
    }
  }
}
