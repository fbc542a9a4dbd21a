package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.EncodedText;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Structure-aware chunks: the text is cut at the strongest boundary that makes the pieces fit, then
 * neighbouring pieces are packed back together up to the maximum.
 *
 * <ol>
 *   <li>sections: a Markdown heading line ({@code #} to {@code ######}) or a loader's section mark
 *       starts a new section, and no chunk crosses a section boundary;
 *   <li>a section over the maximum is cut into paragraphs (at blank lines), a paragraph over it into
 *       lines, a line into sentences (the segmenter, in the document's language), a sentence into
 *       words, and a word into token-bounded pieces (never inside a surrogate pair);
 *   <li>the pieces of a section are packed greedily up to the maximum; a full chunk ends at the
 *       strongest boundary in its second half (a paragraph end rather than a sentence end, a sentence
 *       end rather than a word); with overlap, the next chunk starts with the last whole pieces of the
 *       previous one that fit in the overlap.
 * </ol>
 *
 * <p>The whole text is encoded once ({@link EncodedText}) and every count is exact. Default 300
 * tokens with 15 % overlap, like {@link TokenChunker}.
 */
public final class RecursiveChunker implements Chunker {
  /** Strength of the boundary before a piece: the higher, the better a place to end a chunk. */
  static final int TOKEN = 0;
  static final int WORD = 1;
  static final int SENTENCE = 2;
  static final int LINE = 3;
  static final int PARAGRAPH = 4;
  static final int SECTION = 5;

  private final Tokenizer tokenizer;
  private final int maxTokens;
  private final double overlap;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  public RecursiveChunker(Tokenizer tokenizer, int maxTokens, double overlap) {
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    TokenChunker.checkMaxTokens(maxTokens);
    TokenChunker.checkOverlap(overlap);
    this.maxTokens = maxTokens;
    this.overlap = overlap;
  }

  @Override
  public String name() {
    return "recursive";
  }

  @Override
  public int maxTokens() {
    return maxTokens;
  }

  public double overlap() {
    return overlap;
  }

  @Override
  public String signature() {
    return name() + ":" + maxTokens + ":" + overlap;
  }

  @Override
  public List<Chunk> chunk(Document doc, List<SectionMark> sections) {
    String text = doc.text();
    EncodedText encoded = EncodedText.of(tokenizer, text);
    Pieces pieces = new Pieces();
    List<Integer> starts = sectionStarts(text, sections);
    for (int i = 0; i < starts.size(); i++) {
      int end = i + 1 < starts.size() ? starts.get(i + 1) : text.length();
      split(encoded, doc.language(), starts.get(i), end, PARAGRAPH, SECTION, pieces);
    }
    return Pieces.toChunks(doc, sections,
        pieces.pack(encoded, maxTokens, (int) Math.floor(maxTokens * overlap), SECTION));
  }

  /** Offsets where sections start: 0, each section mark, and each Markdown heading line. */
  static List<Integer> sectionStarts(String text, List<SectionMark> sections) {
    TreeSet<Integer> starts = new TreeSet<>();
    starts.add(0);
    for (SectionMark m : sections) if (m.start() > 0 && m.start() < text.length()) starts.add(m.start());
    for (int ls = 0; ls < text.length(); ) {
      int le = text.indexOf('\n', ls);
      if (le < 0) le = text.length();
      if (ls > 0 && isHeading(text, ls, le)) starts.add(ls);
      ls = le + 1;
    }
    // A mark may fall inside a surrogate pair only through a loader bug; never cut there.
    starts.removeIf(s -> s > 0 && Character.isLowSurrogate(text.charAt(s)) && Character.isHighSurrogate(text.charAt(s - 1)));
    return new ArrayList<>(starts);
  }

  /** A Markdown ATX heading: up to 3 spaces, 1 to 6 {@code #}, then a space or the end of the line. */
  static boolean isHeading(String text, int ls, int le) {
    int i = ls;
    while (i < le && i - ls < 3 && text.charAt(i) == ' ') i++;
    int hashes = 0;
    while (i < le && text.charAt(i) == '#') {
      i++;
      hashes++;
    }
    return hashes >= 1 && hashes <= 6 && (i == le || text.charAt(i) == ' ' || text.charAt(i) == '\t');
  }

  /**
   * Adds the pieces of {@code [start, end)} (trimmed) to {@code out}: the span itself if it fits,
   * else its parts at {@code level}, each split further as needed.
   */
  private void split(EncodedText encoded, Language language, int start, int end, int level, int before, Pieces out) {
    String text = encoded.text();
    while (start < end && SentenceSegmenter.isSpace(text.charAt(start))) start++;
    while (end > start && SentenceSegmenter.isSpace(text.charAt(end - 1))) end--;
    if (start == end) return;
    if (encoded.upperBound(start, end) <= maxTokens || encoded.count(start, end) <= maxTokens) {
      out.add(start, end, encoded.estimate(start, end), before);
      return;
    }
    if (level == TOKEN) {
      List<Span> parts = new ArrayList<>();
      List<Integer> counts = new ArrayList<>();
      TextUnits.splitByTokens(text, new Span(start, end), tokenizer, maxTokens, parts, counts);
      for (int i = 0; i < parts.size(); i++) {
        out.add(parts.get(i).start(), parts.get(i).end(), counts.get(i), i == 0 ? before : TOKEN);
      }
      return;
    }
    List<Span> parts = switch (level) {
      case PARAGRAPH -> lines(text, start, end, true);
      case LINE -> lines(text, start, end, false);
      case SENTENCE -> sentences(text, start, end, language);
      default -> TextUnits.spaceSeparatedWords(text, new Span(start, end));
    };
    if (parts.size() <= 1) {
      split(encoded, language, start, end, level - 1, before, out);
      return;
    }
    for (int i = 0; i < parts.size(); i++) {
      split(encoded, language, parts.get(i).start(), parts.get(i).end(), level - 1, i == 0 ? before : level, out);
    }
  }

  /** Paragraphs (runs of non-blank lines) or single lines of {@code [start, end)}. */
  private static List<Span> lines(String text, int start, int end, boolean paragraphs) {
    List<Span> out = new ArrayList<>();
    int open = -1;
    int lastEnd = start;
    for (int ls = start; ls < end; ) {
      int le = text.indexOf('\n', ls);
      if (le < 0 || le > end) le = end;
      boolean blank = true;
      for (int k = ls; k < le && blank; k++) blank = SentenceSegmenter.isSpace(text.charAt(k));
      if (blank) {
        if (open >= 0) out.add(new Span(open, lastEnd));
        open = -1;
      } else if (!paragraphs) {
        out.add(new Span(ls, le));
      } else {
        if (open < 0) open = ls;
        lastEnd = le;
      }
      ls = le + 1;
    }
    if (open >= 0) out.add(new Span(open, lastEnd));
    return out;
  }

  private List<Span> sentences(String text, int start, int end, Language language) {
    List<Span> out = new ArrayList<>();
    for (Span s : segmenter.split(text.substring(start, end), language)) {
      out.add(new Span(start + s.start(), start + s.end()));
    }
    return out;
  }

}
