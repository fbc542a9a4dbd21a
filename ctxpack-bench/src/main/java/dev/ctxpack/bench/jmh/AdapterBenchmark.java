package dev.ctxpack.bench.jmh;

import dev.ctxpack.langchain4j.CtxpackContentAggregator;
import dev.ctxpack.langchain4j.CtxpackContentInjector;
import dev.ctxpack.langchain4j.CtxpackMetadata;
import dev.ctxpack.langchain4j.PackedEvidence;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.pack.EvidencePacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.GivenCandidates;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.springai.CtxpackDocumentPostProcessor;
import dev.ctxpack.springai.CtxpackDocuments;
import dev.ctxpack.springai.CtxpackQueryAugmenter;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Query;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.ai.document.Document;

/**
 * The framework adapters' own cost per request, beside ctxpack's stages run directly on the same
 * evidence. At setup every SciFact test claim retrieves its 40 hybrid candidates once from the
 * benchmarks' index; each call then packs one claim's candidates, cycling through the claims:
 *
 * <ul>
 *   <li>{@code stages}: {@link EvidencePacker#pack} on the candidates (what both adapters run);
 *   <li>{@code langchain4j}: the same evidence as LangChain4j {@link Content}s (text and ctxpack's
 *       metadata keys) through {@link CtxpackContentAggregator#pack} and {@link
 *       CtxpackContentInjector#inject}: mapping in, packing, mapping out, the user message;
 *   <li>{@code springAi}: the same evidence as Spring AI {@link Document}s through {@link
 *       CtxpackDocumentPostProcessor#process} and {@link CtxpackQueryAugmenter#augment}.
 * </ul>
 *
 * All three pack to the same 2,000-token message with the same (default) stages and no embedder,
 * so the difference between a framework's figure and {@code stages} is its adapter's overhead.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class AdapterBenchmark {
  static final int BUDGET = 2000;

  private List<String> queries;
  private List<List<Candidate>> candidates;
  private List<List<Content>> contents;
  private List<List<Document>> documents;
  private EvidencePacker packer;
  private PackOptions options;
  private CtxpackContentAggregator aggregator;
  private CtxpackContentInjector injector;
  private CtxpackDocumentPostProcessor post;
  private CtxpackQueryAugmenter augmenter;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    queries = new ArrayList<>();
    candidates = new ArrayList<>();
    contents = new ArrayList<>();
    documents = new ArrayList<>();
    try (SciFactIndex scifact = SciFactIndex.openOrBuild()) {
      HybridRetriever retriever = new HybridRetriever(scifact.index, scifact.embedder);
      RetrievalOptions ro = RetrievalOptions.defaults();
      for (String q : scifact.queries) {
        List<Candidate> cs = new ArrayList<>();
        List<Content> cn = new ArrayList<>();
        List<Document> ds = new ArrayList<>();
        for (Candidate c : retriever.retrieve(q, RetrievalOptions.of(RetrievalMode.HYBRID, ro.k()), new Trace())) {
          // The text and provenance a framework would carry, and nothing else.
          cs.add(GivenCandidates.candidate(c.chunk().id(), c.chunk().docId(), c.chunk().text(), c.chunk().span().start(),
              c.doc().title(), c.doc().uri(), null, c.score()));
          Map<String, Object> md = new LinkedHashMap<>();
          md.put(CtxpackMetadata.CHUNK_ID, c.chunk().id());
          md.put(CtxpackMetadata.DOC_ID, c.chunk().docId());
          md.put(CtxpackMetadata.START, c.chunk().span().start());
          md.put(CtxpackMetadata.END, c.chunk().span().end());
          md.put(CtxpackMetadata.TITLE, c.doc().title());
          md.put(CtxpackMetadata.SCORE, c.score());
          cn.add(Content.from(TextSegment.from(c.chunk().text(), Metadata.from(md))));
          Map<String, Object> smd = new LinkedHashMap<>();
          smd.put(CtxpackDocuments.DOC_ID, c.chunk().docId());
          smd.put(CtxpackDocuments.START, c.chunk().span().start());
          smd.put("title", c.doc().title());
          ds.add(Document.builder().id(c.chunk().id()).text(c.chunk().text()).metadata(smd).score(c.score()).build());
        }
        queries.add(q);
        candidates.add(cs);
        contents.add(cn);
        documents.add(ds);
      }
    }
    packer = EvidencePacker.builder().build();
    // One prompt, as both adapters pack (a framework augmentation is one message: no plan fallback).
    options = PackOptions.builder().budget(BUDGET).strategy(dev.ctxpack.pack.Strategy.STUFF)
        .fallback(dev.ctxpack.pack.Strategy.STUFF).build();
    aggregator = CtxpackContentAggregator.builder().evidenceTokens(BUDGET).build();
    injector = CtxpackContentInjector.builder().evidenceTokens(BUDGET).build();
    post = CtxpackDocumentPostProcessor.builder().evidenceTokens(BUDGET).build();
    augmenter = CtxpackQueryAugmenter.builder().postProcessor(post).build();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    queries = null;
  }

  private int nextIndex() {
    int i = next;
    next = (next + 1) % queries.size();
    return i;
  }

  @Benchmark
  public ContextPackage stages() throws IOException {
    int i = nextIndex();
    return packer.pack(queries.get(i), candidates.get(i), options);
  }

  @Benchmark
  public ChatMessage langchain4j() {
    int i = nextIndex();
    Query q = Query.from(queries.get(i));
    Map<Query, Collection<List<Content>>> byQuery = Map.of(q, List.of(contents.get(i)));
    PackedEvidence packed = aggregator.pack(byQuery);
    return injector.inject(packed.contents(), UserMessage.from(queries.get(i)));
  }

  @Benchmark
  public org.springframework.ai.rag.Query springAi() {
    int i = nextIndex();
    org.springframework.ai.rag.Query q = new org.springframework.ai.rag.Query(queries.get(i));
    return augmenter.augment(q, post.process(q, documents.get(i)));
  }
}
