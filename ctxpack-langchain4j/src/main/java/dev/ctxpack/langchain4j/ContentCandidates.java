package dev.ctxpack.langchain4j;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.retrieve.GivenCandidates;
import dev.ctxpack.text.TextNormalizer;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LangChain4j contents as ctxpack candidates. Every occurrence of a content is a candidate of its own
 * (a chunk two retrievers returned is two candidates with one text: the dedup cascade merges them and
 * cites both), with a unique id: the chunk id its metadata names ({@link CtxpackMetadata#CHUNK_ID_KEYS},
 * else {@code docId#index}, else a hash of the text), {@code @2}, {@code @3}... on repeats.
 *
 * <p>A segment whose metadata names a document ({@link CtxpackMetadata#DOC_ID_KEYS}) and an offset
 * ({@link CtxpackMetadata#START_KEYS}) keeps them, so the cascade's overlap level stitches windows of
 * one document. Without an offset the candidate gets a document of its own (unknown offsets must
 * never be taken to overlap) unless {@code inferOffsets} is on: then the segments of one document are
 * placed (by {@code index} when present) where their texts overlap, a suffix of one equal to a prefix
 * of the next over at least {@value #MIN_OVERLAP} characters, and a gap apart otherwise.
 */
final class ContentCandidates {
  /** The shortest text overlap taken as two windows of one document overlapping. */
  static final int MIN_OVERLAP = 24;

  /** The candidates, in order, and where each candidate id came from. */
  record Given(List<Candidate> candidates, Map<String, Origin> origins) {}

  /** The content a candidate came from and the document its metadata names (null when none). */
  record Origin(Content content, String docKey) {}

  private ContentCandidates() {}

  /**
   * {@code lists} as candidates: {@code fused} lists (one list a fuser or reranker ordered) score
   * {@code 1 / (1 + rank)}, unfused ones reciprocal-rank {@code 1 / (61 + rank)}.
   */
  static Given of(List<List<Content>> lists, boolean fused, boolean inferOffsets) {
    List<Item> items = new ArrayList<>();
    for (List<Content> list : lists) {
      int rank = 0;
      for (Content c : list) {
        if (c == null || c.textSegment() == null) continue;
        String text = c.textSegment().text();
        if (text == null || text.isBlank()) continue;
        items.add(new Item(c, text, strings(c.textSegment()), fused ? 1.0 / (1 + rank) : 1.0 / (61 + rank)));
        rank++;
      }
    }
    Map<String, Integer> used = new HashMap<>();
    for (Item it : items) {
      String base = first(it.md, CtxpackMetadata.CHUNK_ID_KEYS);
      if (base == null && it.docKey != null && it.md.containsKey(CtxpackMetadata.INDEX)) {
        base = it.docKey + "#" + it.md.get(CtxpackMetadata.INDEX);
      }
      if (base == null) base = "c-" + TextNormalizer.sha256Hex(it.text).substring(0, 12);
      int n = used.merge(base, 1, Integer::sum);
      it.id = n == 1 ? base : base + "@" + n;
    }
    if (inferOffsets) infer(items);
    List<Candidate> out = new ArrayList<>(items.size());
    Map<String, Origin> origins = new LinkedHashMap<>();
    for (Item it : items) {
      boolean placed = it.start >= 0;
      String doc = placed ? it.docKey : it.id;
      Map<String, String> meta = new LinkedHashMap<>();
      for (var e : it.md.entrySet()) if (!e.getKey().startsWith("ctxpack.")) meta.put(e.getKey(), e.getValue());
      if (!placed && it.docKey != null) meta.put("document", it.docKey);
      out.add(GivenCandidates.candidate(it.id, doc, it.text, placed ? it.start : 0, first(it.md, CtxpackMetadata.TITLE_KEYS),
          first(it.md, CtxpackMetadata.URI_KEYS), meta, it.score));
      origins.put(it.id, new Origin(it.content, it.docKey));
    }
    return new Given(out, origins);
  }

  /** Places the segments of each document that have no offset where their texts overlap. */
  private static void infer(List<Item> items) {
    Map<String, List<Item>> byDoc = new LinkedHashMap<>();
    for (Item it : items) if (it.start < 0 && it.docKey != null) byDoc.computeIfAbsent(it.docKey, d -> new ArrayList<>()).add(it);
    for (List<Item> doc : byDoc.values()) {
      if (doc.size() < 2) continue;
      List<Item> order = new ArrayList<>(doc);
      order.sort(Comparator.comparingLong(ContentCandidates::index)); // stable: given order for equal or missing indexes
      List<Item> placed = new ArrayList<>();
      Map<String, Item> byText = new HashMap<>();
      int end = 0;
      for (Item it : order) {
        Item same = byText.get(it.text);
        if (same != null) { // the same window again: the same place, so exact dedup and stitching agree
          it.start = same.start;
          continue;
        }
        int at = -1;
        for (Item p : placed) {
          int overlap = overlap(p.text, it.text);
          if (overlap >= MIN_OVERLAP) {
            at = p.start + p.text.length() - overlap;
            break;
          }
        }
        it.start = at >= 0 ? at : (placed.isEmpty() ? 0 : end + 1); // a gap: unrelated windows never touch
        end = Math.max(end, it.start + it.text.length());
        placed.add(it);
        byText.put(it.text, it);
      }
    }
  }

  /** The length of the longest suffix of {@code a} that is a prefix of {@code b}, shorter than both. */
  static int overlap(String a, String b) {
    int max = Math.min(a.length(), b.length()) - 1;
    for (int n = max; n >= MIN_OVERLAP; n--) {
      if (a.regionMatches(a.length() - n, b, 0, n)) return n;
    }
    return 0;
  }

  private static long index(Item it) {
    String v = it.md.get(CtxpackMetadata.INDEX);
    if (v == null) return Long.MAX_VALUE;
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private static Map<String, String> strings(TextSegment s) {
    Map<String, String> out = new LinkedHashMap<>();
    if (s.metadata() == null) return out;
    for (var e : s.metadata().toMap().entrySet()) {
      if (e.getValue() != null) out.put(e.getKey(), String.valueOf(e.getValue()));
    }
    return out;
  }

  static String first(Map<String, String> md, List<String> keys) {
    for (String k : keys) {
      String v = md.get(k);
      if (v != null && !v.isBlank()) return v;
    }
    return null;
  }

  private static final class Item {
    final Content content;
    final String text;
    final Map<String, String> md;
    final String docKey;
    final double score;
    String id;
    int start;

    Item(Content content, String text, Map<String, String> md, double score) {
      this.content = content;
      this.text = text;
      this.md = md;
      this.score = score;
      this.docKey = first(md, CtxpackMetadata.DOC_ID_KEYS);
      this.start = parseStart(first(md, CtxpackMetadata.START_KEYS), docKey);
    }

    private static int parseStart(String v, String docKey) {
      if (v == null || docKey == null) return -1;
      try {
        int s = Integer.parseInt(v.trim());
        return s >= 0 ? s : -1;
      } catch (NumberFormatException e) {
        return -1;
      }
    }
  }
}
