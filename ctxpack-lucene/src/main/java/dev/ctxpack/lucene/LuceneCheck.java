package dev.ctxpack.lucene;

import dev.ctxpack.index.IndexCheck;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.NoLockFactory;

/**
 * The full verification of a Lucene directory (an index, a memory store): every file of its latest
 * commit, the commit point ({@code segments_N}) first and then each segment's files, is read end to
 * end and its CRC-32 compared with the one in its footer ({@link CodecUtil#checksumEntireFile}).
 * Lucene itself verifies most files only when it merges them, so a flipped bit in, say, a postings
 * or stored-fields file changes answers silently; CRC-32 catches every single-bit error.
 *
 * <p>It takes no lock and writes nothing, so it runs beside a service or an ingest: when a commit
 * lands while it reads (a file of the commit it read is gone), it starts again on the new commit, at
 * most {@link #ATTEMPTS} times. When the commit point itself cannot be read (its own checksum, a
 * segment's {@code .si} or {@code .fnm}), every file of the directory is verified, so the damaged
 * one is still named.
 */
final class LuceneCheck {
  /** How many commits one check reads before it reports a file that vanished as missing. */
  static final int ATTEMPTS = 10;

  private LuceneCheck() {}

  /** Verifies the Lucene directory {@code dir}; a directory without files is {@link IndexCheck#empty}. */
  static IndexCheck verify(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) throw new NoSuchFileException(dir.toString(), null, "no such directory");
    try (Directory d = FSDirectory.open(dir, NoLockFactory.INSTANCE)) {
      for (int attempt = 1; ; attempt++) {
        String[] names = d.listAll();
        String commit = SegmentInfos.getLastCommitSegmentsFileName(names);
        List<String> stored = files(dir, names);
        if (commit == null) {
          if (stored.isEmpty()) return IndexCheck.empty(dir.toString());
          return new IndexCheck(dir.toString(), 0, 0, List.of(new IndexCheck.Damage(null, IndexFileNames.SEGMENTS + "_N",
              "no commit point among the directory's " + stored.size() + " files (" + String.join(", ", first(stored)) + ")")));
        }
        SegmentInfos infos;
        try {
          infos = SegmentInfos.readCommit(d, commit);
        } catch (IOException e) {
          if (attempt < ATTEMPTS && moved(d, commit)) continue;
          return everyFile(dir, d, stored, commit, e);
        }
        Tally t = new Tally();
        t.verify(d, null, commit);
        for (SegmentCommitInfo sci : infos) {
          for (String f : new TreeSet<>(sci.files())) t.verify(d, sci.info.name, f);
        }
        if (t.vanished && attempt < ATTEMPTS && moved(d, commit)) continue;
        return new IndexCheck(dir.toString(), t.files, t.bytes, t.damaged);
      }
    }
  }

  /**
   * The commit point could not be read: every file of the directory verified, named by the segment
   * its name gives; if every one verifies, the commit point is reported with {@code why}.
   */
  private static IndexCheck everyFile(Path dir, Directory d, List<String> stored, String commit, IOException why)
      throws IOException {
    Tally t = new Tally();
    for (String f : stored) t.verify(d, segmentOf(f), f);
    if (t.damaged.isEmpty()) t.damaged.add(new IndexCheck.Damage(null, commit, "cannot read the commit point: " + problem(why)));
    return new IndexCheck(dir.toString(), t.files, t.bytes, t.damaged);
  }

  /** The regular files of the directory, sorted, without the write lock (empty, and no part of a commit). */
  private static List<String> files(Path dir, String[] names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (n.equals(IndexWriter.WRITE_LOCK_NAME) || !Files.isRegularFile(dir.resolve(n))) continue;
      out.add(n);
    }
    out.sort(null);
    return out;
  }

  private static List<String> first(List<String> names) {
    return names.size() <= 5 ? names : names.subList(0, 5);
  }

  /** Whether the directory's latest commit is no longer {@code commit} (a writer committed meanwhile). */
  private static boolean moved(Directory d, String commit) throws IOException {
    return !commit.equals(SegmentInfos.getLastCommitSegmentsFileName(d.listAll()));
  }

  /** The segment of a file by its name ({@code _0} of {@code _0_Lucene99_0.vec}); null for the commit point's. */
  private static String segmentOf(String file) {
    return file.startsWith("_") ? IndexFileNames.parseSegmentName(file) : null;
  }

  /** Lucene's message without the resource it appends (the path, which the report gives once). */
  static String problem(IOException e) {
    if (e instanceof CorruptIndexException c) return c.getOriginalMessage();
    if (e instanceof NoSuchFileException || e instanceof java.io.FileNotFoundException) return "missing";
    if (e instanceof EOFException) return "truncated: " + e.getMessage();
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** What the files read so far gave. */
  private static final class Tally {
    int files;
    long bytes;
    boolean vanished;
    final List<IndexCheck.Damage> damaged = new ArrayList<>();

    void verify(Directory d, String segment, String file) {
      files++;
      try (IndexInput in = d.openInput(file, IOContext.READONCE)) {
        bytes += in.length();
        CodecUtil.checksumEntireFile(in);
      } catch (IOException e) {
        if (e instanceof NoSuchFileException || e instanceof java.io.FileNotFoundException) vanished = true;
        damaged.add(new IndexCheck.Damage(segment, file, problem(e)));
      }
    }
  }
}
