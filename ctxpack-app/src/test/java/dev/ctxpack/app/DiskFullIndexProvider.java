package dev.ctxpack.app;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexProvider;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.lucene.LuceneIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.FilterIndexOutput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * A test backend, {@code diskfull:DIR}: the real Lucene index in DIR, on a device that has {@link
 * #freeBytes} bytes free when the index is opened. Every byte Lucene writes counts (deleting a file
 * gives nothing back); the write that would pass the limit fails as a full disk does, with {@code
 * IOException: No space left on device} from inside Lucene's file output, so the IndexWriter's own
 * failure handling runs. A full disk cannot be had on demand here (no small tmpfs, no quota), hence
 * this one double, at the index SPI boundary. Registered only for the test that sets it up, through
 * its thread's context class loader (see {@link DiskFullJsonSummaryTest}).
 */
public final class DiskFullIndexProvider implements IndexProvider {
  static volatile long freeBytes = Long.MAX_VALUE;
  /** Bytes written through the last index opened. */
  static final AtomicLong written = new AtomicLong();

  @Override
  public Set<String> schemes() {
    return Set.of("diskfull");
  }

  @Override
  public Index open(IndexSpec spec) throws IOException {
    Path dir = Path.of(spec.location());
    Files.createDirectories(dir);
    written.set(0);
    return LuceneIndex.open(dir, new Device(FSDirectory.open(dir), freeBytes));
  }

  @Override
  public Index openExisting(IndexSpec spec) throws IOException {
    return open(spec);
  }

  @Override
  public boolean exists(IndexSpec spec) {
    return Files.isDirectory(Path.of(spec.location()));
  }

  /** A directory whose outputs share {@code free} bytes. */
  private static final class Device extends FilterDirectory {
    private final long free;

    Device(Directory in, long free) {
      super(in);
      this.free = free;
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
      return new Counted(name, in.createOutput(name, context));
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
      IndexOutput out = in.createTempOutput(prefix, suffix, context);
      return new Counted(out.getName(), out);
    }

    private final class Counted extends FilterIndexOutput {
      Counted(String name, IndexOutput out) {
        super("disk-full(" + name + ")", name, out);
      }

      private void take(long n) throws IOException {
        if (written.addAndGet(n) > free) {
          written.addAndGet(-n);
          throw new IOException("No space left on device");
        }
      }

      @Override
      public void writeByte(byte b) throws IOException {
        take(1);
        out.writeByte(b);
      }

      @Override
      public void writeBytes(byte[] b, int offset, int length) throws IOException {
        take(length);
        out.writeBytes(b, offset, length);
      }
    }
  }
}
