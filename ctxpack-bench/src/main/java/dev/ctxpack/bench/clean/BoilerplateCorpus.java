package dev.ctxpack.bench.clean;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Real prose with injected boilerplate, every line labelled: the test bed of the cleaning
 * evaluation. Source items (a SciFact abstract with its title, a FaQuAD paragraph) are grouped into
 * documents, their text hard-wrapped into lines of about {@link #WRAP} characters as PDF text
 * extraction gives it, and the lines cut into pages. Each document belongs to one of four
 * publishers, whose style decides the injections:
 *
 * <ul>
 *   <li>a running head at the top of every page: the publisher's journal line (the same in every
 *       document of the publisher, its volume and year varying), the document's own title, or none;
 *   <li>a running foot at the bottom of every page: "Page N of M" / "Página N de M", a bare page
 *       number, "— N —" or "Pág. N";
 *   <li>zero to three corpus boilerplate lines (copyright, cookie notice, navigation, share links)
 *       drawn from the publisher's pool, each at the top, the bottom or between two paragraphs.
 * </ul>
 *
 * The paged form gives the page starts (as a PDF loader does); the unpaged form is the same text
 * without them, the heads and feet left where the page breaks were (text exported from a PDF, a
 * web page saved as text). Deterministic for a seed.
 */
final class BoilerplateCorpus {
  static final int WRAP = 90;

  /** What a line is. */
  enum Kind { PROSE, HEADER, FOOTER, BOILERPLATE, BLANK }

  /** A line {@code [start, end)} of a document's text (without its line break). */
  record Line(int start, int end, Kind kind) {
    boolean injected() {
      return kind == Kind.HEADER || kind == Kind.FOOTER || kind == Kind.BOILERPLATE;
    }
  }

  /** One generated document. */
  record Doc(String id, String text, List<Integer> pageStarts, List<Line> lines) {}

  /** A source item: a title (may be empty) and its prose. */
  record Item(String title, String text) {}

  /** A language's injections. */
  record Style(String language, List<String> journals, List<String> footers, List<List<String>> pools, int pageLines) {}

  static final Style EN = new Style("en",
      List.of("Journal of Clinical Evidence · Vol. %d · %d", "", "Biomedical Reports %d (%d) e1-e12", ""),
      List.of("Page %d of %d", "%d", "— %d —", "Page %d"),
      List.of(
          List.of("© %d Elsevier Inc. All rights reserved.", "Home | Journals | Books | Help | Sign in",
              "We use cookies to help provide and enhance our service and tailor content. By continuing you agree to the use of cookies."),
          List.of("This article is protected by copyright. All rights reserved.", "Skip to main content",
              "Share this article on Twitter or Facebook"),
          List.of("Download PDF", "Subscribe to our newsletter for the latest research news",
              "Copyright © %d The Authors. Published by Wiley Periodicals LLC."),
          List.of("Accepted manuscript, not the version of record.", "Back to top",
              "Open Access funded by the Research Council under a Creative Commons licence.")),
      30);

  static final Style PT = new Style("pt",
      List.of("Revista Brasileira de Ensino Superior · v. %d · %d", "", "Cadernos de Educação %d (%d) 1-12", ""),
      List.of("Página %d de %d", "%d", "Pág. %d", "— %d —"),
      List.of(
          List.of("Todos os direitos reservados.", "Início | Graduação | Pós-Graduação | Contato",
              "Este site utiliza cookies para melhorar sua experiência. Ao continuar navegando, você concorda com a nossa Política de Privacidade."),
          List.of("© %d Universidade Federal. Todos os direitos reservados.", "Pular para o conteúdo principal",
              "Compartilhe: Facebook | Twitter | WhatsApp"),
          List.of("Baixe o PDF", "Assine nossa newsletter e receba as novidades da pesquisa",
              "Versão aceita para publicação, sujeita a revisão."),
          List.of("Voltar ao topo", "Acesso aberto sob licença Creative Commons.", "Imprimir | Enviar por e-mail")),
      18);

  private BoilerplateCorpus() {}

