package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker.SectionMark;
import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * The text of cleaned HTML, as {@link HtmlLoader} stores it: whitespace collapsed (kept inside
 * {@code <pre>}), paragraphs and other blocks separated by a blank line, list items, table rows,
 * definition terms and {@code <br>} on a line of their own, table cells joined by {@code " | "}.
 * Each heading h1–h6 opens a section at the offset where its text starts; the path joins the
 * enclosing headings with {@code " > "}.
 */
final class HtmlText {
  private HtmlText() {}

  record Result(String text, List<SectionMark> sections) {}

  private static final Set<String> PARAGRAPH_BLOCKS = Set.of("p", "div", "section", "article", "main", "header",
      "blockquote", "pre", "table", "ul", "ol", "dl", "figure", "hr", "details", "h1", "h2", "h3", "h4", "h5", "h6",
      "address", "fieldset", "form", "center", "body");
  private static final Set<String> LINE_BLOCKS = Set.of("li", "tr", "dt", "dd", "br", "figcaption", "summary",
      "caption", "legend", "option", "thead", "tbody", "tfoot");
  /** Inside these, a paragraph block only breaks the line: a list item stays one item. */
  private static final Set<String> TIGHT = Set.of("li", "td", "th", "dd", "dt");

  static Result render(List<Element> roots) {
    Renderer r = new Renderer();
    for (Element root : roots) {
      r.breakAtLeast(2);
      NodeTraversor.traverse(r, root);
    }
    return new Result(r.out.toString(), r.sections);
  }

  private static final class Renderer implements NodeVisitor {
    final StringBuilder out = new StringBuilder();
    final List<SectionMark> sections = new ArrayList<>();
    private final String[] path = new String[6];
    private int pendingBreak;
    private boolean pendingSpace;
    private String pendingSeparator;
    private int pre;
    private int tight;
    private boolean cellInRow;
    private Element heading;
    private int headingStart = -1;

    @Override
    public void head(Node node, int depth) {
      if (node instanceof TextNode t) {
        text(t.getWholeText());
        return;
      }
      if (!(node instanceof Element e)) return;
      String n = e.normalName();
      block(n);
      switch (n) {
        case "pre" -> pre++;
        case "tr" -> cellInRow = false;
        case "td", "th" -> {
          if (cellInRow) pendingSeparator = " | ";
          cellInRow = true;
        }
        case "h1", "h2", "h3", "h4", "h5", "h6" -> {
          if (heading == null) {
            heading = e;
            headingStart = -1;
          }
        }
        default -> { }
      }
      if (TIGHT.contains(n)) tight++;
    }

    @Override
    public void tail(Node node, int depth) {
      if (!(node instanceof Element e)) return;
      String n = e.normalName();
      if (TIGHT.contains(n)) tight--;
      if (n.equals("pre")) pre--;
      if (e == heading) {
        if (headingStart >= 0) section(n.charAt(1) - '0', out.substring(headingStart).strip());
        heading = null;
      }
      if (!n.equals("br")) block(n);
    }

    private void block(String n) {
      if (PARAGRAPH_BLOCKS.contains(n)) breakAtLeast(tight > 0 ? 1 : 2);
      else if (LINE_BLOCKS.contains(n)) breakAtLeast(1);
    }

    void breakAtLeast(int lines) {
      pendingBreak = Math.max(pendingBreak, lines);
      pendingSeparator = null;
    }

    private void text(String raw) {
      String s = TextNormalizer.storageForm(raw);
      if (pre > 0) {
        for (int i = 0; i < s.length(); i++) {
          char c = s.charAt(i);
          if (c == '\n') {
            flush();
            out.append('\n');
          } else {
            emit(c);
          }
        }
        return;
      }
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isWhitespace(c) || c == '\u00A0') pendingSpace = true;
        else emit(c);
      }
    }

    private void emit(char c) {
      flush();
      if (heading != null && headingStart < 0) headingStart = out.length();
      out.append(c);
    }

    /** Writes the pending break, separator or space before visible text. */
    private void flush() {
      if (out.length() == 0) {
        pendingBreak = 0;
        pendingSpace = false;
        pendingSeparator = null;
        return;
      }
      if (pendingBreak > 0) {
        out.append(pendingBreak > 1 ? "\n\n" : "\n");
      } else if (pendingSeparator != null) {
        out.append(pendingSeparator);
      } else if (pendingSpace && out.charAt(out.length() - 1) != '\n') {
        out.append(' ');
      }
      pendingBreak = 0;
      pendingSpace = false;
      pendingSeparator = null;
    }

    private void section(int level, String headingText) {
      String h = headingText.replaceAll("\\s+", " ");
      if (h.isEmpty()) return;
      path[level - 1] = h;
      for (int i = level; i < 6; i++) path[i] = null;
      List<String> parts = new ArrayList<>();
      for (String p : path) if (p != null && !p.isEmpty()) parts.add(p);
      sections.add(new SectionMark(headingStart, String.join(" > ", parts)));
    }
  }
}
