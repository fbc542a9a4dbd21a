package dev.ctxpack.bench.tools;

import dev.ctxpack.assemble.ToolRanker;
import dev.ctxpack.assemble.ToolSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The naive baseline: a tool scores the number of distinct query words (lower-cased, three letters
 * or more) that are words of its name split at {@code _ - / .} and camelCase; ties keep the input
 * order.
 */
final class NameMatchRanker implements ToolRanker {
  @Override
  public List<Ranked> rank(String query, List<ToolSpec> tools) {
    Set<String> q = words(query);
    List<Ranked> out = new ArrayList<>();
    for (ToolSpec t : tools) {
      Set<String> name = words(t.name().replaceAll("(?<=\\p{Ll})(?=\\p{Lu})", " "));
      long hits = q.stream().filter(name::contains).count();
      out.add(new Ranked(t, hits));
    }
    List<Ranked> sorted = new ArrayList<>(out);
    sorted.sort(Comparator.comparingDouble(r -> -r.score())); // stable: ties keep the input order
    return sorted;
  }

  private static Set<String> words(String s) {
    Set<String> out = new HashSet<>();
    for (String w : s.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) if (w.length() >= 3) out.add(w);
    return out;
  }

  @Override
  public String id() {
    return "name-match";
  }
}
