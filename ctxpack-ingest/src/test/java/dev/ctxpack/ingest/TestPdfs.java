package dev.ctxpack.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/** PDFs written by PDFBox at test time: one page per string, one text line per line of it. */
final class TestPdfs {
  private TestPdfs() {}

  static byte[] pdf(String title, String... pages) {
    return encryptedPdf(title, null, null, pages);
  }

  /**
   * A decompression bomb: one page whose content is {@code streams} Flate streams, each inflating to
   * {@code bytesPerStream} bytes of text-showing operators. Written streaming, so only the
   * compressed bytes (about a thousandth) are ever held.
   */
  static byte[] bomb(int streams, long bytesPerStream) {
    try (PDDocument doc = new PDDocument()) {
      PDPage page = new PDPage();
      doc.addPage(page);
      PDResources resources = new PDResources();
      resources.put(COSName.getPDFName("F1"), new PDType1Font(Standard14Fonts.FontName.HELVETICA));
      page.setResources(resources);
      byte[] unit = "BT /F1 12 Tf 72 700 Td (one more line of the bomb) Tj ET\n".getBytes(StandardCharsets.US_ASCII);
      byte[] block = new byte[unit.length * 4096];
      for (int i = 0; i < block.length; i++) block[i] = unit[i % unit.length];
      List<PDStream> contents = new ArrayList<>();
      for (int s = 0; s < streams; s++) {
        COSStream stream = doc.getDocument().createCOSStream();
        try (OutputStream raw = stream.createRawOutputStream();
            DeflaterOutputStream z = new DeflaterOutputStream(raw, new Deflater(Deflater.BEST_SPEED), 1 << 16)) {
          for (long n = 0; n < bytesPerStream; n += block.length) {
            int len = (int) Math.min(block.length, bytesPerStream - n);
            z.write(block, 0, len - len % unit.length);
          }
        }
        stream.setItem(COSName.FILTER, COSName.FLATE_DECODE);
        contents.add(new PDStream(stream));
      }
      page.setContents(contents);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      doc.save(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** With {@code ownerPassword} set the PDF is encrypted; {@code userPassword} "" opens without one. */
  static byte[] encryptedPdf(String title, String ownerPassword, String userPassword, String... pages) {
    try (PDDocument doc = new PDDocument()) {
      PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
      for (String text : pages) {
        PDPage page = new PDPage();
        doc.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
          cs.beginText();
          cs.setFont(font, 12);
          cs.newLineAtOffset(72, 720);
          for (String line : text.split("\n")) {
            cs.showText(line);
            cs.newLineAtOffset(0, -16);
          }
          cs.endText();
        }
      }
      if (title != null) doc.getDocumentInformation().setTitle(title);
      if (ownerPassword != null) {
        StandardProtectionPolicy policy = new StandardProtectionPolicy(ownerPassword, userPassword, new AccessPermission());
        policy.setEncryptionKeyLength(128);
        doc.protect(policy);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      doc.save(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
