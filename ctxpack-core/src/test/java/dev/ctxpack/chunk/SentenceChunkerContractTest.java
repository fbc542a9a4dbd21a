package dev.ctxpack.chunk;

import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;

/** {@link SentenceChunker} under the contract. */
class SentenceChunkerContractTest {
  private SentenceChunkerContractTest() {}

  static class Max8Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SentenceChunker(tokenizer(), 8);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Max64Cl100kTest extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new SentenceChunker(tokenizer(), 64);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.byName("cl100k_base");
    }
  }
}
