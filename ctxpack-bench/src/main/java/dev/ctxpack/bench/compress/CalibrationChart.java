package dev.ctxpack.bench.compress;

import java.util.List;
import java.util.Locale;

/**
 * An SVG reliability diagram: observed frequency (y) against mean predicted probability (x) per
 * bin, one polyline per series (solid: REPORT half, dashed: FIT half), the diagonal of perfect
 * calibration, and under it the count of each bin on a log scale. Every bin is a {@code <circle
 * class="bin">} with its range, count, predicted mean and observed frequency as {@code data-}
 * attributes and a tooltip. Plain string building in the style of {@link FrontierChart},
 * coordinates rounded to 0.1 px with {@link Locale#ROOT}: the same figures give the same bytes.
 */
public final class CalibrationChart {
  static final int WIDTH = 840;
  static final int HEIGHT = 620;
  static final int LEFT = 64;
  static final int PLOT = 400;
  static final int TOP = 48;
  static final int HIST = 90;
  static final int GAP = 40;

  private CalibrationChart() {}

  /** One curve: a model on one half; {@code dashed} draws it as the secondary (FIT) curve. */
  public record Series(String name, Calibration.Result result, boolean dashed, int color) {}

  public static String svg(String title, List<Series> series) {
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
    sb.append("<rect x=\"0\" y=\"0\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT).append("\" fill=\"white\"/>\n");
    sb.append("<text x=\"").append(WIDTH / 2).append("\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">")
        .append(FrontierChart.escape(title)).append("</text>\n");
    int bins = series.isEmpty() ? 10 : series.get(0).result().bins().size();
    double histTop = TOP + PLOT + GAP;
    // grid
    sb.append("<g class=\"axes\" stroke=\"#ccc\" stroke-width=\"1\">\n");
    for (int i = 0; i <= 10; i++) {
      double v = TOP + PLOT - PLOT * i / 10.0;
      double h = LEFT + PLOT * i / 10.0;
      line(sb, LEFT, v, LEFT + PLOT, v, "");
      line(sb, h, TOP, h, TOP + PLOT, "");
    }
    sb.append("</g>\n");
    line(sb, LEFT, TOP + PLOT, LEFT + PLOT, TOP, " class=\"diagonal\" stroke=\"#999\" stroke-dasharray=\"2 3\"");
    sb.append("<g class=\"labels\" fill=\"#333\">\n");
    for (int i = 0; i <= 10; i += 2) {
      double v = TOP + PLOT - PLOT * i / 10.0;
      double h = LEFT + PLOT * i / 10.0;
      sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(v + 4)).append("\" text-anchor=\"end\">")
          .append(String.format(Locale.ROOT, "%.1f", i / 10.0)).append("</text>\n");
      sb.append("<text x=\"").append(f(h)).append("\" y=\"").append(f(histTop + HIST + 16)).append("\" text-anchor=\"middle\">")
          .append(String.format(Locale.ROOT, "%.1f", i / 10.0)).append("</text>\n");
    }
    sb.append("<text x=\"").append(f(LEFT + PLOT / 2.0)).append("\" y=\"").append(HEIGHT - 8)
        .append("\" text-anchor=\"middle\">predicted probability that the sentence holds the answer (bin mean)</text>\n");
    sb.append("<text x=\"16\" y=\"").append(f(TOP + PLOT / 2.0)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 16 ")
        .append(f(TOP + PLOT / 2.0)).append(")\">observed frequency</text>\n");
    sb.append("<text x=\"16\" y=\"").append(f(histTop + HIST / 2.0)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 16 ")
        .append(f(histTop + HIST / 2.0)).append(")\">sentences</text>\n");
    sb.append("</g>\n");
    sb.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(PLOT).append("\" height=\"")
        .append(PLOT).append("\" fill=\"none\" stroke=\"#333\"/>\n");
    sb.append("<rect x=\"").append(LEFT).append("\" y=\"").append(f(histTop)).append("\" width=\"").append(PLOT)
        .append("\" height=\"").append(HIST).append("\" fill=\"none\" stroke=\"#333\"/>\n");
    int max = 1;
    for (Series s : series) for (Calibration.Bin b : s.result().bins()) max = Math.max(max, b.count());
    double logMax = Math.log10(max + 1.0);
    sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(histTop + 4)).append("\" text-anchor=\"end\" fill=\"#333\">")
        .append(String.format(Locale.ROOT, "%,d", max)).append("</text>\n");
    sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(histTop + HIST)).append("\" text-anchor=\"end\" fill=\"#333\">0</text>\n");
    double slot = (double) PLOT / bins;
    double barW = Math.max(1, (slot - 4) / Math.max(1, series.size()));
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      String color = FrontierChart.COLORS[s.color() % FrontierChart.COLORS.length];
      sb.append("<g class=\"series\" data-series=\"").append(FrontierChart.escape(s.name())).append("\" stroke=\"").append(color)
          .append("\" fill=\"").append(color).append("\">\n");
      StringBuilder pts = new StringBuilder();
      for (Calibration.Bin b : s.result().bins()) {
        if (b.count() == 0) continue;
        if (pts.length() > 0) pts.append(' ');
        pts.append(f(x(b.predicted()))).append(',').append(f(y(b.observed())));
      }
      sb.append("<polyline fill=\"none\" stroke-width=\"2\"").append(s.dashed() ? " stroke-dasharray=\"6 4\"" : "")
          .append(" points=\"").append(pts).append("\"/>\n");
      List<Calibration.Bin> bs = s.result().bins();
      for (int i = 0; i < bs.size(); i++) {
        Calibration.Bin b = bs.get(i);
        String tip = String.format(Locale.ROOT, "%s, bin %.1f–%.1f: %,d sentences, predicted %.3f, observed %.3f", s.name(), b.lo(),
            b.hi(), b.count(), b.predicted(), b.observed());
        if (b.count() > 0) {
          sb.append("<circle class=\"bin\" data-lo=\"").append(String.format(Locale.ROOT, "%.1f", b.lo())).append("\" data-hi=\"")
              .append(String.format(Locale.ROOT, "%.1f", b.hi())).append("\" data-count=\"").append(b.count())
              .append("\" data-predicted=\"").append(String.format(Locale.ROOT, "%.4f", b.predicted())).append("\" data-observed=\"")
              .append(String.format(Locale.ROOT, "%.4f", b.observed())).append("\" cx=\"").append(f(x(b.predicted())))
              .append("\" cy=\"").append(f(y(b.observed()))).append("\" r=\"3.5\"").append(s.dashed() ? " fill=\"white\"" : "")
              .append("><title>").append(FrontierChart.escape(tip)).append("</title></circle>\n");
        }
        double h = b.count() == 0 ? 0 : HIST * Math.log10(b.count() + 1.0) / logMax;
        double bx = LEFT + slot * i + 2 + barW * k;
        sb.append("<rect class=\"count\" x=\"").append(f(bx)).append("\" y=\"").append(f(histTop + HIST - h)).append("\" width=\"")
            .append(f(barW)).append("\" height=\"").append(f(h)).append('"').append(s.dashed() ? " fill-opacity=\"0.35\"" : "")
            .append(" stroke=\"none\"><title>").append(FrontierChart.escape(tip)).append("</title></rect>\n");
      }
      double ly = TOP + 10 + 36 * k;
      double lx = LEFT + PLOT + 30;
      sb.append("<line x1=\"").append(f(lx)).append("\" y1=\"").append(f(ly)).append("\" x2=\"").append(f(lx + 24)).append("\" y2=\"")
          .append(f(ly)).append("\" stroke-width=\"2\"").append(s.dashed() ? " stroke-dasharray=\"6 4\"" : "").append("/>\n");
      sb.append("<text x=\"").append(f(lx + 32)).append("\" y=\"").append(f(ly + 4)).append("\" stroke=\"none\" fill=\"#333\">")
          .append(FrontierChart.escape(s.name())).append("</text>\n");
      Calibration.Result r = s.result();
      sb.append("<text class=\"ece\" x=\"").append(f(lx + 32)).append("\" y=\"").append(f(ly + 19)).append("\" stroke=\"none\" fill=\"#555\">")
          .append(String.format(Locale.ROOT, "ECE %.4f, Brier %.4f, %,d sentences", r.ece(), r.brier(), r.n())).append("</text>\n");
      sb.append("</g>\n");
    }
    sb.append("<text x=\"").append(LEFT + PLOT + 30).append("\" y=\"").append(f(TOP + PLOT - 4)).append("\" fill=\"#555\">")
        .append("dotted: perfect calibration; counts on a log scale</text>\n");
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static double x(double p) {
    return LEFT + PLOT * p;
  }

  private static double y(double p) {
    return TOP + PLOT - PLOT * p;
  }

  private static void line(StringBuilder sb, double x1, double y1, double x2, double y2, String attrs) {
    sb.append("<line").append(attrs).append(" x1=\"").append(f(x1)).append("\" y1=\"").append(f(y1)).append("\" x2=\"").append(f(x2))
        .append("\" y2=\"").append(f(y2)).append("\"/>\n");
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
