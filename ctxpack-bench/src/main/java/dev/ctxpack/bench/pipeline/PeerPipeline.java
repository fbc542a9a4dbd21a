package dev.ctxpack.bench.pipeline;

import dev.ctxpack.bench.data.CorpusDoc;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.aggregator.ReciprocalRankFuser;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * The peer pipeline a RAG engineer would assemble from the usual parts, one unit per document
 * (no chunking), measured in the same run as ctxpack:
 *
 * <ol>
 *   <li>BM25: a plain Lucene index of {@code title + " " + text} with {@link EnglishAnalyzer} and
 *       Lucene's default BM25 similarity; the query is analysed the same way and each token becomes
 *       a SHOULD term clause (what the classic query parser builds for a plain-words query);
 *   <li>dense: LangChain4j's {@link AllMiniLmL6V2QuantizedEmbeddingModel} embeddings of {@code title
 *       + " " + text}, exact (brute-force) cosine against the query's embedding;
 *   <li>hybrid: LangChain4j's {@link ReciprocalRankFuser} (k = 60) over the two ranked lists.
 * </ol>
 */
public final class PeerPipeline implements Closeable {
  public static final int RRF_K = 60;
  private static final String ID = "id";
  private static final String BODY = "body";

  private final Analyzer analyzer = new EnglishAnalyzer();
  private final Directory directory;
  private final EmbeddingModel model;
  private DirectoryReader reader;
  private IndexSearcher searcher;
  private String[] ids;
  private Map<String, TextSegment> segments;
  private float[][] vectors;

  public PeerPipeline(Path dir) throws IOException {
    this.directory = FSDirectory.open(dir);
    this.model = new AllMiniLmL6V2QuantizedEmbeddingModel();
  }

  /** Indexes and embeds {@code docs}; the result carries the total and the embedding seconds. */
  public IngestResult build(List<CorpusDoc> docs, long inputBytes) throws IOException {
    long t0 = System.nanoTime();
    ids = new String[docs.size()];
    segments = new HashMap<>();
    List<TextSegment> toEmbed = new ArrayList<>(docs.size());
    try (IndexWriter w = new IndexWriter(directory, new IndexWriterConfig(analyzer)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE).setRAMBufferSizeMB(64))) {
      for (int i = 0; i < docs.size(); i++) {
        CorpusDoc d = docs.get(i);
        String body = d.title() + " " + d.text();
        Document ld = new Document();
        ld.add(new StringField(ID, d.id(), Field.Store.YES));
        ld.add(new TextField(BODY, body, Field.Store.NO));
        w.addDocument(ld);
        ids[i] = d.id();
        TextSegment seg = TextSegment.from(body, Metadata.from(ID, d.id()));
        segments.put(d.id(), seg);
        toEmbed.add(seg);
      }
      w.commit();
    }
    reader = DirectoryReader.open(directory);
    searcher = new IndexSearcher(reader);
    long t1 = System.nanoTime();
    List<Embedding> embeddings = model.embedAll(toEmbed).content();
    vectors = new float[embeddings.size()][];
    for (int i = 0; i < vectors.length; i++) vectors[i] = unit(embeddings.get(i).vector());
    long t2 = System.nanoTime();
    return new IngestResult("peer", "Lucene BM25 index + LangChain4j embeddings", docs.size(), docs.size(),
        inputBytes, (t2 - t0) / 1e9, (Double) ((t2 - t1) / 1e9));
  }

  /** Top {@code k} document ids by BM25. */
  public List<String> bm25(String query, int k) throws IOException {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    int clauses = 0;
    try (TokenStream ts = analyzer.tokenStream(BODY, query)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken() && clauses < IndexSearcher.getMaxClauseCount()) {
        b.add(new TermQuery(new Term(BODY, term.toString())), BooleanClause.Occur.SHOULD);
        clauses++;
      }
      ts.end();
    }
    if (clauses == 0) return List.of();
    ScoreDoc[] hits = searcher.search(b.build(), k).scoreDocs;
    StoredFields sf = searcher.storedFields();
    List<String> out = new ArrayList<>(hits.length);
    for (ScoreDoc h : hits) out.add(sf.document(h.doc).get(ID));
    return out;
  }

  /** Top {@code k} document ids by exact cosine similarity of the embeddings. */
  public List<String> dense(String query, int k) {
    float[] q = unit(model.embed(query).content().vector());
    double[] scores = new double[vectors.length];
    PriorityQueue<Integer> top = new PriorityQueue<>(k + 1,
        (a, b) -> scores[a] != scores[b] ? Double.compare(scores[a], scores[b]) : ids[b].compareTo(ids[a]));
    for (int i = 0; i < vectors.length; i++) {
      float[] v = vectors[i];
      double s = 0;
      for (int j = 0; j < v.length; j++) s += (double) v[j] * q[j];
      scores[i] = s;
      top.add(i);
      if (top.size() > k) top.poll();
    }
    List<String> out = new ArrayList<>(top.size());
    while (!top.isEmpty()) out.add(ids[top.poll()]);
    Collections.reverse(out);
    return out;
  }

  /** Reciprocal rank fusion of the BM25 and dense top {@code k}, by LangChain4j's fuser. */
  public List<String> rrf(String query, int k) throws IOException {
    List<Content> sparse = contents(bm25(query, k));
    List<Content> dense = contents(dense(query, k));
    List<Content> fused = ReciprocalRankFuser.fuse(List.of(sparse, dense), RRF_K);
    List<String> out = new ArrayList<>(Math.min(k, fused.size()));
    for (Content c : fused) {
      if (out.size() >= k) break;
      out.add(c.textSegment().metadata().getString(ID));
    }
    return out;
  }

  private List<Content> contents(List<String> docIds) {
    List<Content> out = new ArrayList<>(docIds.size());
    for (String id : docIds) out.add(Content.from(segments.get(id)));
    return out;
  }

  /** The three methods as rankers. */
  public List<Ranker> rankers() {
    return List.of(
        ranker("peer bm25 (Lucene EnglishAnalyzer)", this::bm25),
        ranker("peer dense (LC4j MiniLM-L6-v2-q, exact)", (q, k) -> dense(q, k)),
        ranker("peer hybrid (LC4j ReciprocalRankFuser k=60)", this::rrf));
  }

  private interface Fn {
    List<String> apply(String query, int k) throws IOException;
  }

  private static Ranker ranker(String name, Fn fn) {
    return Ranker.of(name, (query, depth) -> {
      return fn.apply(query, depth);
    });
  }

  private static float[] unit(float[] v) {
    double sum = 0;
    for (float x : v) sum += (double) x * x;
    if (sum == 0) return v.clone();
    float inv = (float) (1.0 / Math.sqrt(sum));
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) out[i] = v[i] * inv;
    return out;
  }

  @Override
  public void close() throws IOException {
    try {
      if (reader != null) reader.close();
    } finally {
      directory.close();
    }
  }
}
