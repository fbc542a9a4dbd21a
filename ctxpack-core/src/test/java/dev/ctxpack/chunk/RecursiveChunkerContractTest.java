package dev.ctxpack.chunk;


import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;

/** {@link RecursiveChunker} under the contract in several configurations. */
class RecursiveChunkerContractTest {
  private RecursiveChunkerContractTest() {}

  static class Default300Overlap15Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new RecursiveChunker(tokenizer(), 300, 0.15);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Minimum8NoOverlapTest extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new RecursiveChunker(tokenizer(), TokenChunker.MIN_MAX_TOKENS, 0);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.defaultTokenizer();
    }
  }

  static class Cl100k40Overlap30Test extends ChunkerContract {
    @Override
    protected Chunker chunker() {
      return new RecursiveChunker(tokenizer(), 40, 0.3);
    }

    @Override
    protected Tokenizer tokenizer() {
      return Tokenizers.byName("cl100k_base");
    }
  }
}
