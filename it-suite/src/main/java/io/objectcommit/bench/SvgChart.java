package io.objectcommit.bench;

import java.util.List;
import java.util.Locale;

/**
 * A horizontal bar chart as SVG (no dependencies): panels stacked vertically, each with a title and one bar per
 * contender, objectcommit's bars in a colour of their own, the value written after each bar.
 */
final class SvgChart {

  /**
   * One bar.
   *
   * @param label the contender
   * @param value the value (non-negative)
   * @param ours whether the contender is one of objectcommit's
   */
  record Bar(String label, double value, boolean ours) {
  }

  /**
   * One panel.
   *
   * @param title what the panel shows, with its unit
   * @param format {@link String#format} pattern of a value, for example {@code %.1f s}
   * @param bars the bars, top to bottom
   */
  record Panel(String title, String format, List<Bar> bars) {
  }

  static final int WIDTH = 960;
  static final int LABEL_WIDTH = 380;
  static final int BAR_AREA = 440;
  static final int BAR_HEIGHT = 18;
  static final int BAR_GAP = 6;
  static final int TITLE_HEIGHT = 30;
  static final int PANEL_GAP = 18;
  private static final String OURS = "#1b7f4b";
  private static final String STOCK = "#8c96a3";

  private SvgChart() {
  }

  static String render(String title, List<Panel> panels) {
    int height = 64;
    for (Panel p : panels) {
      height += TITLE_HEIGHT + p.bars().size() * (BAR_HEIGHT + BAR_GAP) + PANEL_GAP;
    }
    height += 20;
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">%n",
        WIDTH, height, WIDTH, height));
    sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
    sb.append(text(12, 28, escape(title), "font-size=\"16\" font-weight=\"bold\""));
    sb.append(legend(12, 50));
    int y = 64;
    for (Panel p : panels) {
      y = panel(sb, p, y);
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static int panel(StringBuilder sb, Panel p, int top) {
    sb.append(text(12, top + 18, escape(p.title()), "font-size=\"13\" font-weight=\"bold\""));
    double max = p.bars().stream().mapToDouble(Bar::value).max().orElse(0);
    int y = top + TITLE_HEIGHT;
    for (Bar b : p.bars()) {
      double w = max <= 0 ? 0 : Math.max(b.value() / max * BAR_AREA, b.value() > 0 ? 1 : 0);
      sb.append(text(LABEL_WIDTH - 8, y + BAR_HEIGHT - 5, escape(b.label()), "text-anchor=\"end\""));
      sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
          LABEL_WIDTH, y, w, BAR_HEIGHT, b.ours() ? OURS : STOCK));
      sb.append(text((int) Math.round(LABEL_WIDTH + w + 6), y + BAR_HEIGHT - 5,
          escape(String.format(Locale.ROOT, p.format(), b.value())), ""));
      y += BAR_HEIGHT + BAR_GAP;
    }
    return y + PANEL_GAP;
  }

  private static String legend(int x, int y) {
    return String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n", x,
        y - 10, OURS) + text(x + 18, y, "objectcommit", "")
        + String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n", x + 120,
            y - 10, STOCK) + text(x + 138, y, "stock", "");
  }

  /** One SVG text element; {@code content} already escaped. */
  static String text(int x, int y, String content, String attributes) {
    return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\"%s>%s</text>%n", x, y,
        attributes.isEmpty() ? "" : " " + attributes, content);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
