package dev.ctxpack.chunk;


import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;

/** {@link SentenceWindowChunker} under the contract in several configurations. */
class SentenceWindowChunkerContractTest {
  private SentenceWindowChunkerContractTest() {}

  static class Default300Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SentenceWindowChunker(tokenizer(), 300, SentenceWindowChunker.DEFAULT_WINDOW);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Minimum8Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SentenceWindowChunker(tokenizer(), TokenChunker.MIN_MAX_TOKENS, 1);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }
}
