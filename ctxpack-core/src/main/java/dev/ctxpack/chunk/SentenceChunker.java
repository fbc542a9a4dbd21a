package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.token.EncodedText;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * One chunk per sentence, as the segmenter finds them, a short heading without final punctuation
 * joined to the sentence it opens ({@link SentenceUnits}); a sentence over the maximum is cut between
 * words (a word over the maximum at token boundaries) into as few chunks as fit.
 */
public final class SentenceChunker implements Chunker {
  private final Tokenizer tokenizer;
  private final int maxTokens;

  public SentenceChunker(Tokenizer tokenizer, int maxTokens) {
    this.tokenizer = tokenizer;
    TokenChunker.checkMaxTokens(maxTokens);
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
    EncodedText encoded = EncodedText.of(tokenizer, text);
    List<Integer> counts = new ArrayList<>();
    List<Span> units = new ArrayList<>();
    for (Span sentence : SentenceUnits.of(text, doc.language())) {
      List<Integer> pieceCounts = new ArrayList<>();
      List<Span> pieces = TextUnits.fit(encoded, List.of(sentence), maxTokens, pieceCounts);
      pack(encoded, pieces, pieceCounts, units, counts);
    }
    List<Chunk> out = new ArrayList<>(units.size());
    for (int i = 0; i < units.size(); i++) {
      Span s = units.get(i);
      out.add(new Chunk(Chunker.chunkId(doc.id(), i), doc.id(), s, s.of(text),
          Chunker.sectionAt(sections, s.start()), 0, counts.get(i)));
    }
    return out;
  }

  /**
   * Joins the consecutive pieces of one sentence into as few spans as fit in the maximum, so a
   * sentence over the maximum becomes a few long chunks rather than one chunk per word.
   */
  private void pack(EncodedText encoded, List<Span> pieces, List<Integer> pieceCounts, List<Span> out, List<Integer> counts) {
    int i = 0;
    while (i < pieces.size()) {
      int e = i + 1;
      int estimate = pieceCounts.get(i);
      while (e < pieces.size() && estimate + pieceCounts.get(e) <= maxTokens) {
        estimate += pieceCounts.get(e);
        e++;
      }
      int start = pieces.get(i).start();
      int exact = encoded.count(start, pieces.get(e - 1).end());
      while (exact > maxTokens && e > i + 1) {
        e--;
        exact = encoded.count(start, pieces.get(e - 1).end());
      }
      out.add(new Span(start, pieces.get(e - 1).end()));
      counts.add(exact);
      i = e;
    }
  }
}
