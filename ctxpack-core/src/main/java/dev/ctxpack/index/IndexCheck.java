package dev.ctxpack.index;

import java.util.List;
import java.util.Objects;

/**
 * What a full verification of a stored index (or memory store) found: how many of its files and
 * bytes were read end to end against their checksums, and each file that failed. A backend that
 * can verify its files answers {@link IndexProvider#check}; searching does not read every byte, so
 * a flipped bit in a file an open does not verify changes answers without an error until checked.
 *
 * @param location where the store is, as messages name it
 * @param files how many files were verified (0: the store holds nothing yet)
 * @param bytes their total length
 * @param damaged the files that failed, in the order they were read (empty: intact)
 */
public record IndexCheck(String location, int files, long bytes, List<Damage> damaged) {
  /**
   * One damaged file.
   *
   * @param segment the segment the file belongs to ({@code _0}); null for a file of the commit point itself
   * @param file the file's name in the store
   * @param problem what was wrong (a checksum mismatch, a truncated or missing file)
   */
  public record Damage(String segment, String file, String problem) {
    public Damage {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(problem, "problem");
    }

    /** {@code segment _0, file _0.cfs} or {@code commit point, file segments_3}. */
    public String where() {
      return (segment == null ? "commit point" : "segment " + segment) + ", file " + file;
    }
  }

  public IndexCheck {
    Objects.requireNonNull(location, "location");
    damaged = List.copyOf(damaged);
  }

  /** A store that holds no files yet: nothing to be damaged. */
  public static IndexCheck empty(String location) {
    return new IndexCheck(location, 0, 0, List.of());
  }

  /** Whether every file verified. */
  public boolean intact() {
    return damaged.isEmpty();
  }
}
