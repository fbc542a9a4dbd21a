package dev.ctxpack.index;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an index is named: a backend {@code scheme} and a {@code location} the backend reads
 * ({@code lucene:./my-index}, {@code solr+zk://zk1:2181/docs}). A bare path names a Lucene
 * directory, so {@code ./my-index} and {@code lucene:./my-index} are the same spec.
 *
 * <p>A scheme is a letter then letters, digits, {@code +}, {@code .} or {@code -}, at least two
 * characters (so a Windows drive, {@code C:\idx}, stays a path), before the first {@code :}. Trap: a
 * relative directory whose name looks like that ({@code idx:v2}) must be written {@code ./idx:v2} or
 * {@code lucene:idx:v2}.
 */
public record IndexSpec(String scheme, String location) {
  /** The backend of a bare path. */
  public static final String DEFAULT_SCHEME = "lucene";
  private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]+):(.*)", Pattern.DOTALL);

  public IndexSpec {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(location, "location");
    if (!SCHEME.matcher(scheme + ":").matches() || !scheme.equals(scheme.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("index backend scheme '" + scheme + "' must be lower-case letters, digits, '+', '.' or '-'");
    }
    if (location.isBlank()) throw new IllegalArgumentException("index spec '" + scheme + ":' names no location");
  }

  /** The spec {@code text} gives: {@code SCHEME:LOCATION}, or a path for the default backend. */
  public static IndexSpec parse(String text) {
    if (text == null || text.isBlank()) throw new IllegalArgumentException("an index spec must not be blank");
    Matcher m = SCHEME.matcher(text);
    if (m.matches()) return new IndexSpec(m.group(1).toLowerCase(Locale.ROOT), m.group(2));
    return new IndexSpec(DEFAULT_SCHEME, text);
  }

  /** The default backend's index in directory {@code dir}, whatever its name looks like. */
  public static IndexSpec ofPath(Path dir) {
    return new IndexSpec(DEFAULT_SCHEME, dir.toString());
  }

  /** This spec as a user writes it: the location alone for a path of the default backend ({@code parse} reads it back). */
  @Override
  public String toString() {
    boolean bare = scheme.equals(DEFAULT_SCHEME) && !SCHEME.matcher(location).matches();
    return bare ? location : scheme + ":" + location;
  }
}
