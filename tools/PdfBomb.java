import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.common.PDStream;

/**
 * Writes a PDF decompression bomb: one page whose Flate content stream inflates to MB megabytes of
 * text-showing operators ({@code text}, the default: every one a line the text stripper must place)
 * or of spaces after one line of text ({@code spaces}). Only the compressed bytes are ever held, so
 * writing a 600 MB bomb needs a few MB of memory. Used for the bomb figures of docs/BENCHMARKS.md:
 *
 * <pre>java -cp ctxpack-app/target/ctxpack.jar tools/PdfBomb.java /tmp/bomb.pdf 600 [text|spaces]</pre>
 */
public final class PdfBomb {
  public static void main(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3 || args.length == 3 && !args[2].matches("text|spaces")) {
      System.err.println("usage: java -cp ctxpack.jar tools/PdfBomb.java OUT.pdf MEGABYTES [text|spaces]");
      System.exit(2);
    }
    write(Path.of(args[0]), Long.parseLong(args[1]) << 20, args.length < 3 || args[2].equals("text"));
  }

  static void write(Path out, long inflatedBytes, boolean text) throws IOException {
    try (PDDocument doc = new PDDocument()) {
      PDPage page = new PDPage();
      doc.addPage(page);
      PDResources resources = new PDResources();
      resources.put(COSName.getPDFName("F1"), new PDType1Font(Standard14Fonts.FontName.HELVETICA));
      page.setResources(resources);
      COSStream stream = doc.getDocument().createCOSStream();
      try (OutputStream raw = stream.createRawOutputStream();
          DeflaterOutputStream z = new DeflaterOutputStream(raw, new Deflater(Deflater.BEST_COMPRESSION), 1 << 16)) {
        byte[] head = "BT /F1 12 Tf 72 720 Td (a content stream that inflates) Tj ET\n".getBytes(StandardCharsets.US_ASCII);
        z.write(head);
        byte[] unit = text ? "BT /F1 12 Tf 72 700 Td (one more line of the bomb) Tj ET\n".getBytes(StandardCharsets.US_ASCII)
            : "                ".getBytes(StandardCharsets.US_ASCII);
        byte[] block = new byte[unit.length * 4096];
        for (int i = 0; i < block.length; i++) block[i] = unit[i % unit.length];
        for (long n = head.length; n < inflatedBytes; n += block.length) {
          // Whole units only: a cut operator would be a parse error, not a bomb.
          int len = (int) Math.min(block.length, inflatedBytes - n);
          z.write(block, 0, len - len % unit.length);
        }
      }
      stream.setItem(COSName.FILTER, COSName.FLATE_DECODE);
      page.setContents(new PDStream(stream));
      doc.save(out.toFile());
    }
  }
}
