package dev.ctxpack.springai;

import dev.ctxpack.embed.Embedder;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.rag.retrieval.search.VectorStoreDocumentRetriever;
import org.springframework.ai.vectorstore.SimpleVectorStore;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The application under test: Spring Boot's auto-configuration (OpenAI chat model, ctxpack's beans),
 * MiniLM as the {@link EmbeddingModel} of a {@link SimpleVectorStore} holding the sample slice, and a
 * retriever over it next to ctxpack's own index retriever ({@code ctxpack.index}).
 */
@SpringBootApplication
class TestApplication {
  @Bean
  Embedder ctxpackEmbedder() {
    return SampleCorpus.EMBEDDER;
  }

  @Bean
  EmbeddingModel miniLmEmbeddingModel(Embedder embedder) {
    return new MiniLmEmbeddingModel(embedder);
  }

  @Bean
  SimpleVectorStore vectorStore(EmbeddingModel embeddingModel) {
    SimpleVectorStore store = SimpleVectorStore.builder(embeddingModel).build();
    store.add(SampleCorpus.documents());
    return store;
  }

  @Bean
  VectorStoreDocumentRetriever vectorStoreRetriever(SimpleVectorStore store) {
    return VectorStoreDocumentRetriever.builder().vectorStore(store).topK(6).build();
  }

  @Bean
  ChatMemory chatMemory() {
    return MessageWindowChatMemory.builder().chatMemoryRepository(new InMemoryChatMemoryRepository())
        .maxMessages(200).build();
  }
}
