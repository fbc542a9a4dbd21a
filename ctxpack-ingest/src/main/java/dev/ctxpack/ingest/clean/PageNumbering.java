package dev.ctxpack.ingest.clean;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether lines that are alike but for their digits (one key of {@link Lines#key}) number the pages
 * they stand on: for some run of digits (the {@code j}-th in the line), the number minus the page's
 * index is the same on enough pages. "Page 3 of 10" on page 3 and "Page 4 of 10" on page 4 do (the
 * first run, offset 0); "Relatório anual 2023 — 12" on page 14 and "— 13" on page 15 do (the second
 * run, offset −2); rows "Total 1234", "Total 872" that open pages do not. A number of more than 15
 * digits numbers nothing.
 */
final class PageNumbering {
  /** Per run of digits: offset (number − page index) → the pages holding it. */
  private final List<Map<Long, Set<Integer>>> offsets = new ArrayList<>();

  void add(int page, long[] numbers) {
    for (int j = 0; j < numbers.length; j++) {
      if (offsets.size() <= j) offsets.add(new HashMap<>());
      if (numbers[j] >= 0) offsets.get(j).computeIfAbsent(numbers[j] - page, o -> new HashSet<>()).add(page);
    }
  }

  /** Whether the line with {@code numbers} on {@code page} numbers it as the same lines number {@code need} pages. */
  boolean counts(int page, long[] numbers, int need) {
    for (int j = 0; j < numbers.length && j < offsets.size(); j++) {
      if (numbers[j] < 0) continue;
      Set<Integer> same = offsets.get(j).get(numbers[j] - page);
      if (same != null && same.size() >= need) return true;
    }
    return false;
  }
}
