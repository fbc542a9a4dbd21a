package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.token.EncodedText;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Disjoint passages of a fixed number of words (100 by default), as Dense Passage Retrieval cut
 * Wikipedia: word-aligned, no overlap, blind to sentences. The token maximum stays hard: a passage
 * whose words need more tokens ends earlier (at a word), and a word over the maximum is cut at token
 * boundaries. A passage never crosses a section boundary (a section mark or a Markdown heading), so
 * the last passage of a section may be short.
 */
public final class PassageChunker implements Chunker {
  public static final int DEFAULT_WORDS = 100;

  private final Tokenizer tokenizer;
  private final int maxTokens;
  private final int words;

  public PassageChunker(Tokenizer tokenizer, int maxTokens, int words) {
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    TokenChunker.checkMaxTokens(maxTokens);
    if (words < 1) throw new IllegalArgumentException("words per passage must be >= 1, was " + words);
    this.maxTokens = maxTokens;
    this.words = words;
  }

  @Override
  public String name() {
    return "passage";
  }

  @Override
  public int maxTokens() {
    return maxTokens;
  }

  public int words() {
    return words;
  }

  @Override
  public String signature() {
    return name() + ":" + maxTokens + ":w" + words;
  }

  @Override
  public List<Chunk> chunk(Document doc, List<SectionMark> sections) {
    String text = doc.text();
    EncodedText encoded = EncodedText.of(tokenizer, text);
    List<Integer> starts = RecursiveChunker.sectionStarts(text, sections);
    List<Chunk> out = new ArrayList<>();
    for (int si = 0; si < starts.size(); si++) {
      int end = si + 1 < starts.size() ? starts.get(si + 1) : text.length();
      // Words over the maximum become several pieces; each piece counts as a word.
      Pieces pieces = new Pieces();
      for (Span w : TextUnits.spaceSeparatedWords(text, new Span(starts.get(si), end))) {
        if (encoded.upperBound(w.start(), w.end()) <= maxTokens || encoded.count(w.start(), w.end()) <= maxTokens) {
          pieces.add(w.start(), w.end(), encoded.estimate(w.start(), w.end()), RecursiveChunker.WORD);
          continue;
        }
        List<Span> parts = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        TextUnits.splitByTokens(text, w, tokenizer, maxTokens, parts, counts);
        for (int k = 0; k < parts.size(); k++) {
          pieces.add(parts.get(k).start(), parts.get(k).end(), counts.get(k), RecursiveChunker.WORD);
        }
      }
      int i = 0;
      while (i < pieces.size()) {
        int e = Math.min(pieces.size(), i + words);
        int exact = count(encoded, pieces, i, e);
        while (exact > maxTokens && e > i + 1) {
          // Too many tokens for these words: drop words by the estimate, then count again.
          int fit = encoded.guessEnd(pieces.start(i), pieces.end(e - 1), maxTokens);
          int e2 = e - 1;
          while (e2 > i + 1 && pieces.end(e2 - 1) > fit) e2--;
          e = e2;
          exact = count(encoded, pieces, i, e);
        }
        Span s = new Span(pieces.start(i), pieces.end(e - 1));
        out.add(new Chunk(Chunker.chunkId(doc.id(), out.size()), doc.id(), s, s.of(text),
            Chunker.sectionAt(sections, s.start()), 0, exact));
        i = e;
      }
    }
    return out;
  }

  private static int count(EncodedText encoded, Pieces pieces, int from, int to) {
    return encoded.count(pieces.start(from), pieces.end(to - 1));
  }
}
