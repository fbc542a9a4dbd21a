package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker.SectionMark;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

/**
 * HTML: one document per file holding the page's main content as text.
 *
 * <ol>
 *   <li>Charset: a byte order mark, else a {@code <meta charset>} or {@code http-equiv} in the
 *       first 4 kB, else detected as for text files ({@link TextDecoding}); invalid bytes are
 *       decoded as U+FFFD and counted; bytes that decode to no text are refused ({@link TextCheck}).
 *   <li>Title: {@code og:title}, else {@code <title>}, else the first {@code <h1>}, else the file name.
 *   <li>Boilerplate dropped and main content chosen by {@link HtmlContent}: scripts, styles, forms,
 *       hidden elements, navigation, menus, cookie banners, ads, headers and footers; then
 *       {@code <main>}, the {@code <article>}s, or the densest block of paragraph text.
 *   <li>Text by {@link HtmlText}: paragraphs separated by blank lines, list items and table rows on
 *       their own lines, headings h1–h6 opening sections whose path joins the enclosing headings
 *       with {@code " > "} (as {@link MarkdownLoader} does).
 * </ol>
 *
 * Nothing here recurses over the DOM: jsoup's parser and {@link org.jsoup.select.NodeTraversor}
 * are iterative, so 100,000 nested elements cost time linear in their number, not stack.
 */
public final class HtmlLoader implements Loader {
  private static final int CHARSET_SNIFF_BYTES = 4096;

  @Override
  public List<String> extensions() {
    return List.of(".html", ".htm", ".xhtml");
  }

  @Override
  public List<LoadedDocument> load(Path file) throws IngestException {
    return load(file, Files2.readBytes(file));
  }

  @Override
  public List<LoadedDocument> load(Path file, byte[] content) throws IngestException {
    TextDecoding.Decoded decoded = TextCheck.require(file, TextDecoding.decode(content, declaredCharset(content)));
    org.jsoup.nodes.Document page = Jsoup.parse(decoded.text(), file.toUri().toString(), Parser.htmlParser());
    String title = title(page);
    List<Element> roots = HtmlContent.mainContent(page);
    HtmlText.Result text = HtmlText.render(roots);
    int[] offsets = new int[text.sections().size()];
    for (int i = 0; i < offsets.length; i++) offsets[i] = text.sections().get(i).start();
    String stored = StorageText.of(text.text(), offsets);
    List<SectionMark> sections = new ArrayList<>(offsets.length);
    for (int i = 0; i < offsets.length; i++) sections.add(new SectionMark(offsets[i], text.sections().get(i).path()));
    return List.of(new LoadedDocument(null, file.toUri().toString(), title.isEmpty() ? Files2.baseName(file) : title,
        stored, Map.of(), sections, List.of(), decoded.replacedChars()));
  }

  /** The charset named by a {@code <meta>} in the first bytes, or null (unknown names are ignored). */
  static Charset declaredCharset(byte[] content) {
    String head = new String(content, 0, Math.min(content.length, CHARSET_SNIFF_BYTES), StandardCharsets.ISO_8859_1);
    if (head.toLowerCase(Locale.ROOT).indexOf("charset") < 0) return null;
    org.jsoup.nodes.Document d = Jsoup.parse(head);
    String name = null;
    for (Element meta : d.select("meta[charset], meta[http-equiv], meta[content]")) {
      if (meta.hasAttr("charset")) {
        name = meta.attr("charset");
      } else if (meta.attr("http-equiv").equalsIgnoreCase("content-type") || meta.attr("content").contains("charset")) {
        String c = meta.attr("content");
        int at = c.toLowerCase(Locale.ROOT).indexOf("charset=");
        if (at >= 0) name = c.substring(at + 8).replaceAll("[\"';\\s].*$", "");
      }
      if (name != null && !name.isBlank()) break;
    }
    if (name == null || name.isBlank()) return null;
    try {
      Charset cs = Charset.forName(name.strip());
      // A page that says UTF-16 in ASCII bytes is not UTF-16 (and browsers read it as UTF-8).
      return cs.name().startsWith("UTF-16") || cs.name().startsWith("UTF-32") ? StandardCharsets.UTF_8 : cs;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String title(org.jsoup.nodes.Document page) {
    Element og = page.selectFirst("meta[property=og:title], meta[name=og:title]");
    if (og != null && !og.attr("content").isBlank()) return collapse(og.attr("content"));
    String t = collapse(page.title());
    if (!t.isEmpty()) return t;
    Element h1 = page.selectFirst("h1");
    return h1 == null ? "" : collapse(h1.text());
  }

  private static String collapse(String s) {
    return dev.ctxpack.text.TextNormalizer.storageForm(s).replaceAll("\\s+", " ").strip();
  }
}
