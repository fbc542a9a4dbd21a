package dev.ctxpack.ingest;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Main-content extraction for {@link HtmlLoader}, in the spirit of Mozilla's Readability, without
 * recursion (every walk is a jsoup {@link NodeTraversor} or a flat element list).
 *
 * <ol>
 *   <li>Drop what is never content: scripts, styles, embedded objects, form controls, {@code nav},
 *       {@code aside}, {@code menu}, {@code dialog}, {@code footer}, a {@code header} outside
 *       {@code main}/{@code article}, hidden elements ({@code hidden}, {@code aria-hidden},
 *       {@code display:none}), landmark roles other than main.
 *   <li>Drop elements whose class or id names boilerplate in English or Portuguese (nav, menu,
 *       cookie, consent, lgpd, ad, sponsor, share, comments, related, footer, sidebar; rodape,
 *       cabecalho, publicidade, anuncio, compartilhar, comentarios, relacionadas, leia-tambem…),
 *       unless it also names content (article, content, post, entry; conteudo, artigo, materia,
 *       noticia, texto…), contains {@code main}/{@code article}, or holds half the page's text.
 *   <li>Choose the content: {@code <main>} or {@code role=main}; else the outermost
 *       {@code <article>}s; else the element with the best paragraph score (each paragraph of 25+
 *       characters scores 1 + its commas + its length / 100 (at most 3) for its parent, half for its
 *       grandparent, a third for the next), weighted by class hints and by 1 − link density, with
 *       the siblings that score close to it; else the body.
 * </ol>
 */
final class HtmlContent {
  private HtmlContent() {}

  private static final String NEVER_CONTENT = "script, style, noscript, template, iframe, frame, frameset, object,"
      + " embed, applet, svg, canvas, math, audio, video, map, input, select, textarea, button, option, label,"
      + " nav, aside, menu, dialog, footer, [hidden], [aria-hidden=true], [aria-modal=true],"
      + " [role~=(?i)^(navigation|banner|contentinfo|complementary|search|dialog|alertdialog|menu|menubar|toolbar)$],"
      + " [style~=(?i)(display\\s*:\\s*none|visibility\\s*:\\s*hidden)]";
  private static final Pattern BOILERPLATE = Pattern.compile("(?:^|[\\s_-])(?:ads?|advert\\w*|adsense|adslot|dfp"
      + "|sponsor\\w*|promo\\w*|banner\\w*|cookies?\\w*|consent\\w*|gdpr|lgpd|onetrust|nav|navbar|navigation|menu\\w*"
      + "|breadcrumbs?|footer\\w*|header|masthead|sidebar\\w*|widget\\w*|social|share\\w*|sharing|comments?"
      + "|disqus|related|newsletter|subscribe|signup|login|popup|modal|pagination|pager|skip\\w*|toolbar|sr-only"
      + "|visually-hidden|screen-reader-text|print-only|rodape|cabecalho|navegacao|publicidade|anuncios?"
      + "|patrocin\\w*|compartilh\\w*|partilh\\w*|comentarios?|relacionad\\w*|leia-tambem|veja-tambem|saiba-mais"
      + "|assine|migalhas?|barra-lateral|lateral)(?:$|[\\s_-])");
  private static final Pattern CONTENT = Pattern.compile("(?:^|[\\s_-])(?:article\\w*|content|main|entry\\w*|post"
      + "|story|text|body|blog|hentry|conteudo|artigo|materia|noticia|texto|corpo|principal)(?:$|[\\s_-])");
  private static final Set<String> PARAGRAPHS = Set.of("p", "pre", "td", "blockquote", "dd");
  private static final Set<String> NEVER_DROPPED = Set.of("html", "head", "body", "main", "article");
  private static final int MIN_PARAGRAPH = 25;

