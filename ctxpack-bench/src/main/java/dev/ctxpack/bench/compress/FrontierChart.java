package dev.ctxpack.bench.compress;

import java.util.List;
import java.util.Locale;

/**
 * An SVG line chart of answer retention (y, 0–100 %) against the share of input tokens kept (x):
 * one polyline with markers per method, a legend, and dashed lines at the budgets. Plain string
 * building, coordinates rounded to 0.1 px with {@link Locale#ROOT}, so the same figures give the
 * same bytes.
 */
public final class FrontierChart {
  static final int WIDTH = 840;
  static final int HEIGHT = 460;
  static final int LEFT = 64;
  static final int RIGHT = 310;
  static final int TOP = 48;
  static final int BOTTOM = 56;
  static final String[] COLORS = {
      "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

  private FrontierChart() {}

  /** A point: {@code x} the mean share of input tokens kept, {@code y} the retention, both in [0, 1]. */
  public record Point(double x, double y) {}

  /** One method's points, in budget order. */
  public record Series(String name, List<Point> points) {
    public Series {
      points = List.copyOf(points);
    }
  }

  /** The chart; {@code budgets} (shares of the input) are drawn as dashed vertical lines. */
  public static String svg(String title, List<Series> series, double[] budgets) {
    double xmax = 0.1;
    for (Series s : series) {
      for (Point p : s.points()) {
        if (Double.isFinite(p.x())) xmax = Math.max(xmax, p.x());
      }
    }
    for (double b : budgets) xmax = Math.max(xmax, b);
    xmax = Math.min(1.0, Math.ceil(xmax * 10 + 0.2) / 10);
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
    sb.append("<rect x=\"0\" y=\"0\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" fill=\"white\"/>\n");
    sb.append("<text x=\"").append(WIDTH / 2).append("\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">")
        .append(escape(title)).append("</text>\n");
    // grid and axes
    sb.append("<g class=\"axes\" stroke=\"#ccc\" stroke-width=\"1\">\n");
    for (int i = 0; i <= 10; i++) {
      double y = TOP + plotH - plotH * i / 10.0;
      sb.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(f(y)).append("\" x2=\"").append(f(LEFT + plotW))
          .append("\" y2=\"").append(f(y)).append("\"/>\n");
    }
    int xticks = (int) Math.round(xmax * 10);
    for (int i = 0; i <= xticks; i++) {
      double x = LEFT + plotW * i / (double) xticks;
      sb.append("<line x1=\"").append(f(x)).append("\" y1=\"").append(TOP).append("\" x2=\"").append(f(x))
          .append("\" y2=\"").append(f(TOP + plotH)).append("\"/>\n");
    }
    sb.append("</g>\n");
    sb.append("<g class=\"labels\" fill=\"#333\">\n");
    for (int i = 0; i <= 10; i++) {
      double y = TOP + plotH - plotH * i / 10.0;
      sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(y + 4)).append("\" text-anchor=\"end\">")
          .append(i * 10).append("%</text>\n");
    }
    for (int i = 0; i <= xticks; i++) {
      double x = LEFT + plotW * i / (double) xticks;
      sb.append("<text x=\"").append(f(x)).append("\" y=\"").append(f(TOP + plotH + 18))
          .append("\" text-anchor=\"middle\">").append(i * 10).append("%</text>\n");
    }
    sb.append("<text x=\"").append(f(LEFT + plotW / 2)).append("\" y=\"").append(HEIGHT - 12)
        .append("\" text-anchor=\"middle\">tokens kept (share of the input, mean per question)</text>\n");
    sb.append("<text x=\"16\" y=\"").append(f(TOP + plotH / 2)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 16 ")
        .append(f(TOP + plotH / 2)).append(")\">answer retained</text>\n");
    sb.append("</g>\n");
    sb.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(f(plotW))
        .append("\" height=\"").append(f(plotH)).append("\" fill=\"none\" stroke=\"#333\"/>\n");
    sb.append("<g class=\"budgets\" stroke=\"#999\" stroke-dasharray=\"4 4\">\n");
    for (double b : budgets) {
      double x = LEFT + plotW * b / xmax;
      sb.append("<line x1=\"").append(f(x)).append("\" y1=\"").append(TOP).append("\" x2=\"").append(f(x))
          .append("\" y2=\"").append(f(TOP + plotH)).append("\"><title>budget ").append(pct(b)).append("</title></line>\n");
    }
    sb.append("</g>\n");
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      String color = COLORS[k % COLORS.length];
      sb.append("<g class=\"series\" data-method=\"").append(escape(s.name())).append("\" stroke=\"").append(color)
          .append("\" fill=\"").append(color).append("\">\n");
      StringBuilder pts = new StringBuilder();
      for (Point p : s.points()) {
        if (!Double.isFinite(p.x()) || !Double.isFinite(p.y())) continue;
        if (pts.length() > 0) pts.append(' ');
        pts.append(f(LEFT + plotW * p.x() / xmax)).append(',').append(f(TOP + plotH - plotH * p.y()));
      }
      sb.append("<polyline fill=\"none\" stroke-width=\"2\" points=\"").append(pts).append("\"/>\n");
      for (Point p : s.points()) {
        if (!Double.isFinite(p.x()) || !Double.isFinite(p.y())) continue;
        sb.append("<circle cx=\"").append(f(LEFT + plotW * p.x() / xmax)).append("\" cy=\"")
            .append(f(TOP + plotH - plotH * p.y())).append("\" r=\"3.5\"><title>").append(escape(s.name())).append(": ")
            .append(pct(p.y())).append(" retained at ").append(pct(p.x())).append(" of the tokens</title></circle>\n");
      }
      double ly = TOP + 10 + 20 * k;
      double lx = LEFT + plotW + 16;
      sb.append("<line x1=\"").append(f(lx)).append("\" y1=\"").append(f(ly)).append("\" x2=\"").append(f(lx + 24))
          .append("\" y2=\"").append(f(ly)).append("\" stroke-width=\"2\"/>\n");
      sb.append("<circle cx=\"").append(f(lx + 12)).append("\" cy=\"").append(f(ly)).append("\" r=\"3.5\"/>\n");
      sb.append("<text x=\"").append(f(lx + 32)).append("\" y=\"").append(f(ly + 4)).append("\" stroke=\"none\" fill=\"#333\">")
          .append(escape(s.name())).append("</text>\n");
      sb.append("</g>\n");
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&apos;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
