package dev.ctxpack.ingest;

import dev.ctxpack.text.TextNormalizer;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.text.PDFTextStripper;

/**
 * PDF with PDFBox: one document per file, its pages' text (PDFTextStripper, in content-stream
 * order) joined by blank lines, with {@link LoadedDocument#pages()} holding where each page starts,
 * so every chunk gets the page it starts on. The title is the document information's title, else
 * the first line of text, else the file name.
 *
 * <p>Refused, each with one line naming the file: a PDF that needs a password to open ({@link
 * Rejected.Reason#ENCRYPTED}; one with only an owner password opens with the empty user password
 * and is read), a file PDFBox cannot parse ({@link Rejected.Reason#MALFORMED}), a PDF whose
 * streams decompress past the caps of {@link LoadLimits} ({@link Rejected.Reason#DECODED_TOO_LARGE},
 * checked by {@link PdfStreamCaps} before any text is extracted), and a PDF without any text
 * (scanned pages need OCR, which ctxpack does not do).
 */
public final class PdfLoader implements Loader {
  private static final int MAX_TITLE = 200;
  /**
   * PDFBox logs (through java.util.logging) a warning for every substituted font and every
   * repaired object: noise on a terminal, since what matters is reported as a failure line. Turned
   * off unless the application set a level for these loggers; held here so the setting stays.
   */
  private static final List<java.util.logging.Logger> QUIET = quiet("org.apache.pdfbox", "org.apache.fontbox");

  @Override
  public List<String> extensions() {
    return List.of(".pdf");
  }

  @Override
  public boolean binaryFormat() {
    return true;
  }

  @Override
  public List<LoadedDocument> load(Path file) throws IngestException {
    return load(file, Files2.readBytes(file));
  }

  /** Under the default caps on decompressed content ({@link LoadLimits#DEFAULTS}). */
  @Override
  public List<LoadedDocument> load(Path file, byte[] content) throws IngestException {
    return load(file, content, LoadLimits.DEFAULTS);
  }

  @Override
  public List<LoadedDocument> load(Path file, byte[] content, LoadLimits limits) throws IngestException {
    List<String> pageTexts;
    String infoTitle;
    try (PDDocument pdf = org.apache.pdfbox.Loader.loadPDF(content)) {
      PdfStreamCaps.check(pdf, limits, file);
      infoTitle = pdf.getDocumentInformation() == null ? null : pdf.getDocumentInformation().getTitle();
      pageTexts = pages(pdf);
    } catch (Rejected e) {
      throw e;
    } catch (InvalidPasswordException e) {
      throw new Rejected(Rejected.Reason.ENCRYPTED, file + ": encrypted PDF: a password is needed to open it; skipped", e);
    } catch (IOException | RuntimeException e) {
      throw new Rejected(Rejected.Reason.MALFORMED, file + ": not a readable PDF (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())) + ")", e);
    }
    StringBuilder text = new StringBuilder();
    int[] starts = new int[pageTexts.size()];
    for (int i = 0; i < pageTexts.size(); i++) {
      String page = TextNormalizer.storageForm(pageTexts.get(i)).strip();
      if (!page.isEmpty() && text.length() > 0) text.append("\n\n");
      starts[i] = text.length();
      text.append(page);
    }
    String stored = StorageText.of(text.toString(), starts);
    if (stored.isBlank()) {
      throw new IngestException(file + ": no extractable text in " + pageTexts.size()
          + " page(s) (scanned pages need OCR, which ctxpack does not do)");
    }
    List<Integer> pages = new ArrayList<>(starts.length);
    for (int s : starts) pages.add(s);
    return List.of(new LoadedDocument(null, file.toUri().toString(), title(infoTitle, stored, file), stored, Map.of(),
        List.of(), pages, 0));
  }

  /** The text of every page, in order, from one pass of the stripper. */
  private static List<String> pages(PDDocument pdf) throws IOException {
    List<Integer> starts = new ArrayList<>();
    StringWriter out = new StringWriter();
    PDFTextStripper stripper = new PDFTextStripper() {
      @Override
      protected void startPage(PDPage page) throws IOException {
        starts.add(out.getBuffer().length());
        super.startPage(page);
      }
    };
    stripper.setLineSeparator("\n");
    stripper.setPageEnd("\n");
    stripper.writeText(pdf, out);
    String all = out.toString();
    List<String> texts = new ArrayList<>(starts.size());
    for (int i = 0; i < starts.size(); i++) {
      texts.add(all.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : all.length()));
    }
    return texts;
  }

  private static String title(String info, String text, Path file) {
    if (info != null && !info.isBlank()) return TextNormalizer.storageForm(info).replaceAll("\\s+", " ").strip();
    int end = text.indexOf('\n');
    String first = (end < 0 ? text : text.substring(0, end)).strip();
    if (first.length() > MAX_TITLE) {
      first = first.substring(0, Character.isHighSurrogate(first.charAt(MAX_TITLE - 1)) ? MAX_TITLE - 1 : MAX_TITLE).strip();
    }
    return first.isEmpty() ? Files2.baseName(file) : first;
  }

  private static List<java.util.logging.Logger> quiet(String... names) {
    List<java.util.logging.Logger> out = new ArrayList<>();
    for (String name : names) {
      java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
      if (logger.getLevel() == null) logger.setLevel(java.util.logging.Level.OFF);
      out.add(logger);
    }
    return out;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