  /** The elements whose text is the page's content, in document order; cleans {@code page} in place. */
  static List<Element> mainContent(org.jsoup.nodes.Document page) {
    Element body = page.body();
    page.select(NEVER_CONTENT).remove();
    // Page headers go; an article's header (its title, its byline) stays.
    for (Element h : outermost(body, e -> e.normalName().equals("header"), HtmlContent::isMain)) h.remove();
    dropByHints(body);
    List<Element> main = outermost(body, e -> e.normalName().equals("main") || e.attr("role").equalsIgnoreCase("main"),
        e -> false);
    if (!main.isEmpty()) return main;
    List<Element> articles = outermost(body, e -> e.normalName().equals("article"), e -> false);
    if (!articles.isEmpty()) return articles;
    Stats stats = Stats.of(body);
    Element best = bestCandidate(body, stats);
    if (best == null || best == body) return List.of(body);
    return withSiblings(best, stats);
  }

  private static void dropByHints(Element body) {
    Stats stats = Stats.of(body);
    long pageText = stats.text(body);
    Map<Element, Boolean> holdsContent = new IdentityHashMap<>();
    for (Element e : body.select("main, article, [role=main]")) {
      for (Element a = e; a != null && holdsContent.put(a, Boolean.TRUE) == null; a = a.parent()) {
        // marks every ancestor once
      }
    }
    List<Element> drop = new ArrayList<>();
    for (Element e : body.getAllElements()) {
      if (NEVER_DROPPED.contains(e.normalName()) || holdsContent.containsKey(e)) continue;
      String hints = hints(e);
      if (hints.isEmpty() || !BOILERPLATE.matcher(hints).find() || CONTENT.matcher(hints).find()) continue;
      if (pageText > 0 && stats.text(e) * 2 >= pageText) continue;
      drop.add(e);
    }
    for (Element e : drop) e.remove();
  }

