package dev.ctxpack.ingest.clean;

import dev.ctxpack.chunk.Chunker.SectionMark;
import dev.ctxpack.ingest.LoadedDocument;
import dev.ctxpack.ingest.clean.TextEdits.Edit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a loaded document into the text that is stored, recording what it removed. In order:
 *
 * <ol>
 *   <li>storage form: a leading byte-order mark dropped, CR and CRLF line endings made LF, Unicode
 *       NFC (what {@link dev.ctxpack.text.TextNormalizer#storageForm} does, here with offsets kept);
 *   <li>lines removed: running heads and feet (a line at the top or bottom of at least {@code
 *       pageShare} of the pages, the same there or alike but for digits that count with the pages,
 *       so "Page 3 of 10" on page 3 matches "Page 4 of 10" on page 4 while table rows alike but for
 *       their figures stay, {@link PageNumbering}); short
 *       lines that are boilerplate across the corpus ({@link CorpusLines}) or repeat {@code
 *       repeatsInDocument} times in the document, with or without page breaks; bare page numbers
 *       counting up through a document without page breaks; matches of the
 *       {@code remove} patterns. A line that opens a section (a heading the loader marked), a line
 *       in fenced code, a table row, indented code and a numbered heading are never removed for
 *       repeating;
 *   <li>whitespace: runs of spaces and tabs inside a line become one space (indentation is kept),
 *       trailing spaces go, runs of blank lines become one, the text is trimmed at both ends; fenced
 *       code is left alone.
 * </ol>
 *
 * Every removal of step 2 is a {@link Removal} with its offsets and text in the loaded text; the
 * others are counted. Section marks and page starts are moved onto the cleaned text: each points
 * at the character it pointed at before or, if that was removed, at the next kept one. The same
 * document, options and corpus statistics always give the same result.
 */
public final class Cleaner {
  /** Non-blank lines at the top (bottom) of a page where running heads (feet) are looked for. */
  static final int PAGE_EDGE_LINES = 3;
  /** Lines alike but for digits that count with the pages are running heads up to this long (folded). */
  static final int MAX_NUMBERED_HEAD_CHARS = 80;
  /** Bare page numbers without page breaks: at least this many counting up ... */
  static final int PAGE_NUMBER_RUN = 3;
  /** ... at least this many non-blank lines apart. */
  static final int PAGE_NUMBER_GAP = 8;
  private final CleanOptions options;
  private final List<Pattern> patterns;

  public Cleaner(CleanOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.patterns = options.remove().stream().map(CleanOptions::compile).toList();
  }

  public CleanOptions options() {
    return options;
  }

  /** Cleans {@code doc}; {@code corpus} may be null (no corpus-level detection). */
  public Cleaned clean(LoadedDocument doc, CorpusLines corpus) {
    if (!options.enabled()) return new Cleaned(doc, List.of(), Map.of());
    Map<String, Integer> counts = new TreeMap<>();
    String t0 = doc.text();
    TextEdits storage = Normalization.storageEdits(t0);
    count(counts, storage);
    String t1 = storage.apply(t0);

    TextEdits lines = lineRemovals(t1, storage, doc, corpus);
    count(counts, lines);
    TextEdits edits = storage.then(lines, t1);
    String t2 = lines.apply(t1);
    List<Removal> removals = new ArrayList<>();
    for (Edit e : edits.edits()) {
      if (e.reason().recorded()) removals.add(new Removal(e.reason(), e.start(), e.end(), t0.substring(e.start(), e.end())));
    }

    TextEdits space = Normalization.whitespaceEdits(t2);
    count(counts, space);
    edits = edits.then(space, t2);
    String text = space.apply(t2);
    // A removal can bring a combining mark next to a base or a later BOM to the front: store NFC still.
    TextEdits again = Normalization.storageEdits(text);
    if (!again.isEmpty()) {
      count(counts, again);
      edits = edits.then(again, text);
      text = again.apply(text);
    }

    List<SectionMark> sections = new ArrayList<>(doc.sections().size());
    for (SectionMark m : doc.sections()) sections.add(new SectionMark(edits.map(m.start()), m.path()));
    List<Integer> pages = new ArrayList<>(doc.pages().size());
    for (int p : doc.pages()) pages.add(edits.map(p));
    LoadedDocument cleaned = new LoadedDocument(doc.id(), doc.uri(), doc.title(), text, doc.metadata(), sections, pages,
        doc.replacedChars());
    return new Cleaned(cleaned, removals, counts);
  }

  private static void count(Map<String, Integer> counts, TextEdits edits) {
    for (Edit e : edits.edits()) counts.merge(e.reason().label(), 1, Integer::sum);
  }

  // ---- step 2: lines ----

  /** A candidate removal in the storage-form text, before overlapping ones are merged. */
  private record Cut(int start, int end, Reason reason) {}

  private TextEdits lineRemovals(String t, TextEdits storage, LoadedDocument doc, CorpusLines corpus) {
    List<Integer> starts = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    for (int pos = 0; ; ) {
      int nl = t.indexOf('\n', pos);
      starts.add(pos);
      ends.add(nl < 0 ? t.length() : nl);
      if (nl < 0) break;
      pos = nl + 1;
    }
    int n = starts.size();
    Set<Integer> headings = new HashSet<>();
    for (SectionMark m : doc.sections()) headings.add(storage.map(m.start()));
    boolean[] protectedLine = new boolean[n];
    String[] keys = new String[n];
    boolean fenced = false;
    for (int i = 0; i < n; i++) {
      String raw = t.substring(starts.get(i), ends.get(i));
      if (Lines.fence(raw)) {
        protectedLine[i] = true;
        fenced = !fenced;
      } else {
        protectedLine[i] = fenced || headings.contains(starts.get(i));
      }
      keys[i] = ends.get(i) - starts.get(i) > 4 * options.maxLineChars() ? "" : Lines.key(raw);
    }
    List<Cut> cuts = new ArrayList<>();
    pageEdges(t, doc, storage, starts, keys, protectedLine, cuts);
    repeated(t, starts, ends, keys, protectedLine, corpus, cuts);
    // Boilerplate is what surrounds a document's own text: when the lines found repeating are all it
    // has (templated one-line records alike but for their figures), they are its text and stay.
    if (leavesNothing(t, cuts)) cuts.clear();
    for (Pattern p : patterns) regex(t, p, cuts);
    cuts.sort(Comparator.comparingInt(Cut::start).thenComparing(Cut::reason));
    List<Edit> merged = new ArrayList<>();
    for (Cut c : cuts) {
      if (c.start() >= c.end()) continue;
      Edit last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && c.start() < last.end()) {
        if (c.end() > last.end()) merged.set(merged.size() - 1, new Edit(last.start(), c.end(), "", last.reason()));
      } else {
        merged.add(new Edit(c.start(), c.end(), "", c.reason()));
      }
    }
    return TextEdits.of(merged);
  }

  /** Whether removing {@code cuts} would leave {@code t} without a non-blank character. */
  private static boolean leavesNothing(String t, List<Cut> cuts) {
    if (cuts.isEmpty()) return false;
    boolean[] cut = new boolean[t.length()];
    for (Cut c : cuts) java.util.Arrays.fill(cut, c.start(), c.end(), true);
    for (int i = 0; i < t.length(); i++) if (!cut[i] && !Character.isWhitespace(t.charAt(i))) return false;
    return true;
  }

  /** The range of line {@code i} with its line break. */
  private static Cut lineCut(String t, List<Integer> starts, int i, Reason reason) {
    int end = i + 1 < starts.size() ? starts.get(i + 1) : t.length();
    return new Cut(starts.get(i), end, reason);
  }

  /**
   * Running heads and feet: a line in the edge zone of at least {@code need} pages, the same there
   * with its digits, or alike but for digits that count with the pages ("Page 3 of 10" on page 3,
   * "Page 4 of 10" on page 4, with any constant offset). Lines alike but for other figures (table
   * rows "Total 1234" that happen to open or close pages) are content and stay, as do lines longer
   * than {@link #MAX_NUMBERED_HEAD_CHARS} whose figures happen to count with the pages.
   */
  private void pageEdges(String t, LoadedDocument doc, TextEdits storage, List<Integer> starts, String[] keys,
      boolean[] protectedLine, List<Cut> cuts) {
    if (doc.pages().size() < 2) return;
    int n = starts.size();
    // The lines of each page: from the line holding its first character to the line before the next
    // page's; with the page's index in the document.
    List<int[]> pages = new ArrayList<>();
    int[] pageStarts = doc.pages().stream().mapToInt(p -> storage.map(Math.min(Math.max(p, 0), doc.text().length()))).toArray();
    for (int p = 0; p < pageStarts.length; p++) {
      int from = lineOf(starts, pageStarts[p]);
      int to = p + 1 < pageStarts.length ? lineOf(starts, pageStarts[p + 1]) : n;
      if (p + 1 < pageStarts.length && pageStarts[p + 1] > starts.get(lineOf(starts, pageStarts[p + 1]))) to++;
      if (to > from) pages.add(new int[] {from, Math.min(to, n), p});
    }
    if (pages.size() < 2) return;
    int need = Math.max(2, (int) Math.ceil(options.pageShare() * pages.size()));
    for (boolean top : new boolean[] {true, false}) {
      Map<String, Integer> onPages = new HashMap<>();
      Map<String, Integer> exactOnPages = new HashMap<>();
      Map<String, PageNumbering> numbering = new HashMap<>();
      List<List<Integer>> zones = new ArrayList<>();
      String[] exact = new String[n];
      long[][] numbers = new long[n][];
      for (int[] pg : pages) {
        List<Integer> zone = edgeLines(pg, keys, top);
        zones.add(zone);
        Set<String> distinct = new HashSet<>();
        Set<String> distinctExact = new HashSet<>();
        for (int i : zone) {
          if (protectedLine[i] || keys[i].length() > options.maxLineChars()) continue;
          String raw = t.substring(starts.get(i), i + 1 < n ? starts.get(i + 1) : t.length());
          exact[i] = Lines.exactKey(raw);
          numbers[i] = Lines.numbers(raw);
          distinct.add(keys[i]);
          distinctExact.add(exact[i]);
          numbering.computeIfAbsent(keys[i], k -> new PageNumbering()).add(pg[2], numbers[i]);
        }
        for (String k : distinct) onPages.merge(k, 1, Integer::sum);
        for (String k : distinctExact) exactOnPages.merge(k, 1, Integer::sum);
      }
      for (int z = 0; z < zones.size(); z++) {
        for (int i : zones.get(z)) {
          if (exact[i] == null || onPages.getOrDefault(keys[i], 0) < need) continue;
          if (exactOnPages.get(exact[i]) >= need || keys[i].length() <= MAX_NUMBERED_HEAD_CHARS
              && numbering.get(keys[i]).counts(pages.get(z)[2], numbers[i], need)) {
            cuts.add(lineCut(t, starts, i, top ? Reason.PAGE_HEADER : Reason.PAGE_FOOTER));
          }
        }
      }
    }
  }

  /** The index of the line holding char {@code offset}. */
  private static int lineOf(List<Integer> starts, int offset) {
    int lo = 0;
    int hi = starts.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (starts.get(mid) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * The first (last) non-blank lines of a page: up to {@link #PAGE_EDGE_LINES}, and at most half the
   * page's non-blank lines, so the top and bottom of a short page do not overlap.
   */
  private static List<Integer> edgeLines(int[] page, String[] keys, boolean top) {
    int nonBlank = 0;
    for (int i = page[0]; i < page[1]; i++) if (!keys[i].isEmpty()) nonBlank++;
    int size = Math.min(PAGE_EDGE_LINES, Math.max(1, nonBlank / 2));
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < page[1] - page[0] && out.size() < size; k++) {
      int i = top ? page[0] + k : page[1] - 1 - k;
      if (!keys[i].isEmpty()) out.add(i);
    }
    return out;
  }

  private void repeated(String t, List<Integer> starts, List<Integer> ends, String[] keys, boolean[] protectedLine,
      CorpusLines corpus, List<Cut> cuts) {
    int n = starts.size();
    boolean[] candidate = new boolean[n];
    String[] docKeys = new String[n];
    Map<String, Integer> inDoc = new HashMap<>();
    for (int i = 0; i < n; i++) {
      if (protectedLine[i]) continue;
      String raw = t.substring(starts.get(i), ends.get(i));
      candidate[i] = Lines.repeatable(raw, keys[i], options.maxLineChars());
      if (!candidate[i]) continue;
      docKeys[i] = Lines.documentKey(raw, keys[i]);
      inDoc.merge(docKeys[i], 1, Integer::sum);
    }
    pageNumbers(t, starts, ends, protectedLine, cuts);
    boolean useCorpus = corpus != null && corpus.active();
    for (int i = 0; i < n; i++) {
      if (!candidate[i]) continue;
      boolean repeatedHere = options.repeatsInDocument() > 0 && inDoc.get(docKeys[i]) >= options.repeatsInDocument();
      if (repeatedHere || (useCorpus && corpus.frequent(keys[i]))) cuts.add(lineCut(t, starts, i, Reason.REPEATED_LINE));
    }
  }

  /**
   * Page numbers without page breaks: lines that are only a number ("12", "— 12 —"), counting up by
   * one at least {@link #PAGE_NUMBER_RUN} times, each at least {@link #PAGE_NUMBER_GAP} non-blank
   * lines after the previous (so a column of row numbers is not taken for them).
   */
  private void pageNumbers(String t, List<Integer> starts, List<Integer> ends, boolean[] protectedLine, List<Cut> cuts) {
    if (options.repeatsInDocument() == 0) return;
    List<int[]> numbers = new ArrayList<>();
    int nonBlank = 0;
    for (int i = 0; i < starts.size(); i++) {
      String raw = t.substring(starts.get(i), ends.get(i));
      if (raw.isBlank()) continue;
      nonBlank++;
      int n = protectedLine[i] ? -1 : Lines.bareNumber(raw);
      if (n >= 0) numbers.add(new int[] {i, n, nonBlank});
    }
    List<int[]> run = new ArrayList<>();
    for (int[] x : numbers) {
      int[] last = run.isEmpty() ? null : run.get(run.size() - 1);
      if (last != null && x[1] == last[1] + 1 && x[2] - last[2] >= PAGE_NUMBER_GAP) {
        run.add(x);
        continue;
      }
      if (last != null && x[1] == last[1] + 1) continue;
      flushRun(t, starts, run, cuts);
      run.clear();
      run.add(x);
    }
    flushRun(t, starts, run, cuts);
  }

  private static void flushRun(String t, List<Integer> starts, List<int[]> run, List<Cut> cuts) {
    if (run.size() < PAGE_NUMBER_RUN) return;
    for (int[] x : run) cuts.add(lineCut(t, starts, x[0], Reason.REPEATED_LINE));
  }

  /** Every non-empty match; one that leaves its lines blank takes the whole lines with it. */
  private static void regex(String t, Pattern p, List<Cut> cuts) {
    Matcher m = p.matcher(t);
    while (m.find()) {
      int s = m.start();
      int e = m.end();
      if (s == e) continue;
      int ls = t.lastIndexOf('\n', s - 1) + 1;
      boolean endsLine = t.charAt(e - 1) == '\n';
      int le = endsLine ? e - 1 : (t.indexOf('\n', e) < 0 ? t.length() : t.indexOf('\n', e));
      if (t.substring(ls, s).isBlank() && t.substring(endsLine ? e - 1 : e, le).isBlank()) {
        cuts.add(new Cut(ls, endsLine ? e : Math.min(le + 1, t.length()), Reason.REGEX));
      } else {
        cuts.add(new Cut(s, e, Reason.REGEX));
      }
    }
  }

}
