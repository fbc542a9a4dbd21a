package dev.ctxpack.ingest.clean;

import dev.ctxpack.ingest.clean.TextEdits.Edit;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/** The normalising stages of cleaning as edits: storage form (BOM, line endings, NFC) and whitespace. */
final class Normalization {
  private Normalization() {}

  /** BOM, line endings and NFC as edits of {@code text}. */
  static TextEdits storageEdits(String text) {
    List<Edit> first = new ArrayList<>();
    if (text.startsWith("\uFEFF")) first.add(new Edit(0, 1, "", Reason.UNICODE));
    for (int i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
      boolean crlf = i + 1 < text.length() && text.charAt(i + 1) == '\n';
      first.add(new Edit(i, i + 1, crlf ? "" : "\n", Reason.WHITESPACE));
    }
    TextEdits a = TextEdits.of(first);
    String t = a.apply(text);
    if (Normalizer.isNormalized(t, Normalizer.Form.NFC)) return a;
    return a.then(nfcEdits(t), t);
  }

  /** NFC as edits: one per combining sequence that changes, else per line, else the whole text. */
  static TextEdits nfcEdits(String t) {
    String whole = Normalizer.normalize(t, Normalizer.Form.NFC);
    List<Integer> bounds = new ArrayList<>();
    for (int i = 0; i < t.length(); ) {
      int cp = t.codePointAt(i);
      if (i == 0 || starter(cp)) bounds.add(i);
      i += Character.charCount(cp);
    }
    bounds.add(t.length());
    for (List<Integer> b : List.of(bounds, lineBounds(t))) {
      List<Edit> edits = new ArrayList<>();
      for (int k = 0; k + 1 < b.size(); k++) {
        String seg = t.substring(b.get(k), b.get(k + 1));
        if (seg.isEmpty() || Normalizer.isNormalized(seg, Normalizer.Form.NFC)) continue;
        edits.add(new Edit(b.get(k), b.get(k + 1), Normalizer.normalize(seg, Normalizer.Form.NFC), Reason.UNICODE));
      }
      TextEdits e = TextEdits.of(edits);
      if (e.apply(t).equals(whole)) return e;
    }
    return t.isEmpty() ? TextEdits.NONE : TextEdits.of(List.of(new Edit(0, t.length(), whole, Reason.UNICODE)));
  }

  private static boolean starter(int cp) {
    int type = Character.getType(cp);
    if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.COMBINING_SPACING_MARK) {
      return false;
    }
    return !(cp >= 0x1160 && cp <= 0x11FF) && !(cp >= 0xD7B0 && cp <= 0xD7FF);
  }

  private static List<Integer> lineBounds(String t) {
    List<Integer> b = new ArrayList<>();
    b.add(0);
    for (int i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) b.add(i + 1);
    if (b.get(b.size() - 1) != t.length()) b.add(t.length());
    return b;
  }

  static boolean horizontalSpace(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == '\u000B' || Character.getType(c) == Character.SPACE_SEPARATOR;
  }

  /** Whitespace normalisation of LF text as edits; fenced code is left alone. */
  static TextEdits whitespaceEdits(String t) {
    List<Edit> edits = new ArrayList<>();
    int lastContentEnd = -1;
    boolean fenced = false;
    boolean previousBlank = true;
    for (int pos = 0; pos <= t.length(); ) {
      int nl = t.indexOf('\n', pos);
      int end = nl < 0 ? t.length() : nl;
      int next = nl < 0 ? t.length() + 1 : nl + 1;
      boolean fence = Lines.fence(t.substring(pos, end));
      if (fenced && !fence) {
        lastContentEnd = end;
        previousBlank = false;
        pos = next;
        continue;
      }
      if (fence) fenced = !fenced;
      int first = pos;
      while (first < end && horizontalSpace(t.charAt(first))) first++;
      if (first == end) {
        // A blank line: emptied; dropped when it follows another blank line or opens the text.
        if (previousBlank && nl >= 0) edits.add(new Edit(pos, nl + 1, "", Reason.WHITESPACE));
        else if (end > pos) edits.add(new Edit(pos, end, "", Reason.WHITESPACE));
        previousBlank = true;
      } else {
        int i = first;
        while (i < end) {
          if (!horizontalSpace(t.charAt(i))) {
            i++;
            continue;
          }
          int j = i;
          while (j < end && horizontalSpace(t.charAt(j))) j++;
          if (j == end) edits.add(new Edit(i, j, "", Reason.WHITESPACE));
          else if (j - i > 1 || t.charAt(i) != ' ') edits.add(new Edit(i, j, " ", Reason.WHITESPACE));
          i = j;
        }
        lastContentEnd = end;
        previousBlank = false;
      }
      pos = next;
    }
    // Trailing blank lines and the last line break: whatever follows the last content goes.
    int from = Math.max(lastContentEnd, 0);
    if (from < t.length()) {
      edits.removeIf(e -> e.end() > from);
      edits.add(new Edit(from, t.length(), "", Reason.WHITESPACE));
    }
    return TextEdits.of(edits);
  }
}