  /** Class names and id, lower case, without accents. */
  static String hints(Element e) {
    String s = (e.className() + " " + e.id()).strip();
    if (s.isEmpty()) return s;
    s = s.toLowerCase(Locale.ROOT);
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}+", "");
      }
    }
    return s;
  }

  private static Element bestCandidate(Element body, Stats stats) {
    Map<Element, Double> scores = new IdentityHashMap<>();
    for (Element p : body.getAllElements()) {
      boolean paragraph = PARAGRAPHS.contains(p.normalName())
          || (p.normalName().equals("div") || p.normalName().equals("section")) && stats.ownText(p) >= MIN_PARAGRAPH;
      if (!paragraph) continue;
      long len = stats.text(p);
      if (len < MIN_PARAGRAPH) continue;
      double score = 1 + stats.commas(p) + Math.min(len / 100.0, 3);
      Element a = p.parent();
      for (int level = 0; level < 3 && a != null; level++, a = a.parent()) {
        scores.merge(a, score / (level + 1), Double::sum);
      }
    }
    // In document order, so the first of equal scores wins whatever the hash codes are.
    Element best = null;
    double bestScore = 0;
    for (Element e : body.getAllElements()) {
      Double paragraphs = scores.get(e);
      if (paragraphs == null) continue;
      double s = finalScore(e, paragraphs, stats);
      if (s > bestScore) {
        best = e;
        bestScore = s;
      }
    }
    return best;
  }

  private static double finalScore(Element e, double paragraphs, Stats stats) {
    return (paragraphs + weight(e)) * (1 - stats.linkDensity(e));
  }

  private static double weight(Element e) {
    double w = switch (e.normalName()) {
      case "div", "section" -> 5;
      case "pre", "td", "blockquote" -> 3;
      case "ol", "ul", "dl", "dd", "dt", "li", "form", "address" -> -3;
      case "h1", "h2", "h3", "h4", "h5", "h6", "th" -> -5;
      default -> 0;
    };
    String hints = hints(e);
    if (!hints.isEmpty()) {
      if (CONTENT.matcher(hints).find()) w += 25;
      if (BOILERPLATE.matcher(hints).find()) w -= 25;
    }
    return w;
  }

  /** {@code best} and the siblings that look like more of the same content, in document order. */
  private static List<Element> withSiblings(Element best, Stats stats) {
    Element parent = best.parent();
    if (parent == null) return List.of(best);
    List<Element> out = new ArrayList<>();
    double bestScore = weight(best) + stats.text(best) / 100.0;
    for (Element s : parent.children()) {
      if (s == best) {
        out.add(s);
        continue;
      }
      long len = stats.text(s);
      double density = stats.linkDensity(s);
      boolean alike = weight(s) + len / 100.0 >= Math.max(10, bestScore * 0.2) && density < 0.25;
      boolean paragraph = s.normalName().equals("p") && (len > 80 && density < 0.25 || len > 0 && density == 0
          && stats.sentenceEnd(s));
      if (alike || paragraph) out.add(s);
    }
    return out;
  }

  private static boolean isMain(Element e) {
    String n = e.normalName();
    return n.equals("main") || n.equals("article") || e.attr("role").equalsIgnoreCase("main");
  }

  /**
   * The elements under {@code root} that {@code match}, outside any other match and outside any
   * element that is {@code inside} (one walk, so deep nesting costs no more than wide pages).
   */
  private static List<Element> outermost(Element root, Predicate<Element> match, Predicate<Element> inside) {
    List<Element> out = new ArrayList<>();
    NodeTraversor.traverse(new NodeVisitor() {
      private Element skipUntil;

      @Override
      public void head(Node node, int depth) {
        if (skipUntil != null || !(node instanceof Element e)) return;
        if (match.test(e)) out.add(e);
        if (match.test(e) || inside.test(e)) skipUntil = e;
      }

      @Override
      public void tail(Node node, int depth) {
        if (node == skipUntil) skipUntil = null;
      }
    }, root);
    return out;
  }

  /** Text lengths (whitespace collapsed), link text lengths and commas per element, from one walk. */
  static final class Stats {
    private final Map<Element, long[]> sums = new IdentityHashMap<>();
    private final Map<Element, Boolean> endsSentence = new IdentityHashMap<>();

    static Stats of(Element root) {
      Stats st = new Stats();
      int[] inLink = {0};
      NodeTraversor.traverse(new NodeVisitor() {
        @Override
        public void head(Node node, int depth) {
          if (node instanceof TextNode t) {
            Element parent = (Element) t.parent();
            String text = t.text().strip();
            if (text.isEmpty() || parent == null) return;
            long[] s = st.sums(parent);
            s[0] += text.length();
            s[1] += inLink[0] > 0 ? text.length() : 0;
            s[2] += commas(text);
            s[3] += text.length();
            char last = text.charAt(text.length() - 1);
            if (last == '.' || last == '!' || last == '?') st.endsSentence.put(parent, Boolean.TRUE);
          } else if (node instanceof Element e && e.normalName().equals("a")) {
            inLink[0]++;
          }
        }

        @Override
        public void tail(Node node, int depth) {
          if (!(node instanceof Element e)) return;
          if (e.normalName().equals("a")) inLink[0]--;
          Element parent = e.parent();
          long[] s = st.sums.get(e);
          if (parent == null || s == null || e == root) return;
          long[] p = st.sums(parent);
          p[0] += s[0];
          p[1] += s[1];
          p[2] += s[2];
        }
      }, root);
      return st;
    }

    private long[] sums(Element e) {
      return sums.computeIfAbsent(e, k -> new long[4]);
    }

    long text(Element e) {
      long[] s = sums.get(e);
      return s == null ? 0 : s[0];
    }

    /** Text in the element's own text nodes, not its children's. */
    long ownText(Element e) {
      long[] s = sums.get(e);
      return s == null ? 0 : s[3];
    }

    long commas(Element e) {
      long[] s = sums.get(e);
      return s == null ? 0 : s[2];
    }

    double linkDensity(Element e) {
      long[] s = sums.get(e);
      return s == null || s[0] == 0 ? 0 : (double) s[1] / s[0];
    }

    boolean sentenceEnd(Element e) {
      return endsSentence.containsKey(e);
    }

    private static int commas(String text) {
      int n = 0;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == ',' || c == '\uFF0C' || c == '\u060C') n++;
      }
      return n;
    }
  }
}
