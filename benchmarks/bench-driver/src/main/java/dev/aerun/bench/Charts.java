package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * Grouped bar charts as self-contained SVG: one group per category (an echo size, a percentile),
 * one bar per peer, each bar labelled with its value, a legend, and a linear or logarithmic axis.
 * Small on purpose: no plotting library, and a file any browser or Markdown viewer shows.
 */
final class Charts {
  private static final int WIDTH = 860;
  private static final int HEIGHT = 420;
  private static final int LEFT = 80;
  private static final int RIGHT = 20;
  private static final int TOP = 56;
  private static final int BOTTOM = 70;

  private Charts() {}

  /** One series: a peer's values, one per group (NaN where not measured). */
  record Series(String name, String color, double[] values) {}

  /**
   * Writes a grouped bar chart.
   *
   * @param log a logarithmic value axis (for figures that span orders of magnitude)
   * @param logBase the ratio between the ticks of a logarithmic axis: 10, or 32 for bytes (1 KiB,
   *     32 KiB, 1 MiB…)
   * @param format how a value is written on its bar and on the axis
   */
  static void groupedBars(
      Path file,
      String title,
      String axisLabel,
      List<String> groups,
      List<Series> series,
      boolean log,
      double logBase,
      DoubleFunction<String> format)
      throws IOException {
    double max = 0;
    double min = Double.MAX_VALUE;
    for (Series s : series) {
      for (double v : s.values()) {
        if (!Double.isNaN(v) && v > 0) {
          max = Math.max(max, v);
          min = Math.min(min, v);
        }
      }
    }
    if (max == 0) {
      max = 1;
      min = 1;
    }
    double lo;
    double hi;
    if (log) {
      double ln = Math.log(logBase);
      lo = Math.pow(logBase, Math.floor(Math.log(min) / ln));
      hi = Math.pow(logBase, Math.ceil(Math.log(max * 1.01) / ln));
      if (hi / lo < logBase) {
        hi = lo * logBase;
      }
    } else {
      lo = 0;
      hi = niceCeiling(max * 1.1);
    }
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    double lowY = lo;
    double highY = hi;
    DoubleFunction<Double> y =
        v -> {
          double f =
              log
                  ? (Math.log10(Math.max(v, lowY)) - Math.log10(lowY))
                      / (Math.log10(highY) - Math.log10(lowY))
                  : v / highY;
          return TOP + plotH * (1 - Math.max(0, Math.min(1, f)));
        };

    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(text(LEFT, 24, "start", "font-size=\"16\" font-weight=\"bold\"", title));
    // Axis and grid.
    for (double tick : ticks(lo, hi, log, logBase)) {
      double ty = y.apply(tick);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>%n",
              LEFT,
              ty,
              WIDTH - RIGHT,
              ty));
      svg.append(text(LEFT - 6, ty + 4, "end", "fill=\"#555\"", format.apply(tick)));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
            LEFT,
            TOP + plotH,
            WIDTH - RIGHT,
            TOP + plotH));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\""
                + " fill=\"#333\">%s%s</text>%n",
            TOP + plotH / 2,
            TOP + plotH / 2,
            escape(axisLabel),
            log ? " (log scale)" : ""));
    // Bars.
    int groupCount = Math.max(1, groups.size());
    double groupW = plotW / (double) groupCount;
    double barW = Math.min(60, groupW * 0.8 / Math.max(1, series.size()));
    for (int g = 0; g < groups.size(); g++) {
      double groupX = LEFT + g * groupW;
      double barsX = groupX + (groupW - barW * series.size()) / 2;
      for (int s = 0; s < series.size(); s++) {
        double v = series.get(s).values()[g];
        double x = barsX + s * barW;
        if (Double.isNaN(v)) {
          svg.append(text(x + barW / 2, TOP + plotH - 4, "middle", "fill=\"#999\"", "n/a"));
          continue;
        }
        double top = y.apply(v);
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                    + "<title>%s: %s</title></rect>%n",
                x + 1,
                top,
                barW - 2,
                Math.max(0.5, TOP + plotH - top),
                series.get(s).color(),
                escape(series.get(s).name()),
                escape(format.apply(v))));
        svg.append(
            text(
                x + barW / 2,
                top - 4,
                "middle",
                "font-size=\"10\" fill=\"#222\"",
                format.apply(v)));
      }
      svg.append(
          text(groupX + groupW / 2, TOP + plotH + 18, "middle", "fill=\"#222\"", groups.get(g)));
    }
    // Legend.
    double lx = LEFT;
    double ly = HEIGHT - 22;
    for (Series s : series) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
              lx,
              ly - 10,
              s.color()));
      svg.append(text(lx + 16, ly, "start", "fill=\"#222\"", s.name()));
      lx += 24 + 7.5 * s.name().length();
    }
    svg.append("</svg>\n");
    Files.writeString(file, svg);
  }

  private static List<Double> ticks(double lo, double hi, boolean log, double logBase) {
    List<Double> ticks = new ArrayList<>();
    if (log) {
      for (double t = lo; t <= hi * 1.0001; t *= logBase) {
        ticks.add(t);
      }
    } else {
      double step = niceCeiling(hi / 5);
      for (double t = 0; t <= hi * 1.0001; t += step) {
        ticks.add(t);
      }
    }
    return ticks;
  }

  /** The smallest 1, 2 or 5 times a power of ten at or above {@code v}. */
  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * power >= v * 0.9999) {
        return m * power;
      }
    }
    return 10 * power;
  }

  private static String text(double x, double y, String anchor, String attributes, String value) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" %s>%s</text>%n",
        x,
        y,
        anchor,
        attributes,
        escape(value));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
