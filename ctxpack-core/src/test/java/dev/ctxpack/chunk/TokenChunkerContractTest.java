package dev.ctxpack.chunk;

import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;

/** {@link TokenChunker} under the contract in several configurations. */
class TokenChunkerContractTest {
  private TokenChunkerContractTest() {}

  static class Default300Overlap15Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new TokenChunker(tokenizer(), TokenChunker.DEFAULT_MAX_TOKENS, TokenChunker.DEFAULT_OVERLAP);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Minimum8NoOverlapTest extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new TokenChunker(tokenizer(), TokenChunker.MIN_MAX_TOKENS, 0);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Small20Overlap40Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new TokenChunker(tokenizer(), 20, 0.4);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Cl100k64Overlap25Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new TokenChunker(tokenizer(), 64, 0.25);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.byName("cl100k_base");
    }
  }
}
