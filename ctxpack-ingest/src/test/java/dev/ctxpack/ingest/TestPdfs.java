package dev.ctxpack.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
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
