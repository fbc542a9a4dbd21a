package dev.ctxpack.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * Opens indexes by spec ({@link IndexSpec}: {@code lucene:DIR}, a bare path, {@code solr:…}) through
 * the {@link IndexProvider}s on the classpath. A spec whose scheme no provider handles is an {@link
 * IllegalArgumentException} naming the scheme, the spec and the module to add.
 *
 * <pre>{@code
 * try (Index index = Indexes.openExisting("lucene:./my-index")) {
 *   List<Candidate> hits = index.searchSparse("caffeine", 10);
 * }
 * }</pre>
 */
public final class Indexes {
  private Indexes() {}

  /** Opens, or creates, the index {@code spec} names. */
  public static Index open(String spec) throws IOException {
    return open(IndexSpec.parse(spec));
  }

  public static Index open(IndexSpec spec) throws IOException {
    return provider(spec).open(spec);
  }

  /** Opens the index {@code spec} names; fails naming it if there is none. */
  public static Index openExisting(String spec) throws IOException {
    return openExisting(IndexSpec.parse(spec));
  }

  public static Index openExisting(IndexSpec spec) throws IOException {
    return provider(spec).openExisting(spec);
  }

  /** Whether there is something at {@code spec}'s location to open ({@link IndexProvider#exists}). */
  public static boolean exists(IndexSpec spec) throws IOException {
    return provider(spec).exists(spec);
  }

  /** Verifies every file of the index {@code spec} names ({@link IndexProvider#check}); empty if its backend cannot. */
  public static Optional<IndexCheck> check(IndexSpec spec) throws IOException {
    return provider(spec).check(spec);
  }

  /** {@code spec} with a relative location resolved against {@code base} ({@link IndexProvider#resolve}). */
  public static IndexSpec resolve(IndexSpec spec, Path base) {
    return provider(spec).resolve(spec, base);
  }

  /** The provider of {@code spec}'s scheme; fails naming the spec when there is none, or more than one. */
  public static IndexProvider provider(IndexSpec spec) {
    List<IndexProvider> found = new ArrayList<>();
    Set<String> known = new TreeSet<>();
    for (IndexProvider p : ServiceLoader.load(IndexProvider.class, loader())) {
      known.addAll(p.schemes());
      if (p.schemes().contains(spec.scheme())) found.add(p);
    }
    if (found.size() > 1) {
      throw new IllegalStateException("index backends " + found.get(0).getClass().getName() + " and "
          + found.get(1).getClass().getName() + " both handle '" + spec.scheme() + "': keep one on the classpath");
    }
    if (found.isEmpty()) throw unknown("index backend", spec, known);
    return found.get(0);
  }

  /**
   * The error of a spec whose scheme no provider on the classpath handles: it names the scheme, the
   * spec, the module that would provide it ({@code ctxpack-} and the scheme's first word) and the
   * known schemes.
   */
  public static IllegalArgumentException unknown(String what, IndexSpec spec, Set<String> known) {
    String module = "ctxpack-" + spec.scheme().split("[+.-]")[0];
    return new IllegalArgumentException("unknown " + what + " '" + spec.scheme() + "' in '" + spec + "': add the "
        + module + " module to the classpath" + (known.isEmpty() ? "" : " (known: " + String.join(", ", known) + ")"));
  }

  /** The context class loader (an application server's, a plugin's), else this library's. */
  public static ClassLoader loader() {
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    return cl != null ? cl : Indexes.class.getClassLoader();
  }
}
