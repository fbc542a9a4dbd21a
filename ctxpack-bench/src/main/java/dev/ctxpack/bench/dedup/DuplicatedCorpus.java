package dev.ctxpack.bench.dedup;

import dev.ctxpack.bench.dedup.Perturbations.Kind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * A corpus in which every context appears one to four times (uniform, fixed seed) as separate
 * documents: copy 0 is the context verbatim, every further copy is the context under one
 * perturbation of a kind drawn uniformly ({@link Perturbations}; a kind that does not apply to the
 * text is redrawn). Documents are shuffled with the same seed so copies are not neighbours.
 */
public final class DuplicatedCorpus {
  /**
   * One document: its id, the context it copies ({@code origin}), its copy number, how it was made
   * ({@code null} for the verbatim copy 0), the context a prepended sentence came from ({@code -1}
   * when none) and its text.
   */
  public record Copy(String docId, int origin, int copy, Kind kind, int donor, String title, String text) {}

  private final List<Copy> copies;

  private DuplicatedCorpus(List<Copy> copies) {
    this.copies = List.copyOf(copies);
  }

  public static DuplicatedCorpus build(List<SquadV2.Context> contexts, long seed) {
    Random r = new Random(seed);
    Kind[] kinds = Kind.values();
    List<Copy> out = new ArrayList<>();
    for (SquadV2.Context c : contexts) {
      int n = 1 + r.nextInt(4);
      out.add(new Copy(id(c.index(), 0), c.index(), 0, null, -1, c.title(), c.text()));
      for (int k = 1; k < n; k++) {
        for (int attempt = 0; attempt < 20; attempt++) {
          Kind kind = kinds[r.nextInt(kinds.length)];
          int donor = -1;
          if (kind == Kind.PREPEND_SENTENCE) {
            donor = r.nextInt(contexts.size() - 1);
            if (donor >= c.index()) donor++;
          }
          String text = Perturbations.apply(kind, c.text(), donor < 0 ? "" : contexts.get(donor).text(), r);
          if (text == null || text.equals(c.text())) continue;
          out.add(new Copy(id(c.index(), k), c.index(), k, kind, donor, c.title(), text));
          break;
        }
      }
    }
    Collections.shuffle(out, new Random(seed + 1));
    return new DuplicatedCorpus(out);
  }

  static String id(int context, int copy) {
    return String.format(Locale.ROOT, "c%04d-%d", context, copy);
  }

  public List<Copy> copies() {
    return copies;
  }

  /** How many documents of each kind; the key {@code verbatim} counts the copies 0. */
  public Map<String, Integer> kindCounts() {
    Map<Kind, Integer> by = new EnumMap<>(Kind.class);
    int verbatim = 0;
    for (Copy c : copies) {
      if (c.kind() == null) verbatim++;
      else by.merge(c.kind(), 1, Integer::sum);
    }
    Map<String, Integer> out = new java.util.LinkedHashMap<>();
    out.put("verbatim", verbatim);
    by.forEach((k, v) -> out.put(k.label(), v));
    return out;
  }

  /** How many contexts have 1, 2, 3 and 4 copies. */
  public int[] copiesPerContext(int contexts) {
    int[] per = new int[contexts];
    for (Copy c : copies) per[c.origin()]++;
    int[] hist = new int[5];
    for (int n : per) hist[Math.min(4, n)]++;
    return hist;
  }
}
