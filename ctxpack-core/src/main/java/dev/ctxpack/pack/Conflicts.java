package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.similarity.Guard;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.SourceConflict;
import dev.ctxpack.model.Trace;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Finds the selected passages that disagree, before they are ordered and rendered:
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
public final class Conflicts {
  /** One disagreement between two passages, by passage id; {@code first} is the newer when {@code dated}. */
  public record Found(String kind, String first, String second, String firstDate, String secondDate,
      List<String> values, boolean dated, String detail) {}

  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}(-\\d{2}(-\\d{2})?)?");

  /**
   * The disagreeing pairs of {@code passages}: each pair the dedup cascade kept apart for a number
   * or date (its {@code keep <level>:guard:number|date} decisions in {@code decisions}), and the
   * first pair of passages of every two dated versions of one document. With {@code withValues} off
   * (PII redaction on), neither the values nor the guard's detail, which quote the text, are kept.
   */
  public List<Found> detect(List<Passage> passages, List<Decision> decisions, boolean withValues) {
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < passages.size(); i++) at.put(passages.get(i).id(), i);
    Map<String, Decision> kept = new HashMap<>(); // "i j" (i < j) -> the guard's decision
    for (Decision d : decisions) {
      if (d.stage() != Stage.DEDUP || d.action() != Action.KEEP) continue;
      if (!d.rule().endsWith(":guard:number") && !d.rule().endsWith(":guard:date")) continue;
      Integer x = at.get(d.into());
      Integer y = d.ids().isEmpty() ? null : at.get(d.ids().get(0));
      if (x == null || y == null || x.equals(y)) continue;
      kept.putIfAbsent(Math.min(x, y) + " " + Math.max(x, y), d);
    }
    Set<String> versions = new HashSet<>(); // document pairs already reported as versions
    List<Found> out = new ArrayList<>();
    for (int i = 0; i < passages.size(); i++) {
      for (int j = i + 1; j < passages.size(); j++) {
        Passage a = passages.get(i);
        Passage b = passages.get(j);
        DocInfo da = a.primary().doc();
        DocInfo db = b.primary().doc();
        if (da.id().equals(db.id())) continue;
        Decision g = kept.get(i + " " + j);
        boolean version = sameDocument(da, db) && !da.date().isBlank() && !db.date().isBlank()
            && !da.date().strip().equals(db.date().strip())
            && versions.add(da.id().compareTo(db.id()) < 0 ? da.id() + '\u0000' + db.id() : db.id() + '\u0000' + da.id());
        if (g == null && !version) continue;
        String guardKind = g == null ? "" : g.rule().substring(g.rule().lastIndexOf(':') + 1);
        String kind = version ? "version" : guardKind;
        List<String> values = g == null || !withValues ? List.of() : values(a.text(), b.text(), guardKind);
        String guardDetail = g == null ? "" : withValues ? "the dedup guard kept them apart: " + detail(g.reason())
            : "the dedup guard kept them apart: " + guardKind + " differs";
        String detail = version
            ? "same " + (!da.uri().isBlank() && da.uri().equals(db.uri()) ? "uri" : "title") + ", dates "
                + da.date().strip() + " and " + db.date().strip() + (g == null ? "" : "; " + guardDetail)
            : guardDetail;
        int newer = newer(da.date(), db.date());
        if (newer > 0) {
          out.add(new Found(kind, b.id(), a.id(), db.date().strip(), da.date().strip(), reverse(values), true, detail));
        } else {
          out.add(new Found(kind, a.id(), b.id(), da.date().strip(), db.date().strip(), values, newer < 0, detail));
        }
      }
    }
    return out;
  }

  /** The guard's own words in a dedup decision's reason ({@code "... kept apart by the guard: number differs: ..."}). */
  private static String detail(String reason) {
    int at = reason.indexOf("kept apart by the guard: ");
    return at < 0 ? reason : reason.substring(at + "kept apart by the guard: ".length());
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

  /**
   * Moves the newer passage of every dated pair into the stronger of the two positions they hold
   * (lost-in-the-middle: first, last, second, second to last...; position: later, nearer the question,
   * which its date order already gives a dated pair; otherwise earlier), recording each swap in
   * {@code trace}.
   */
  public static List<Passage> preferNewer(List<Passage> ordered, List<Found> found, OrderMode mode, Trace trace) {
    List<Passage> out = new ArrayList<>(ordered);
    for (Found f : found) {
      if (!f.dated()) continue;
      int n = indexOf(out, f.first());
      int o = indexOf(out, f.second());
      if (n < 0 || o < 0 || strength(n, out.size(), mode) < strength(o, out.size(), mode)) continue;
      Passage newer = out.get(n);
      out.set(n, out.get(o));
      out.set(o, newer);
      trace.add(Stage.ORDER, Action.PREFER_NEWER, "conflict:" + f.kind(), List.of(f.first(), f.second()), "", 0,
          "the newer source (" + f.firstDate() + ") takes position " + (o + 1) + ", the older (" + f.secondDate()
              + ") position " + (n + 1) + " of " + out.size() + " (" + mode.key() + ")");
    }
    return List.copyOf(out);
  }

  /** 0 for the strongest position. */
  static int strength(int i, int n, OrderMode mode) {
    if (mode == OrderMode.POSITION) return n - 1 - i; // reading order: the newer is read last
    if (mode != OrderMode.LOST_IN_THE_MIDDLE) return i;
    int front = (n + 1) / 2; // lost-in-the-middle fills ranks 1, 3, 5... from the front
    return i < front ? 2 * i : 2 * (n - 1 - i) + 1;
  }

  private static int indexOf(List<Passage> l, String id) {
    for (int i = 0; i < l.size(); i++) if (l.get(i).id().equals(id)) return i;
    return -1;
  }

  /** The conflicts among the rendered {@code sources}, by label (pairs whose passages were both kept). */
  public static List<SourceConflict> label(List<Found> found, List<Source> sources) {
    Map<String, Source> byPassage = new HashMap<>();
    for (Source s : sources) byPassage.put(s.passage(), s);
    List<SourceConflict> out = new ArrayList<>();
    for (Found f : found) {
      Source a = byPassage.get(f.first());
      Source b = byPassage.get(f.second());
      if (a == null || b == null) continue;
      out.add(new SourceConflict(f.kind(), List.of(a.label(), b.label()), List.of(f.firstDate(), f.secondDate()),
          f.values(), f.detail()));
    }
    return out;
  }

  /** One line per conflict, in the template's language, each ending with a newline; empty when none. */
  public static String note(List<SourceConflict> conflicts, Language language) {
    boolean pt = language == Language.PT;
    StringBuilder sb = new StringBuilder();
    for (SourceConflict c : conflicts) {
      sb.append(pt ? "As fontes divergem: " : "Sources disagree: ")
          .append(who(c.sources().get(0), c.dates().get(0), pt)).append(" vs ")
          .append(who(c.sources().get(1), c.dates().get(1), pt)).append(' ')
          .append(switch (c.kind()) {
            case "number" -> pt ? "em um número" : "on a number";
            case "date" -> pt ? "em uma data" : "on a date";
            default -> pt ? "como versões do mesmo documento" : "as versions of the same document";
          })
          .append(".\n");
    }
    return sb.toString();
  }

  private static String who(String label, String date, boolean pt) {
    return label + " (" + (date.isBlank() ? (pt ? "sem data" : "undated") : date) + ")";
  }

  /** One trace decision per conflict: stage {@code conflict}, action {@code flag}, the two labels. */
  public static void record(List<SourceConflict> conflicts, Trace trace) {
    for (SourceConflict c : conflicts) {
      String values = c.values().isEmpty() ? "" : "; values " + c.values().get(0) + " vs " + c.values().get(1);
      trace.add(Stage.CONFLICT, Action.FLAG, c.rule(), c.sources(), "", 0,
          c.sources().get(0) + " (" + c.dates().get(0) + ") vs " + c.sources().get(1) + " (" + c.dates().get(1) + "): "
              + c.reason() + values);
    }
  }
}
