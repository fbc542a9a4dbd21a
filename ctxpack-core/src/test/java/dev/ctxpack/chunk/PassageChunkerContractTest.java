package dev.ctxpack.chunk;


import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;

/** {@link PassageChunker} under the contract in several configurations. */
class PassageChunkerContractTest {
  private PassageChunkerContractTest() {}

  static class Default100WordsTest extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new PassageChunker(tokenizer(), 300, PassageChunker.DEFAULT_WORDS);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Minimum8Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new PassageChunker(tokenizer(), TokenChunker.MIN_MAX_TOKENS, 100);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Cl100k64Words20Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new PassageChunker(tokenizer(), 64, 20);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.byName("cl100k_base");
    }
  }
}
