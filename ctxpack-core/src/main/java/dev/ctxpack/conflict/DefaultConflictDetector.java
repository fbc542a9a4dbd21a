package dev.ctxpack.conflict;

import dev.ctxpack.dedup.KeptApart;
import dev.ctxpack.similarity.Guard;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Passage;
import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The default {@link ConflictDetector}: the selected passages disagree when
 *
 * <ul>
 *   <li>{@code number} / {@code date}: the dedup cascade matched the two passages (near or
 *       semantic level) and its {@link Guard} kept them apart because a number (with unit or
 *       currency) or a month differs between their aligned sentences: the guard's decisions are
 *       reused, the figures each states are the guard's {@link Guard#cues cues};
 *   <li>{@code version}: two different documents with the same URI or the same title (case and
 *       accents folded) and different dates, once per pair of documents.
 * </ul>
 *
 * Passages of one document are never paired. Each pair is reported once, newer first when both
 * dates are ISO dates ({@code yyyy[-mm[-dd]]}) that differ. Stateless; thread-safe.
 */
public final class DefaultConflictDetector implements ConflictDetector {

  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}(-\\d{2}(-\\d{2})?)?");

  /**
   * The disagreeing pairs of {@code passages}: each pair the dedup stage kept apart for a number or
   * date ({@code keptApart}), and the first pair of passages of every two dated versions of one
   * document. With {@code withValues} off (PII redaction on), neither the values nor the guard's
   * detail, which quote the text, are kept.
   */
  @Override
  public List<Conflict> detect(List<Passage> passages, List<KeptApart> keptApart, boolean withValues) {
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < passages.size(); i++) at.put(passages.get(i).id(), i);
    Map<String, KeptApart> kept = new HashMap<>(); // "i j" (i < j) -> the first pair kept apart for a figure
    for (KeptApart k : keptApart) {
      if (!k.difference().isFigure()) continue;
      Integer x = at.get(k.into());
      Integer y = at.get(k.passage());
      if (x == null || y == null || x.equals(y)) continue;
      kept.putIfAbsent(Math.min(x, y) + " " + Math.max(x, y), k);
    }
    Set<String> versions = new HashSet<>(); // document pairs already reported as versions
    List<Conflict> out = new ArrayList<>();
    for (int i = 0; i < passages.size(); i++) {
      for (int j = i + 1; j < passages.size(); j++) {
        Passage a = passages.get(i);
        Passage b = passages.get(j);
        DocInfo da = a.primary().doc();
        DocInfo db = b.primary().doc();
        if (da.id().equals(db.id())) continue;
        KeptApart g = kept.get(i + " " + j);
        boolean version = sameDocument(da, db) && !da.date().isBlank() && !db.date().isBlank()
            && !da.date().strip().equals(db.date().strip())
            && versions.add(da.id().compareTo(db.id()) < 0 ? da.id() + '\u0000' + db.id() : db.id() + '\u0000' + da.id());
        if (g == null && !version) continue;
        String guardKind = g == null ? "" : g.difference().key();
        String kind = version ? "version" : guardKind;
        List<String> values = g == null || !withValues ? List.of() : values(a.text(), b.text(), guardKind);
        String guardDetail = g == null ? "" : withValues ? "the dedup guard kept them apart: " + g.detail()
            : "the dedup guard kept them apart: " + guardKind + " differs";
        String detail = version
            ? "same " + (!da.uri().isBlank() && da.uri().equals(db.uri()) ? "uri" : "title") + ", dates "
                + da.date().strip() + " and " + db.date().strip() + (g == null ? "" : "; " + guardDetail)
            : guardDetail;
        int newer = newer(da.date(), db.date());
        if (newer > 0) {
          out.add(new Conflict(kind, b.id(), a.id(), db.date().strip(), da.date().strip(), reverse(values), true, detail));
        } else {
          out.add(new Conflict(kind, a.id(), b.id(), da.date().strip(), db.date().strip(), values, newer < 0, detail));
        }
      }
    }
    return out;
  }

  private static boolean sameDocument(DocInfo a, DocInfo b) {
    if (!a.uri().isBlank() && a.uri().equals(b.uri())) return true;
    return !a.title().isBlank() && TextNormalizer.fold(a.title().strip()).equals(TextNormalizer.fold(b.title().strip()));
  }

  /**
   * Negative when {@code a} is the newer ISO date, positive when {@code b} is, 0 when either is not
   * an ISO date or they agree to the precision of the coarser one.
   */
  static int newer(String a, String b) {
    String x = a.strip();
    String y = b.strip();
    if (!ISO_DATE.matcher(x).matches() || !ISO_DATE.matcher(y).matches()) return 0;
    int common = Math.min(x.length(), y.length()); // 2024 vs 2024-06-15: neither is newer
    return -Integer.signum(x.substring(0, common).compareTo(y.substring(0, common)));
  }

  /** What each text states of {@code kind} (the guard's normalised cues) that the other does not. */
  private static List<String> values(String a, String b, String kind) {
    List<String> ca = new ArrayList<>(Guard.cues(a).get(kind));
    List<String> cb = new ArrayList<>(Guard.cues(b).get(kind));
    List<String> onlyA = new ArrayList<>(ca);
    for (String v : cb) onlyA.remove(v);
    List<String> onlyB = new ArrayList<>(cb);
    for (String v : ca) onlyB.remove(v);
    return List.of(String.join(", ", onlyA), String.join(", ", onlyB));
  }

  private static List<String> reverse(List<String> values) {
    return values.isEmpty() ? values : List.of(values.get(1), values.get(0));
  }

}
