package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/** One chunk per sentence (sentences over the maximum are cut between words): the segmenter's output. */
public final class SentenceChunker implements Chunker {
  private final Tokenizer tokenizer;
  private final int maxTokens;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  public SentenceChunker(Tokenizer tokenizer, int maxTokens) {
    this.tokenizer = tokenizer;
    if (maxTokens < TokenChunker.MIN_MAX_TOKENS) {
      throw new IllegalArgumentException(
          "chunk tokens must be >= " + TokenChunker.MIN_MAX_TOKENS + ", was " + maxTokens);
    }
    this.maxTokens = maxTokens;
  }

  @Override
  public String name() {
    return "sentence";
  }

  @Override
  public int maxTokens() {
    return maxTokens;
  }

  @Override
  public List<Chunk> chunk(Document doc, List<SectionMark> sections) {
    String text = doc.text();
    List<Integer> counts = new ArrayList<>();
    List<Span> units = TextUnits.fit(text, segmenter.split(text, doc.language()), tokenizer, maxTokens, counts);
    List<Chunk> out = new ArrayList<>(units.size());
    for (int i = 0; i < units.size(); i++) {
      Span s = units.get(i);
      out.add(new Chunk(Chunker.chunkId(doc.id(), i), doc.id(), s, s.of(text),
          Chunker.sectionAt(sections, s.start()), 0, counts.get(i)));
    }
    return out;
  }
}
