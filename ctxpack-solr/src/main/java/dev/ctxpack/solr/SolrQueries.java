package dev.ctxpack.solr;

import dev.ctxpack.index.Access;
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

/**
 * Queries of one collection, as one reader sees it: every filter is a term or terms query whose
 * values travel as separate parameters ({@code v=$p3}), so no value is ever parsed as query syntax.
 * The reader's {@link Access} is a filter on every query.
 */
final class SolrQueries {
  /** Separates the values of a terms filter: a control character no id, key or label holds. */
  private static final String SEPARATOR = "\u0001";
  static final int PAGE = 1000;

  private final CloudSolrClient client;
  private final String collection;
  private final Access access;

  SolrQueries(CloudSolrClient client, String collection, Access access) {
    this.client = client;
    this.collection = collection;
    this.access = access;
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
    Builder b = new Builder();
    b.term(SolrFields.TYPE, type);
    if (!access.everything()) {
      List<String> values = new ArrayList<>(access.labels().size() + 1);
      values.add(SolrDocs.UNLABELLED);
      values.addAll(access.labels());
      b.terms(SolrFields.ACL, values);
    }
    if (fields.length > 0) b.q.setFields(fields);
    return b;
  }

  final class Builder {
    final SolrQuery q = new SolrQuery("*:*");
    private int params;

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
      return SolrAdmin.call(() -> client.query(collection, q, SolrRequest.METHOD.POST), "search " + collection);
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
        page.q.setFilterQueries(fqs);
        page.terms(field, distinct.subList(from, Math.min(distinct.size(), from + PAGE)));
        out.addAll(page.all());
      }
      return out;
    }
  }
}
