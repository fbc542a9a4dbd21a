package dev.ctxpack.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.springai.autoconfigure.CtxpackAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration: its beans, its properties, each bean backing off for the application's own. */
class CtxpackAutoConfigurationTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(CtxpackAutoConfiguration.class));

  @Test
  void beansFromPropertiesWithTheAdvisorAfterMemoryAndRag() {
    runner.withPropertyValues("ctxpack.evidence-tokens=900", "ctxpack.verify.reask=never")
        .withBean(DocumentRetriever.class, () -> q -> java.util.List.of())
        .run(ctx -> {
          assertThat(ctx).hasSingleBean(CtxpackDocumentPostProcessor.class).hasSingleBean(CtxpackQueryAugmenter.class)
              .hasSingleBean(CtxpackAdvisor.class).doesNotHaveBean(CtxpackDocumentRetriever.class);
          assertThat(ctx.getBean(CtxpackDocumentPostProcessor.class).options().limit()).isEqualTo(900);
          int order = ctx.getBean(CtxpackAdvisor.class).getOrder();
          assertThat(order).isGreaterThan(MessageChatMemoryAdvisor.builder(MessageWindowChatMemory.builder().build())
              .build().getOrder());
          assertThat(order).isGreaterThan(RetrievalAugmentationAdvisor.builder()
              .documentRetriever(q -> java.util.List.of()).build().getOrder());
        });
  }

  @Test
  void theApplicationsOwnBeanWins() {
    CtxpackAdvisor mine = CtxpackAdvisor.builder().order(5).build();
    runner.withBean(CtxpackAdvisor.class, () -> mine)
        .run(ctx -> assertThat(ctx.getBean(CtxpackAdvisor.class)).isSameAs(mine));
  }

  @Test
  void aBadPropertyFailsTheStartNamingIt() {
    runner.withPropertyValues("ctxpack.reserve-tokens=9000")
        .run(ctx -> assertThat(ctx).hasFailed().getFailure().rootCause().hasMessageContaining("reserveTokens"));
  }
}