  /** Documents of {@code itemsPerDoc} consecutive items each, paged or not. */
  static List<Doc> build(List<Item> items, int itemsPerDoc, Style style, boolean paged, long seed) {
    List<Doc> docs = new ArrayList<>();
    for (int from = 0, d = 0; from + itemsPerDoc <= items.size(); from += itemsPerDoc, d++) {
      docs.add(document(style.language() + d, items.subList(from, from + itemsPerDoc), d % 4, style, paged,
          new Random(seed * 1_000_003L + d)));
    }
    return docs;
  }

  private record Raw(String text, Kind kind) {}

  private static Doc document(String id, List<Item> items, int publisher, Style style, boolean paged, Random r) {
    // The prose lines, paragraphs separated by blank lines.
    List<Raw> body = new ArrayList<>();
    for (Item it : items) {
      if (!body.isEmpty()) body.add(new Raw("", Kind.BLANK));
      if (!it.title().isBlank()) for (String l : wrap(it.title())) body.add(new Raw(l, Kind.PROSE));
      for (String l : wrap(it.text())) body.add(new Raw(l, Kind.PROSE));
    }
    // Corpus boilerplate: each line of the publisher's pool with probability 0.7, at the top, the bottom or between paragraphs.
    int year = 2015 + r.nextInt(9);
    for (String b : style.pools().get(publisher)) {
      if (r.nextDouble() >= 0.7) continue;
      String line = b.contains("%d") ? String.format(Locale.ROOT, b, year) : b;
      int where = r.nextInt(3);
      int at;
      if (where == 0) {
        at = 0;
      } else if (where == 1) {
        at = body.size();
      } else {
        List<Integer> gaps = new ArrayList<>();
        for (int i = 0; i < body.size(); i++) if (body.get(i).kind() == Kind.BLANK) gaps.add(i + 1);
        at = gaps.isEmpty() ? 0 : gaps.get(r.nextInt(gaps.size()));
      }
      body.add(at, new Raw(line, Kind.BOILERPLATE));
    }
    // Pages: heads and feet around every pageLines lines.
    int pageCount = Math.max(1, (body.size() + style.pageLines() - 1) / style.pageLines());
    String title = items.get(0).title().isBlank() ? items.get(0).text() : items.get(0).title();
    String runningTitle = title.length() > 60 ? title.substring(0, title.lastIndexOf(' ', 60)) + " …" : title;
    String journal = style.journals().get(publisher);
    String head = publisher == 1 ? runningTitle
        : journal.isEmpty() ? "" : String.format(Locale.ROOT, journal, 1 + r.nextInt(30), year);
    StringBuilder sb = new StringBuilder();
    List<Integer> pageStarts = new ArrayList<>();
    List<Line> lines = new ArrayList<>();
    for (int p = 0; p < pageCount; p++) {
      pageStarts.add(sb.length());
      if (!head.isEmpty()) append(sb, lines, head, Kind.HEADER);
      for (int i = p * style.pageLines(); i < Math.min(body.size(), (p + 1) * style.pageLines()); i++) {
        append(sb, lines, body.get(i).text(), body.get(i).kind());
      }
      String foot = style.footers().get(publisher);
      append(sb, lines, foot.contains("of") || foot.contains("de")
          ? String.format(Locale.ROOT, foot, p + 1, pageCount) : String.format(Locale.ROOT, foot, p + 1), Kind.FOOTER);
    }
    return new Doc(id, sb.toString(), paged ? pageStarts : List.of(), lines);
  }

  private static void append(StringBuilder sb, List<Line> lines, String text, Kind kind) {
    int start = sb.length();
    sb.append(text);
    lines.add(new Line(start, sb.length(), kind));
    sb.append('\n');
  }

  /** Greedy word wrap at {@link #WRAP} characters. */
  static List<String> wrap(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String w : text.strip().split("\\s+")) {
      if (w.isEmpty()) continue;
      if (line.length() > 0 && line.length() + 1 + w.length() > WRAP) {
        out.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) line.append(' ');
      line.append(w);
    }
    if (line.length() > 0) out.add(line.toString());
    return out;
  }
}
