package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.token.EncodedText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Pieces of a text in order, each with its exact token count and the strength of the boundary before
 * it, and the packing of neighbouring pieces into chunks. Shared by the chunkers that cut first and
 * pack after (recursive, passage, semantic).
 */
final class Pieces {
  private int size;
  private int[] starts = new int[64];
  private int[] ends = new int[64];
  private int[] counts = new int[64];
  private int[] before = new int[64];

  /** A packed span and its exact token count. */
  record Packed(Span span, int tokens) {}

  int size() {
    return size;
  }

  int start(int i) {
    return starts[i];
  }

  int end(int i) {
    return ends[i];
  }

  int count(int i) {
    return counts[i];
  }

  void add(int start, int end, int count, int strength) {
    if (size == starts.length) {
      starts = Arrays.copyOf(starts, size * 2);
      ends = Arrays.copyOf(ends, size * 2);
      counts = Arrays.copyOf(counts, size * 2);
      before = Arrays.copyOf(before, size * 2);
    }
    starts[size] = start;
    ends[size] = end;
    counts[size] = count;
    before[size] = strength;
    size++;
  }

  /**
   * Packs neighbouring pieces greedily into spans of at most {@code max} tokens, never across a
   * boundary of strength {@code hard} or more. A full span ends at the strongest boundary of its
   * second half (the latest among equals). With {@code overlapTokens > 0}, the next span starts with
   * the last whole pieces of the previous one that fit in the overlap (never across a hard boundary).
   * Every count is exact: candidate spans are estimated from the whole-text encoding, then counted.
   * The pieces' own counts may be estimates (see {@link TextUnits#fit}).
   */
  List<Packed> pack(EncodedText encoded, int max, int overlapTokens, int hard) {
    List<Packed> out = new ArrayList<>();
    int i = 0;
    int covered = 0; // pieces [0, covered) are in the spans so far
    while (i < size) {
      int start = starts[i];
      int e = i + 1;
      while (e < size && before[e] < hard && encoded.estimate(start, ends[e]) <= max) e++;
      int exact = countOf(encoded, i, e);
      while (exact > max && e > i + 1) {
        e--;
        exact = countOf(encoded, i, e);
      }
      if (e < size && before[e] < hard && e > i + 1) {
        int best = e;
        for (int k = e - 1; k > Math.max(i, covered); k--) {
          if (before[k] > before[best] && 2 * encoded.estimate(start, ends[k - 1]) >= max) best = k;
        }
        if (best != e) {
          e = best;
          exact = countOf(encoded, i, e);
        }
      }
      if (e <= covered) {
        // The overlap left no room for a new piece: give up its first piece.
        i++;
        continue;
      }
      covered = e;
      out.add(new Packed(new Span(start, ends[e - 1]), exact));
      if (e >= size || before[e] >= hard || overlapTokens == 0) {
        i = e;
      } else {
        int k = e;
        while (k - 1 > i && encoded.estimate(starts[k - 1], ends[e - 1]) <= overlapTokens) k--;
        i = k;
      }
    }
    return out;
  }

  private int countOf(EncodedText encoded, int from, int to) {
    return encoded.count(starts[from], ends[to - 1]);
  }

  /** Chunks {@code docId#0, docId#1…} of the packed spans, each labelled with its section. */
  static List<Chunk> toChunks(Document doc, List<Chunker.SectionMark> sections, List<Packed> packed) {
    List<Chunk> out = new ArrayList<>(packed.size());
    for (Packed p : packed) {
      Span s = p.span();
      out.add(new Chunk(Chunker.chunkId(doc.id(), out.size()), doc.id(), s, s.of(doc.text()),
          Chunker.sectionAt(sections, s.start()), 0, p.tokens()));
    }
    return out;
  }
}
