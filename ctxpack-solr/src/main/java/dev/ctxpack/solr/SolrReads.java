package dev.ctxpack.solr;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.lucene.SentenceVectorCodec;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.util.NamedList;

/**
 * The read role over one collection, as a reader with some {@link Access} sees it: searches (BM25
 * over collection-wide statistics, or for a view rescored by ctxpack from readable statistics,
 * {@link SolrBm25}; dense search by Solr's {@code {!knn}}), documents, vectors and corpus marks.
 */
class SolrReads implements SearchableIndex {
  /**
   * BM25 candidates Solr returns for a principal's view and a query of {@code k}, which ctxpack
   * rescores: Solr's order uses statistics of everything, so it fetches four times as many.
   */
  static int viewCandidates(int k) {
    return Math.min(2_000, Math.max(100, 4 * k));
  }

  /** A chunk's fields a search returns: the candidate's, and its corpus marks (for {@link #chunkMarks}). */
  private static final String[] CHUNK_FIELDS = {SolrFields.CHUNK_ID, SolrFields.DOC_KEY, SolrFields.TEXT,
      SolrFields.START, SolrFields.END, SolrFields.SECTION, SolrFields.PAGE, SolrFields.TOKENS, SolrFields.URI,
      SolrFields.TITLE, SolrFields.LANGUAGE, SolrFields.META, SolrFields.LENGTH, SolrFields.CHUNK_KEY,
      SolrFields.NEAR_DUP_OF, SolrFields.NEAR_SIM};

  final SolrIndex index;
  final SolrQueries queries;
  /**
   * The chunks this view's searches returned, by chunk id, so the corpus marks of a request's
   * candidates need no second read of them; null for the index's own reads, which outlive a request.
   */
  private final Map<String, SolrDocument> found;

  SolrReads(SolrIndex index, Access access, dev.ctxpack.index.ReadCoverage coverage, boolean perRequest) {
    this.index = index;
    this.queries = new SolrQueries(index.client(), index.collection(), access, index.tolerant(), coverage);
    this.found = perRequest ? new java.util.concurrent.ConcurrentHashMap<>() : null;
  }

  private SolrDocument found(SolrDocument d) {
    if (found != null) found.put(SolrDocs.str(d, SolrFields.CHUNK_ID), d);
    return d;
  }

