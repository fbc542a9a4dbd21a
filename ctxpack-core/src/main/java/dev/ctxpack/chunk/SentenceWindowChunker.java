package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.token.Tokenizer;
import java.util.List;

/**
 * Indexes single sentences, to be read in context: each chunk is one sentence (cut further only when
 * it exceeds the maximum), so retrieval matches precisely; at retrieval, a hit is widened to the
 * {@link #window()} sentences on each side by {@link SentenceWindow#expand}, using the offsets in the
 * stored document text (the widened text is still a verbatim span of it). Same cut as {@link
 * SentenceChunker}; only the name, and so the retrieval behaviour, differs.
 */
public final class SentenceWindowChunker implements Chunker {
  /** Sentences added on each side of a hit by default: a hit is read with up to 4 neighbours. */
  public static final int DEFAULT_WINDOW = 2;

  private final SentenceChunker sentences;
  private final int window;

  public SentenceWindowChunker(Tokenizer tokenizer, int maxTokens, int window) {
    if (window < 0) throw new IllegalArgumentException("window must be >= 0, was " + window);
    this.sentences = new SentenceChunker(tokenizer, maxTokens);
    this.window = window;
  }

  @Override
  public String name() {
    return "sentence-window";
  }

  @Override
  public int maxTokens() {
    return sentences.maxTokens();
  }

  /** Sentences each side a hit is expanded by at retrieval. */
  public int window() {
    return window;
  }

  @Override
  public String signature() {
    return name() + ":" + maxTokens() + ":n" + window;
  }

  @Override
  public List<Chunk> chunk(Document doc, List<SectionMark> sections) {
    return sentences.chunk(doc, sections);
  }
}
