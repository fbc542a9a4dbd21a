package dev.ctxpack.ingest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDocument;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObjectKey;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.Filter;
import org.apache.pdfbox.filter.FilterFactory;
import org.apache.pdfbox.pdmodel.PDDocument;

/**
 * The decompressed-size caps of a PDF ({@link LoadLimits#maxDecodedStreamBytes()}, {@link
 * LoadLimits#maxDecodedBytes()}), checked before any text is extracted. PDFBox decodes a stream
 * whole into memory before parsing it, so a 2 MB file whose content stream inflates to 600 MB costs
 * gigabytes and half a minute; here every stream of the file that text extraction may decode is
 * decoded once into a counter that keeps nothing and stops at the cap, so a bomb is refused after
 * inflating at most the cap, in constant memory.
 *
 * <p>Checked: every stream object of the cross-reference table (page contents, forms, fonts,
 * CMaps, object streams), in object-number order. Not decoded: images (an {@code /Image} subtype
 * or an image codec in the filter chain: text extraction never decodes them) and streams without
 * a filter (their size is bounded by the file's). A stream whose data is corrupt or whose filter
 * is unknown is left to the extraction to judge, as before; only the caps refuse here. The
 * intermediate result of a chain of filters is held in memory, and is itself held to the stream cap.
 */
final class PdfStreamCaps {
  private static final List<COSName> IMAGE_CODECS = List.of(COSName.DCT_DECODE, COSName.DCT_DECODE_ABBREVIATION,
      COSName.JPX_DECODE, COSName.JBIG2_DECODE, COSName.CCITTFAX_DECODE, COSName.CCITTFAX_DECODE_ABBREVIATION);

  private PdfStreamCaps() {}

  /** Refuses {@code pdf} ({@link Rejected.Reason#DECODED_TOO_LARGE}) when its streams decode past a cap. */
  static void check(PDDocument pdf, LoadLimits limits, Path file) throws Rejected {
    COSDocument doc = pdf.getDocument();
    Map<COSObjectKey, Long> table = new TreeMap<>(doc.getXrefTable());
    long total = 0;
    for (Map.Entry<COSObjectKey, Long> e : table.entrySet()) {
      // A negative offset is an object inside an object stream, which never holds a stream itself.
      if (e.getValue() == null || e.getValue() < 0) continue;
      COSBase base;
      try {
        base = doc.getObjectFromPool(e.getKey()).getObject();
      } catch (RuntimeException ex) {
        continue;
      }
      if (!(base instanceof COSStream stream) || skipped(stream)) continue;
      long room = limits.maxDecodedBytes() - total;
      long cap = Math.min(limits.maxDecodedStreamBytes(), room);
      long decoded = decodedSize(stream, cap);
      if (decoded > cap) {
        String where = "PDF stream " + e.getKey().getNumber() + " " + e.getKey().getGeneration() + " R";
        if (cap == limits.maxDecodedStreamBytes()) {
          throw new Rejected(Rejected.Reason.DECODED_TOO_LARGE, file + ": " + where + " decompresses to more than "
              + mb(cap) + " MB (the limit is " + mb(cap) + " MB of decoded content per stream, --max-pdf-stream-mb; a decompression bomb?); skipped");
        }
        throw new Rejected(Rejected.Reason.DECODED_TOO_LARGE, file + ": PDF streams decompress to more than "
            + mb(limits.maxDecodedBytes()) + " MB in all (at " + where + "; the limit is " + mb(limits.maxDecodedBytes())
            + " MB of decoded content per document, --max-pdf-decoded-mb; a decompression bomb?); skipped");
      }
      total += decoded;
    }
  }

  private static boolean skipped(COSStream stream) {
    if (COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))) return true;
    List<COSName> filters = filters(stream);
    if (filters.isEmpty()) return true;
    for (COSName f : filters) if (IMAGE_CODECS.contains(f)) return true;
    return false;
  }

  private static List<COSName> filters(COSStream stream) {
    COSBase f = stream.getFilters();
    List<COSName> out = new ArrayList<>();
    if (f instanceof COSName name) {
      out.add(name);
    } else if (f instanceof COSArray array) {
      for (int i = 0; i < array.size(); i++) if (array.getObject(i) instanceof COSName name) out.add(name);
    }
    return out;
  }

  /**
   * The decoded size of {@code stream}, or {@code cap + 1} as soon as it passes {@code cap}; 0 when
   * it cannot be decoded (left to the extraction to report).
   */
  private static long decodedSize(COSStream stream, long cap) {
    List<COSName> names = filters(stream);
    try {
      InputStream in = stream.createRawInputStream();
      try {
        for (int i = 0; i < names.size(); i++) {
          Filter filter = FilterFactory.INSTANCE.getFilter(names.get(i));
          boolean last = i == names.size() - 1;
          Capped out = last ? new Capped(cap, null) : new Capped(cap, new ByteArrayOutputStream());
          try {
            filter.decode(in, out, stream, i);
          } catch (CapExceeded ex) {
            return cap + 1;
          } catch (IOException | RuntimeException ex) {
            // Corrupt data: what was decoded before the error still counts.
            if (!last) return out.count > cap ? cap + 1 : 0;
          }
          if (out.count > cap) return cap + 1;
          if (last) return out.count;
          in.close();
          in = new ByteArrayInputStream(out.buffer.toByteArray());
        }
        return 0;
      } finally {
        in.close();
      }
    } catch (IOException | RuntimeException ex) {
      return 0;
    }
  }

  /** Thrown by {@link Capped} past its cap: an IOException, so the filters pass it on. */
  private static final class CapExceeded extends IOException {
    CapExceeded() {
      super("decoded content over the cap");
    }
  }

  /** Counts what is written, keeps it only when {@code buffer} is given, and fails past {@code cap}. */
  private static final class Capped extends OutputStream {
    private final long cap;
    private final ByteArrayOutputStream buffer;
    long count;

    Capped(long cap, ByteArrayOutputStream buffer) {
      this.cap = cap;
      this.buffer = buffer;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      count += len;
      if (count > cap) throw new CapExceeded();
      if (buffer != null) buffer.write(b, off, len);
    }
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }
}