  @Override
  public List<Candidate> searchSparse(String query, int k) throws IOException {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    Map<String, Map<String, Integer>> terms = new LinkedHashMap<>();
    for (String field : SolrBm25.fields()) {
      Map<String, Integer> t = SolrBm25.queryTerms(field, query);
      if (!t.isEmpty()) terms.put(field, t);
    }
    if (terms.isEmpty()) return List.of();
    // Candidates: chunks holding any query term, ranked by Solr's own BM25.
    SolrQueries.Builder cand = queries.of(SolrFields.TYPE_CHUNK, CHUNK_FIELDS);
    StringBuilder should = new StringBuilder("{!bool");
    for (var f : terms.entrySet()) {
      for (var t : f.getValue().entrySet()) {
        String clause = "{!term f=" + f.getKey() + " v=$" + cand.param(t.getKey()) + "}";
        // A term the query repeats weighs as many times, as the embedded index's query builder boosts it.
        if (t.getValue() > 1) clause = "{!boost b=" + t.getValue() + " v=$" + cand.param(clause) + "}";
        should.append(" should=$").append(cand.param(clause));
      }
    }
    cand.q.setQuery(should.append('}').toString());
    if (queries.access().everything()) {
      // For the whole collection Solr's BM25 is the embedded index's: the same similarity, norms
      // and query, over collection-wide statistics (ExactStatsCache). Its scores are used as they are.
      cand.q.setRows(k);
      cand.q.setFields(withScore());
      cand.q.setSort("score", org.apache.solr.client.solrj.SolrQuery.ORDER.desc);
      cand.q.addSort(SolrFields.CHUNK_ID, org.apache.solr.client.solrj.SolrQuery.ORDER.asc);
      List<Candidate> out = new ArrayList<>();
      for (SolrDocument d : cand.run().getResults()) {
        found(d);
        out.add(new Candidate(SolrDocs.chunk(d), SolrDocs.docInfo(d),
            Scores.of(Signal.BM25, ((Number) d.getFieldValue("score")).doubleValue())));
      }
      return out;
    }
    cand.q.setRows(viewCandidates(k));
    SolrQueries.Builder stats = readableStatistics(terms);
    // The statistics and the candidates are independent: ask for both at once.
    java.util.concurrent.CompletableFuture<NamedList<?>> facets = SolrQueries.async(
        () -> (NamedList<?>) stats.run().getResponse().get("facets"));
    List<SolrDocument> hits = cand.run().getResults();
    if (hits.isEmpty()) return List.of();
    NamedList<?> facet = SolrQueries.join(facets);

    List<Candidate> out = new ArrayList<>(hits.size());
    for (SolrDocument d : hits) {
      String field = dev.ctxpack.lucene.Analyzers.bodyField(dev.ctxpack.model.Language.fromCode(SolrDocs.str(d, SolrFields.LANGUAGE)));
      Map<String, Integer> q = terms.get(field);
      if (q == null) continue;
      NamedList<?> fs = (NamedList<?>) facet.get("f_" + field);
      long docs = number(fs, "count");
      SolrBm25.FieldStats fieldStats = new SolrBm25.FieldStats(docs, Math.max(docs, number(fs, "nlen")));
      Map<String, Integer> tf = SolrBm25.termFrequencies(field, SolrDocs.searchable(SolrDocs.str(d, SolrFields.TITLE),
          SolrDocs.str(d, SolrFields.TEXT)));
      long length = SolrDocs.lng(d, SolrFields.LENGTH);
      double score = 0;
      int i = 0;
      for (var t : q.entrySet()) {
        NamedList<?> df = (NamedList<?>) facet.get("t_" + field + "_" + i++);
        score += SolrBm25.score(t.getValue(), df == null ? 0 : number(df, "count"), fieldStats,
            tf.getOrDefault(t.getKey(), 0), length);
      }
      if (score > 0) out.add(new Candidate(SolrDocs.chunk(found(d)), SolrDocs.docInfo(d), Scores.of(Signal.BM25, (float) score)));
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(Signal.BM25, 0))
        .thenComparing(c -> c.chunk().id()));
    return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
  }

  /**
   * The request for the view's statistics of {@code terms} (JSON facets over every shard): per body
   * field {@code f_FIELD} the readable chunks holding a term of it (its language's chunks of
   * non-zero length) with their summed norm-encoded lengths, per term {@code t_FIELD_I} its
   * document frequency, I the term's place in the field's terms.
   */
  private SolrQueries.Builder readableStatistics(Map<String, Map<String, Integer>> terms) {
    SolrQueries.Builder stats = queries.of(SolrFields.TYPE_CHUNK);
    StringBuilder json = new StringBuilder("{");
    for (var f : terms.entrySet()) {
      json.append(json.length() == 1 ? "" : ",").append("\"f_").append(f.getKey()).append("\":{\"type\":\"query\",\"q\":\"")
          .append("+_query_:\\\"{!term f=").append(SolrFields.LANGUAGE).append(" v=$").append(stats.param(languageOf(f.getKey())))
          .append("}\\\" +").append(SolrFields.NORM_LENGTH).append(":[1 TO *]\",\"facet\":{\"nlen\":\"sum(")
          .append(SolrFields.NORM_LENGTH).append(")\"}}");
      int i = 0;
      for (String term : f.getValue().keySet()) {
        json.append(",\"t_").append(f.getKey()).append('_').append(i++).append("\":{\"type\":\"query\",\"q\":\"{!term f=")
            .append(f.getKey()).append(" v=$").append(stats.param(term)).append("}\"}");
      }
    }
    stats.q.setRows(0);
    stats.q.set("json.facet", json.append('}').toString());
    return stats;
  }

  private static String[] withScore() {
    String[] f = java.util.Arrays.copyOf(CHUNK_FIELDS, CHUNK_FIELDS.length + 1);
    f[CHUNK_FIELDS.length] = "score";
    return f;
  }

  private static String languageOf(String field) {
    for (dev.ctxpack.model.Language l : dev.ctxpack.model.Language.values()) {
      if (dev.ctxpack.lucene.Analyzers.bodyField(l).equals(field)) return l.code();
    }
    throw new IllegalArgumentException(field);
  }

  private static long number(NamedList<?> nl, String key) {
    Object v = nl == null ? null : nl.get(key);
    return v == null ? 0 : ((Number) v).longValue();
  }

  @Override
  public List<Candidate> searchDense(float[] query, int k) throws IOException {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    if (index.dimension() == 0) return List.of();
    int windows = Math.min(10_000, 3 * k + 20);
    SolrQueries.Builder knn = queries.of(SolrFields.TYPE_VECTOR, SolrFields.CHUNK_ID, "score");
    StringBuilder v = new StringBuilder("[");
    for (int i = 0; i < query.length; i++) v.append(i == 0 ? "" : ",").append(query[i]);
    knn.q.setQuery("{!knn f=" + SolrFields.VECTOR + " topK=" + windows + "}" + v.append(']'));
    knn.q.setRows(windows);
    LinkedHashMap<String, Double> best = new LinkedHashMap<>();
    for (SolrDocument d : knn.run().getResults()) {
      // Solr maps a dot product x to (1 + x) / 2, as Lucene does; report the cosine itself.
      double cosine = 2.0 * ((Number) d.getFieldValue("score")).doubleValue() - 1.0;
      best.merge(SolrDocs.str(d, SolrFields.CHUNK_ID), cosine, Math::max);
    }
    if (best.isEmpty()) return List.of();
    List<Candidate> out = new ArrayList<>(best.size());
    for (SolrDocument d : queries.of(SolrFields.TYPE_CHUNK, CHUNK_FIELDS).allIn(SolrFields.CHUNK_ID, best.keySet())) {
      Double score = best.get(SolrDocs.str(d, SolrFields.CHUNK_ID));
      if (score != null) out.add(new Candidate(SolrDocs.chunk(found(d)), SolrDocs.docInfo(d), Scores.of(Signal.DENSE, score)));
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(Signal.DENSE, 0))
        .thenComparing(c -> c.chunk().id()));
    return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
  }

  @Override
  public Optional<Document> document(String docId) throws IOException {
    SolrQueries.Builder q = queries.of(SolrFields.TYPE_DOC).term(SolrFields.DOC_KEY, docId);
    q.q.setRows(1);
    // Every Solr document of a record lives on the shard its key routes to: ask that shard alone.
    q.q.set(org.apache.solr.common.params.ShardParams._ROUTE_, SolrFields.route(docId));
    List<SolrDocument> r = q.run().getResults();
    return r.isEmpty() ? Optional.empty() : Optional.of(SolrDocs.document(r.get(0)));
  }

  @Override
  public Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
    if (chunkIds.isEmpty() || index.dimension() == 0) return Map.of();
    Map<String, float[]> sums = new LinkedHashMap<>();
    for (SolrDocument d : queries.of(SolrFields.TYPE_VECTOR, SolrFields.CHUNK_ID, SolrFields.VECTOR).tolerating()
        .allIn(SolrFields.CHUNK_ID, chunkIds)) {
      Collection<Object> vec = d.getFieldValues(SolrFields.VECTOR);
      float[] sum = sums.computeIfAbsent(SolrDocs.str(d, SolrFields.CHUNK_ID), id -> new float[vec.size()]);
      int i = 0;
      for (Object o : vec) sum[i++] += ((Number) o).floatValue();
    }
    Map<String, float[]> out = new LinkedHashMap<>();
    sums.forEach((id, s) -> out.put(id, Embedder.normalize(s)));
    return out;
  }

  @Override
  public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    if (chunkIds.isEmpty()) return Map.of();
    Map<String, List<SentenceVector>> out = new LinkedHashMap<>();
    for (SolrDocument d : queries.of(SolrFields.TYPE_CHUNK, SolrFields.CHUNK_ID, SolrFields.DOC_KEY, SolrFields.SENTENCE_VECTORS)
        .tolerating().allIn(SolrFields.CHUNK_ID, chunkIds)) {
      byte[] b = SolrDocs.bytes(d, SolrFields.SENTENCE_VECTORS);
      if (b != null) out.put(SolrDocs.str(d, SolrFields.CHUNK_ID), SentenceVectorCodec.decode(SolrDocs.str(d, SolrFields.DOC_KEY), new BytesRef(b)));
    }
    return out;
  }

  @Override
  public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    if (chunkIds.isEmpty()) return Map.of();
    // The chunks this view's searches returned are known; the others are read.
    List<SolrDocument> chunks = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String id : new java.util.LinkedHashSet<>(chunkIds)) {
      SolrDocument d = found == null ? null : found.get(id);
      if (d != null) chunks.add(d);
      else unknown.add(id);
    }
    if (!unknown.isEmpty()) {
      chunks.addAll(queries.of(SolrFields.TYPE_CHUNK, SolrFields.CHUNK_ID, SolrFields.DOC_KEY, SolrFields.CHUNK_KEY,
          SolrFields.NEAR_DUP_OF, SolrFields.NEAR_SIM).allIn(SolrFields.CHUNK_ID, unknown));
    }
    if (chunks.isEmpty()) return Map.of();
    Set<String> keys = new HashSet<>();
    Set<String> marked = new HashSet<>();
    for (SolrDocument d : chunks) {
      keys.add(SolrDocs.str(d, SolrFields.CHUNK_KEY));
      if (!SolrDocs.str(d, SolrFields.NEAR_DUP_OF).isEmpty()) marked.add(SolrDocs.str(d, SolrFields.NEAR_DUP_OF));
    }
    // Recurrence: readable records holding each key; a mark naming an unreadable document is not shown.
    Map<String, Long> recurrence = new HashMap<>();
    SolrQueries.Builder rec = queries.of(SolrFields.TYPE_DOC);
    rec.terms(SolrFields.CHUNK_KEYS, keys);
    rec.q.setRows(0);
    rec.q.setFacet(true);
    rec.q.addFacetField(SolrFields.CHUNK_KEYS);
    rec.q.setFacetLimit(-1);
    rec.q.setFacetMinCount(1);
    QueryResponse r = rec.run();
    for (var c : r.getFacetField(SolrFields.CHUNK_KEYS).getValues()) {
      if (keys.contains(c.getName())) recurrence.put(c.getName(), c.getCount());
    }
    Set<String> readable = new HashSet<>();
    if (!marked.isEmpty()) {
      for (SolrDocument d : queries.of(SolrFields.TYPE_DOC, SolrFields.DOC_KEY).allIn(SolrFields.DOC_KEY, marked)) {
        readable.add(SolrDocs.str(d, SolrFields.DOC_KEY));
      }
    }
    Map<String, ChunkMarks> out = new LinkedHashMap<>();
    for (SolrDocument d : chunks) {
      String of = SolrDocs.str(d, SolrFields.NEAR_DUP_OF);
      boolean shown = !of.isEmpty() && readable.contains(of);
      out.put(SolrDocs.str(d, SolrFields.CHUNK_ID), new ChunkMarks(SolrDocs.str(d, SolrFields.DOC_KEY), shown ? of : "",
          shown ? SolrDocs.dbl(d, SolrFields.NEAR_SIM) : 0,
          recurrence.getOrDefault(SolrDocs.str(d, SolrFields.CHUNK_KEY), 0L).intValue()));
    }
    return out;
  }

  @Override
  public Stats stats() throws IOException {
    // With a tolerating spec, the counts of the shards that answer: what a request is set up by (does
    // the index hold vectors, of which embedder), never its evidence; listings of the corpus stay whole.
    // One request: a facet query per type.
    SolrQueries.Builder q = queries.ofAnyType().tolerating();
    q.q.setRows(0);
    q.q.setFacet(true);
    List<String> types = List.of(SolrFields.TYPE_DOC, SolrFields.TYPE_CHUNK, SolrFields.TYPE_VECTOR);
    List<String> facets = new ArrayList<>();
    for (String type : types) {
      String facet = "{!term f=" + SolrFields.TYPE + " v=$" + q.param(type) + "}";
      q.q.addFacetQuery(facet);
      facets.add(facet);
    }
    Map<String, Integer> counts = q.run().getFacetQuery();
    int docs = counts.get(facets.get(0));
    int chunks = counts.get(facets.get(1));
    int vectors = counts.get(facets.get(2));
    SolrIndex.Meta meta = index.meta();
    return new Stats(docs, chunks, vectors, Optional.ofNullable(meta.embedder()), meta.dimension());
  }

  @Override
  public SearchableIndex readableBy(Access access) {
    if (!queries.access().everything()) throw new IllegalStateException("a view is not narrowed again");
    return access.everything() ? this : new SolrReads(index, access, queries.coverage(), found != null);
  }

  /**
   * A view for one request: when the spec tolerates a missing shard, its reads answer from the shards
   * that have a live replica and name the others in {@code coverage} (without the option every read
   * of a partial cluster fails); and it remembers the chunks its searches return, so their corpus
   * marks are not read again.
   */
  @Override
  public SearchableIndex reportingTo(dev.ctxpack.index.ReadCoverage coverage) {
    java.util.Objects.requireNonNull(coverage, "coverage");
    return new SolrReads(index, queries.access(), index.tolerant() ? coverage : null, true);
  }
}
