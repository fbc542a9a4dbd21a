package dev.ctxpack.springai.autoconfigure;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.springai.CtxpackAdvisor;
import dev.ctxpack.springai.CtxpackDocumentPostProcessor;
import dev.ctxpack.springai.CtxpackDocumentRetriever;
import dev.ctxpack.springai.CtxpackQueryAugmenter;
import dev.ctxpack.springai.PackListener;
import dev.ctxpack.verify.Verifier;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.rag.postretrieval.document.DocumentPostProcessor;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * ctxpack's Spring AI parts as beans, each unless the application defines its own: a {@link
 * CtxpackDocumentPostProcessor} ({@code ctxpack.evidence-tokens}, {@code ctxpack.compress}; an {@link
 * Embedder} bean when there is one), a {@link CtxpackQueryAugmenter} over it, a {@link
 * CtxpackDocumentRetriever} when {@code ctxpack.index} names an index, and a {@link CtxpackAdvisor}
 * retrieving from every {@link DocumentRetriever} bean ({@code ctxpack.context-window}, {@code
 * ctxpack.reserve-tokens}, {@code ctxpack.verify.*}, {@code ctxpack.advisor.order}; a {@link Verifier}
 * bean when there is one). The advisor is not added to any {@code ChatClient} by itself: pass it to
 * {@code ChatClient.Builder.defaultAdvisors(...)}.
 */
@AutoConfiguration
@ConditionalOnClass({ChatClient.class, DocumentPostProcessor.class, CtxpackAdvisor.class})
@EnableConfigurationProperties(CtxpackProperties.class)
public class CtxpackAutoConfiguration {
  /** Created by Spring. */
  public CtxpackAutoConfiguration() {}

  /** The post-processor: {@code ctxpack.evidence-tokens}, {@code ctxpack.compress}. */
  @Bean
  @ConditionalOnMissingBean
  public CtxpackDocumentPostProcessor ctxpackDocumentPostProcessor(CtxpackProperties p,
      ObjectProvider<Embedder> embedder, ObjectProvider<PackListener> listener) {
    return CtxpackDocumentPostProcessor.builder()
        .evidenceTokens(p.getEvidenceTokens())
        .options(PackOptions.builder().compress(p.isCompress()).build())
        .embedder(embedder.getIfAvailable())
        .listener(listener.getIfAvailable(() -> PackListener.NONE))
        .build();
  }

  /** The query augmenter over the post-processor. */
  @Bean
  @ConditionalOnMissingBean
  public CtxpackQueryAugmenter ctxpackQueryAugmenter(CtxpackDocumentPostProcessor postProcessor) {
    return CtxpackQueryAugmenter.builder().postProcessor(postProcessor).build();
  }

  /** A retriever over {@code ctxpack.index} ({@code ctxpack.top-k}); its backend must be on the classpath. */
  @Bean(destroyMethod = "close")
  @ConditionalOnProperty(prefix = "ctxpack", name = "index")
  @ConditionalOnMissingBean
  public CtxpackDocumentRetriever ctxpackDocumentRetriever(CtxpackProperties p, ObjectProvider<Embedder> embedder) {
    return CtxpackDocumentRetriever.builder().indexSpec(p.getIndex()).embedder(embedder.getIfAvailable())
        .topK(p.getTopK()).build();
  }

  /** The advisor, retrieving from every {@link DocumentRetriever} bean. */
  @Bean
  @ConditionalOnMissingBean
  public CtxpackAdvisor ctxpackAdvisor(CtxpackProperties p, CtxpackDocumentPostProcessor postProcessor,
      ObjectProvider<DocumentRetriever> retrievers, ObjectProvider<Verifier> verifier) {
    CtxpackAdvisor.Builder b = CtxpackAdvisor.builder()
        .postProcessor(postProcessor)
        .evidenceTokens(p.getEvidenceTokens())
        .contextWindow(p.getContextWindow())
        .reserveTokens(p.getReserveTokens())
        .verify(p.getVerify().isEnabled())
        .reask(p.getVerify().getReask())
        .order(p.getAdvisor().getOrder());
    retrievers.orderedStream().forEach(b::documentRetriever);
    Verifier v = verifier.getIfAvailable();
    if (v != null) b.verifier(v);
    return b.build();
  }
}
