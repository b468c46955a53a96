package io.objectcommit.bench;

import java.util.List;
import java.util.Locale;

/**
 * A log-log line chart as SVG (no dependencies), beside {@link SvgChart}'s bar charts: panels stacked vertically,
 * each with one line per series and the series named on the right (objectcommit's in colours of their own); points with a non-positive coordinate are left
 * out (a log axis cannot show them).
 */
final class SvgLineChart {

  /**
   * One line.
   *
   * @param label the contender
   * @param xs x values, ascending
   * @param ys y values, as many as {@code xs}
   */
  record Series(String label, List<Double> xs, List<Double> ys) {
  }

  /**
   * One panel.
   *
   * @param title what the panel shows
   * @param xLabel the x axis, with its unit
   * @param series the lines
   */
  record Panel(String title, String xLabel, List<Series> series) {
  }

  private static final int WIDTH = SvgChart.WIDTH;
  private static final int LEFT = 70;
  private static final int PLOT_WIDTH = 500;
  private static final int PLOT_HEIGHT = 260;
  private static final int PANEL_HEIGHT = PLOT_HEIGHT + 90;
  /** objectcommit's lines in greens and blues, the stock components' in greys, oranges and reds (as SvgChart). */
  private static final String[] OURS = {"#1b7f4b", "#2e86de", "#16a085", "#0b4f8a"};
  private static final String[] STOCK = {"#8c96a3", "#d9822b", "#7e57c2", "#c0392b", "#6d4c41"};

  private SvgLineChart() {
  }

  static String render(String title, List<Panel> panels) {
    int height = 50 + panels.size() * PANEL_HEIGHT;
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">%n",
        WIDTH, height, WIDTH, height));
    sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
    sb.append(SvgChart.text(12, 28, SvgChart.escape(title), "font-size=\"16\" font-weight=\"bold\""));
    int top = 50;
    for (Panel p : panels) {
      panel(sb, p, top);
      top += PANEL_HEIGHT;
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static void panel(StringBuilder sb, Panel p, int top) {
    sb.append(SvgChart.text(12, top + 16, SvgChart.escape(p.title()), "font-size=\"13\" font-weight=\"bold\""));
    int y0 = top + 30;
    double[] xr = range(p.series(), true);
    double[] yr = range(p.series(), false);
    sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
        + " stroke=\"#444\"/>%n", LEFT, y0, PLOT_WIDTH, PLOT_HEIGHT));
    if (xr == null || yr == null) {
      sb.append(SvgChart.text(LEFT + 10, y0 + 20, "no data", ""));
      return;
    }
    for (double d = xr[0]; d <= xr[1] + 1e-9; d++) {
      double x = LEFT + (d - xr[0]) / (xr[1] - xr[0]) * PLOT_WIDTH;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
          x, y0, x, y0 + PLOT_HEIGHT));
      sb.append(SvgChart.text((int) x, y0 + PLOT_HEIGHT + 16, tick(d), "text-anchor=\"middle\""));
    }
    for (double d = yr[0]; d <= yr[1] + 1e-9; d++) {
      double y = y0 + PLOT_HEIGHT - (d - yr[0]) / (yr[1] - yr[0]) * PLOT_HEIGHT;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, y, LEFT + PLOT_WIDTH, y));
      sb.append(SvgChart.text(LEFT - 6, (int) y + 4, tick(d), "text-anchor=\"end\""));
    }
    sb.append(SvgChart.text(LEFT + PLOT_WIDTH / 2, y0 + PLOT_HEIGHT + 34, SvgChart.escape(p.xLabel()),
        "text-anchor=\"middle\""));
    int legendY = y0 + 10;
    int ours = 0;
    int stock = 0;
    for (Series s : p.series()) {
      String colour = BenchCharts.ours(s.label()) ? OURS[ours++ % OURS.length] : STOCK[stock++ % STOCK.length];
      StringBuilder points = new StringBuilder();
      for (int k = 0; k < s.xs().size(); k++) {
        double x = s.xs().get(k);
        double y = s.ys().get(k);
        if (x <= 0 || y <= 0) {
          continue;
        }
        double px = LEFT + (Math.log10(x) - xr[0]) / (xr[1] - xr[0]) * PLOT_WIDTH;
        double py = y0 + PLOT_HEIGHT - (Math.log10(y) - yr[0]) / (yr[1] - yr[0]) * PLOT_HEIGHT;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", px, py,
            colour));
      }
      sb.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"2\"/>%n", points.toString().trim(), colour));
      sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
          LEFT + PLOT_WIDTH + 16, legendY - 10, colour));
      sb.append(SvgChart.text(LEFT + PLOT_WIDTH + 34, legendY, SvgChart.escape(s.label()), ""));
      legendY += 20;
    }
  }

  /** The decades (log10, whole numbers) covering the positive x or y values of all series; null when none. */
  static double[] range(List<Series> series, boolean x) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (int k = 0; k < s.xs().size(); k++) {
        if (s.xs().get(k) <= 0 || s.ys().get(k) <= 0) {
          continue;
        }
        double v = Math.log10(x ? s.xs().get(k) : s.ys().get(k));
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    if (lo > hi) {
      return null;
    }
    double from = Math.floor(lo);
    double to = Math.max(Math.ceil(hi), from + 1);
    return new double[] {from, to};
  }

  private static String tick(double decade) {
    double v = Math.pow(10, decade);
    return v >= 1 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%s", v);
  }
}
