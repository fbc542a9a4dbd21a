package dev.ctxpack.ingest;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Which files of a directory walk are taken, by glob over the path relative to the directory given
 * ({@code **}{@code /*.md}, {@code drafts/**}, {@code *.html}): a file is taken when it matches an
 * {@code include} glob (or there are none) and no {@code exclude} glob. Globs use {@link
 * java.nio.file.FileSystem#getPathMatcher} syntax with {@code /} as separator; a glob starting with
 * {@code **}{@code /} also matches at the top level ({@code **}{@code /*.md} takes {@code a.md}),
 * as in .gitignore. Files named on the command line are always taken.
 */
public record PathFilter(List<String> include, List<String> exclude) {
  public static final PathFilter ALL = new PathFilter(List.of(), List.of());

  public PathFilter {
    include = List.copyOf(include == null ? List.of() : include);
    exclude = List.copyOf(exclude == null ? List.of() : exclude);
    for (String g : include) matchers(g, "include");
    for (String g : exclude) matchers(g, "exclude");
  }

  /** Whether {@code relative} (a path relative to the walked directory) is taken. */
  public boolean accepts(Path relative) {
    String path = relative.toString().replace('\\', '/');
    Path unix = Path.of(path);
    if (!include.isEmpty() && include.stream().noneMatch(g -> matches(g, unix))) return false;
    return exclude.stream().noneMatch(g -> matches(g, unix));
  }

  private static boolean matches(String glob, Path p) {
    for (PathMatcher m : matchers(glob, "glob")) if (m.matches(p)) return true;
    return false;
  }

  private static List<PathMatcher> matchers(String glob, String what) {
    if (glob == null || glob.isBlank()) throw new IllegalArgumentException(what + " glob must not be blank");
    List<PathMatcher> out = new ArrayList<>(2);
    try {
      out.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
      if (glob.startsWith("**/") && glob.length() > 3) {
        out.add(FileSystems.getDefault().getPathMatcher("glob:" + glob.substring(3)));
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid " + what + " glob '" + glob + "': " + e.getMessage(), e);
    }
    return out;
  }

  public boolean isAll() {
    return include.isEmpty() && exclude.isEmpty();
  }
}
