package dev.ctxpack.assemble;

import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link Replay.Result} as an SVG chart: one stacked bar per user turn, one colour per
 * component (bottom to top: system, tools, memories, few-shot, history, evidence, query), a dashed
 * line at the limit, and a marker ({@code <g id="compression-start" data-turn="N">}) at the turn
 * where the history first stopped being sent whole. Each bar segment carries a {@code <title>} with
 * its turn, component and tokens. Self-contained: no script, no external reference.
 */
public final class ReplayChart {
  /** Stacking order, bottom first. */
  static final List<Component> STACK = List.of(Component.SYSTEM, Component.TOOLS, Component.MEMORIES,
      Component.FEW_SHOT, Component.HISTORY, Component.EVIDENCE, Component.QUERY);

  private ReplayChart() {}

  static String colour(Component c) {
    return switch (c) {
      case SYSTEM -> "#4e79a7";
      case TOOLS -> "#f28e2b";
      case MEMORIES -> "#edc948";
      case FEW_SHOT -> "#b07aa1";
      case HISTORY -> "#59a14f";
      case EVIDENCE -> "#e15759";
      case QUERY -> "#76b7b2";
    };
  }

  public static String svg(Replay.Result r, String title) {
    int n = r.steps().size();
    double bar = Math.max(3, Math.min(36, 760.0 / n));
    double gap = bar * 0.25;
    double left = 70;
    double top = 40;
    double plotH = 300;
    double plotW = n * bar;
    double width = left + plotW + 210;
    double height = top + plotH + 60;
    int max = r.limit();
    for (Replay.Step s : r.steps()) max = Math.max(max, s.budget().used());
    double scale = plotH / max;
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(f(width)).append("\" height=\"").append(f(height))
        .append("\" viewBox=\"0 0 ").append(f(width)).append(' ').append(f(height))
        .append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
    sb.append("<title>").append(esc(title)).append("</title>\n");
    sb.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    sb.append("<text x=\"").append(f(left)).append("\" y=\"20\" font-size=\"14\">").append(esc(title)).append("</text>\n");
    // Axes and ticks.
    double base = top + plotH;
    sb.append("<line x1=\"").append(f(left)).append("\" y1=\"").append(f(top)).append("\" x2=\"").append(f(left))
        .append("\" y2=\"").append(f(base)).append("\" stroke=\"#333\"/>\n");
    sb.append("<line x1=\"").append(f(left)).append("\" y1=\"").append(f(base)).append("\" x2=\"").append(f(left + plotW))
        .append("\" y2=\"").append(f(base)).append("\" stroke=\"#333\"/>\n");
    for (int i = 0; i <= 4; i++) {
      int v = (int) Math.round((double) max * i / 4);
      double y = base - v * scale;
      sb.append("<text x=\"").append(f(left - 6)).append("\" y=\"").append(f(y + 4)).append("\" text-anchor=\"end\">")
          .append(v).append("</text>\n");
    }
    sb.append("<text x=\"14\" y=\"").append(f(top + plotH / 2)).append("\" transform=\"rotate(-90 14 ")
        .append(f(top + plotH / 2)).append(")\" text-anchor=\"middle\">tokens</text>\n");
    sb.append("<text x=\"").append(f(left + plotW / 2)).append("\" y=\"").append(f(base + 36))
        .append("\" text-anchor=\"middle\">user turn</text>\n");
    int every = Math.max(1, (int) Math.ceil(n / 20.0));
    for (int i = 0; i < n; i++) {
      Replay.Step s = r.steps().get(i);
      double x = left + i * bar + gap / 2;
      double y = base;
      sb.append("<g class=\"turn\" data-turn=\"").append(s.turn()).append("\">\n");
      for (Component c : STACK) {
        int t = s.budget().get(c);
        if (t <= 0) continue;
        double h = t * scale;
        y -= h;
        sb.append("<rect x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" width=\"").append(f(bar - gap))
            .append("\" height=\"").append(f(h)).append("\" fill=\"").append(colour(c)).append("\"><title>turn ")
            .append(s.turn()).append(": ").append(c.key()).append(' ').append(t).append(" tokens</title></rect>\n");
      }
      sb.append("</g>\n");
      if ((s.turn() - 1) % every == 0) {
        sb.append("<text x=\"").append(f(x + (bar - gap) / 2)).append("\" y=\"").append(f(base + 14))
            .append("\" text-anchor=\"middle\">").append(s.turn()).append("</text>\n");
      }
    }
    double ly = base - r.limit() * scale;
    sb.append("<g id=\"limit\"><line x1=\"").append(f(left)).append("\" y1=\"").append(f(ly)).append("\" x2=\"")
        .append(f(left + plotW)).append("\" y2=\"").append(f(ly)).append("\" stroke=\"#000\" stroke-dasharray=\"6 4\"/>")
        .append("<text x=\"").append(f(left + plotW + 4)).append("\" y=\"").append(f(ly + 4)).append("\">limit ")
        .append(r.limit()).append("</text></g>\n");
    if (r.compressionStartsAt() > 0) {
      int idx = 0;
      while (r.steps().get(idx).turn() != r.compressionStartsAt()) idx++;
      double mx = left + idx * bar + gap / 4;
      sb.append("<g id=\"compression-start\" data-turn=\"").append(r.compressionStartsAt()).append("\"><line x1=\"")
          .append(f(mx)).append("\" y1=\"").append(f(top - 6)).append("\" x2=\"").append(f(mx)).append("\" y2=\"")
          .append(f(base)).append("\" stroke=\"#d00\" stroke-width=\"2\"/><text x=\"").append(f(mx + 3)).append("\" y=\"")
          .append(f(top - 8)).append("\" fill=\"#d00\">history compacted from turn ").append(r.compressionStartsAt())
          .append("</text></g>\n");
    }
    double lx = left + plotW + 90;
    for (int i = 0; i < STACK.size(); i++) {
      Component c = STACK.get(STACK.size() - 1 - i);
      double y = top + i * 18;
      sb.append("<rect x=\"").append(f(lx)).append("\" y=\"").append(f(y)).append("\" width=\"12\" height=\"12\" fill=\"")
          .append(colour(c)).append("\"/><text x=\"").append(f(lx + 18)).append("\" y=\"").append(f(y + 10)).append("\">")
          .append(c.key()).append("</text>\n");
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String esc(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t') sb.append(' ');
          else sb.append(c);
        }
      }
    }
    return sb.toString();
  }
}
