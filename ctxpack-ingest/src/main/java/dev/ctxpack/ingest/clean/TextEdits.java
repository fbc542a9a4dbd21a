package dev.ctxpack.ingest.clean;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Edits of one text: sorted, non-overlapping (they may touch), each replacing the non-empty range
 * {@code [start, end)} of the source with {@code replacement} (empty for a removal). They say what
 * the edited text is ({@link #apply}), where an offset of the source lands in it ({@link #map}), and
 * combine with edits of the edited text into edits of the source ({@link #then}), so every stage
 * of cleaning works on the previous stage's output while offsets stay traceable to the loaded text.
 */
final class TextEdits {
  /** One edit, with the reason it was made. */
  record Edit(int start, int end, String replacement, Reason reason) {
    Edit {
      if (start < 0 || end <= start) throw new IllegalArgumentException("edit range must be non-empty, was [" + start + ", " + end + ")");
    }
  }

  static final TextEdits NONE = new TextEdits(List.of());

  private final List<Edit> edits;
  /** Where each edit's replacement starts in the edited text. */
  private final int[] targetStart;
  /** The length change of the edits before edit {@code i} (size + 1 entries). */
  private final int[] shiftBefore;

  private TextEdits(List<Edit> sorted) {
    this.edits = List.copyOf(sorted);
    this.targetStart = new int[sorted.size()];
    this.shiftBefore = new int[sorted.size() + 1];
    int shift = 0;
    for (int i = 0; i < sorted.size(); i++) {
      Edit e = sorted.get(i);
      targetStart[i] = e.start() + shift;
      shiftBefore[i] = shift;
      shift += e.replacement().length() - (e.end() - e.start());
    }
    shiftBefore[sorted.size()] = shift;
  }

  /** The edits, sorted by start; overlapping edits are an error. */
  static TextEdits of(List<Edit> edits) {
    List<Edit> sorted = new ArrayList<>(edits);
    sorted.sort(Comparator.comparingInt(Edit::start));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).start() < sorted.get(i - 1).end()) {
        throw new IllegalArgumentException("edits overlap: " + sorted.get(i - 1) + " and " + sorted.get(i));
      }
    }
    return new TextEdits(sorted);
  }

  List<Edit> edits() {
    return edits;
  }

  boolean isEmpty() {
    return edits.isEmpty();
  }

  String apply(String source) {
    if (edits.isEmpty()) return source;
    StringBuilder sb = new StringBuilder(source.length());
    int pos = 0;
    for (Edit e : edits) {
      sb.append(source, pos, e.start()).append(e.replacement());
      pos = e.end();
    }
    return sb.append(source, pos, source.length()).toString();
  }

  /**
   * Where source offset {@code offset} lands in the edited text: a kept character keeps pointing at
   * itself; an offset inside an edited range points at the start of its replacement, which for a
   * removal is the next kept character.
   */
  int map(int offset) {
    int i = lastStartingAtOrBefore(offset);
    if (i < 0) return offset;
    Edit e = edits.get(i);
    if (offset < e.end()) return targetStart[i];
    return targetStart[i] + e.replacement().length() + (offset - e.end());
  }

  private int lastStartingAtOrBefore(int offset) {
    int lo = 0;
    int hi = edits.size() - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (edits.get(mid).start() <= offset) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * These edits followed by {@code next} (edits of {@code edited}, the text these edits produce), as
   * edits of the source: {@code then(next, edited).apply(source)} equals {@code
   * next.apply(apply(source))}. An edit of {@code next} that cuts into the replacement of one of
   * these edits is widened to cover that replacement whole; it keeps its own reason.
   */
  TextEdits then(TextEdits next, String edited) {
    if (next.isEmpty()) return this;
    if (isEmpty()) return next;
    List<Edit> out = new ArrayList<>();
    boolean[] absorbed = new boolean[edits.size()];
    List<Edit> nx = next.edits();
    int n = edits.size();
    int a = 0;
    int k = 0;
    while (k < nx.size()) {
      int lo = nx.get(k).start();
      int hi = nx.get(k).end();
      int first = k;
      int last = k;
      while (a < n && targetEnd(a) <= lo) a++;
      int j = a;
      boolean grew = true;
      while (grew) {
        grew = false;
        // Widen over the replacements this group cuts into, then take in next's edits that now overlap.
        while (j < n && targetStart[j] < hi) {
          if (targetEnd(j) > targetStart[j]) {
            lo = Math.min(lo, targetStart[j]);
            hi = Math.max(hi, targetEnd(j));
          }
          absorbed[j] = true;
          j++;
        }
        while (last + 1 < nx.size() && nx.get(last + 1).start() < hi) {
          last++;
          hi = Math.max(hi, nx.get(last).end());
          grew = true;
        }
      }
      StringBuilder rep = new StringBuilder();
      int pos = lo;
      for (int x = first; x <= last; x++) {
        rep.append(edited, pos, nx.get(x).start()).append(nx.get(x).replacement());
        pos = nx.get(x).end();
      }
      rep.append(edited, pos, hi);
      out.add(new Edit(sourceStart(lo), sourceEnd(hi), rep.toString(), nx.get(first).reason()));
      a = j;
      k = last + 1;
    }
    for (int i = 0; i < n; i++) if (!absorbed[i]) out.add(edits.get(i));
    return of(out);
  }

  private int targetEnd(int i) {
    return targetStart[i] + edits.get(i).replacement().length();
  }

  /** The source offset of edited offset {@code t} as a range start: after the edits that end at or before it. */
  private int sourceStart(int t) {
    int lo = 0;
    int hi = edits.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (targetEnd(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return t - shiftBefore[lo];
  }

  /** The source offset of edited offset {@code t} as a range end: before removals that sit exactly at it. */
  private int sourceEnd(int t) {
    int lo = 0;
    int hi = edits.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int te = targetEnd(mid);
      if (te < t || (te == t && te > targetStart[mid])) lo = mid + 1;
      else hi = mid;
    }
    return t - shiftBefore[lo];
  }
}
