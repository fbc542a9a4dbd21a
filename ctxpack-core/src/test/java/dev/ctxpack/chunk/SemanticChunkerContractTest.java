package dev.ctxpack.chunk;

import dev.ctxpack.embed.HashingEmbedder;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;

/** {@link SemanticChunker} under the contract in several configurations. */
class SemanticChunkerContractTest {
  private SemanticChunkerContractTest() {}

  static class Default300Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SemanticChunker(tokenizer(), new HashingEmbedder(), 300);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Minimum8Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SemanticChunker(tokenizer(), new HashingEmbedder(64), 4, TokenChunker.MIN_MAX_TOKENS, 1, 95);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Cl100kMin30Max60Buffer0Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SemanticChunker(tokenizer(), new HashingEmbedder(), 30, 60, 0, 80);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.byName("cl100k_base");
    }
  }
}
