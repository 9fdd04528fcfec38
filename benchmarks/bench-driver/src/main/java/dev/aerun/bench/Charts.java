package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;

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
  private static final int BOTTOM = HEIGHT - 70;

  private Charts() {}

  /** One series: a peer's values, one per group (NaN where not measured). */
  record Series(String name, String color, double[] values) {}

  /**
   * Writes a grouped bar chart.
   *
   * @param logBase the ratio between the ticks of a logarithmic value axis (for figures that span
   *     orders of magnitude): 10, or 32 for bytes (1 KiB, 32 KiB, 1 MiB…); 0 for a linear axis
   * @param format how a value is written on its bar and on the axis
   */
  static void groupedBars(
      Path file,
      String title,
      String axisLabel,
      List<String> groups,
      List<Series> series,
      double logBase,
      DoubleFunction<String> format)
      throws IOException {
    double[] measured =
        series.stream()
            .flatMapToDouble(s -> Arrays.stream(s.values()))
            .filter(v -> v > 0)
            .toArray();
    double max = Arrays.stream(measured).max().orElse(1);
    double min = Arrays.stream(measured).min().orElse(1);
    boolean log = logBase > 0;
    double ln = Math.log(logBase);
    double lo = log ? Math.pow(logBase, Math.floor(Math.log(min) / ln)) : 0;
    double hi =
        log
            ? Math.max(Math.pow(logBase, Math.ceil(Math.log(max * 1.01) / ln)), lo * logBase)
            : niceCeiling(max * 1.1);
    DoubleUnaryOperator y =
        v -> {
          double f = log ? Math.log(Math.max(v, lo) / lo) / Math.log(hi / lo) : v / hi;
          return BOTTOM - (BOTTOM - TOP) * Math.max(0, Math.min(1, f));
        };
    StringBuilder svg = new StringBuilder();
    svg.append(
        Report.fmt(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                + " %d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n",
            WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(text(LEFT, 24, "start", "font-size=\"16\" font-weight=\"bold\"", title));
    double step = niceCeiling(hi / 5);
    for (double tick = lo; tick <= hi * 1.0001; tick = log ? tick * logBase : tick + step) {
      double ty = y.applyAsDouble(tick);
      svg.append(line(Report.fmt("%.1f", ty), "#e0e0e0"));
      svg.append(text(LEFT - 6, ty + 4, "end", "fill=\"#555\"", format.apply(tick)));
    }
    svg.append(line("" + BOTTOM, "#333"));
    int middle = (TOP + BOTTOM) / 2;
    svg.append(
        Report.fmt(
            "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\""
                + " fill=\"#333\">%s%s</text>%n",
            middle, middle, escape(axisLabel), log ? " (log scale)" : ""));
    double groupWidth = (WIDTH - LEFT - RIGHT) / (double) Math.max(1, groups.size());
    double barWidth = Math.min(60, groupWidth * 0.8 / Math.max(1, series.size()));
    for (int g = 0; g < groups.size(); g++) {
      double groupX = LEFT + g * groupWidth;
      for (int s = 0; s < series.size(); s++) {
        double v = series.get(s).values()[g];
        double x = groupX + (groupWidth - barWidth * series.size()) / 2 + (s + 0.5) * barWidth;
        if (Double.isNaN(v)) {
          svg.append(text(x, BOTTOM - 4, "middle", "fill=\"#999\"", "n/a"));
          continue;
        }
        double top = y.applyAsDouble(v);
        svg.append(
            Report.fmt(
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                    + "<title>%s: %s</title></rect>%n",
                x - barWidth / 2 + 1,
                top,
                barWidth - 2,
                Math.max(0.5, BOTTOM - top),
                series.get(s).color(),
                escape(series.get(s).name()),
                escape(format.apply(v))));
        svg.append(text(x, top - 4, "middle", "font-size=\"10\" fill=\"#222\"", format.apply(v)));
      }
      svg.append(
          text(groupX + groupWidth / 2, BOTTOM + 18, "middle", "fill=\"#222\"", groups.get(g)));
    }
    double legendX = LEFT;
    for (Series s : series) {
      svg.append(
          Report.fmt(
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
              legendX, HEIGHT - 32.0, s.color()));
      svg.append(text(legendX + 16, HEIGHT - 22, "start", "fill=\"#222\"", s.name()));
      legendX += 24 + 7.5 * s.name().length();
    }
    Files.writeString(file, svg.append("</svg>\n"));
  }

  /** The smallest 1, 2, 2.5 or 5 times a power of ten at or above {@code v}. */
  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 2.5, 5}) {
      if (m * power >= v * 0.9999) {
        return m * power;
      }
    }
    return 10 * power;
  }

  /** A horizontal line across the plot at {@code y}. */
  private static String line(String y, String color) {
    return Report.fmt(
        "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"%s\"/>%n",
        LEFT, y, WIDTH - RIGHT, y, color);
  }

  private static String text(double x, double y, String anchor, String attributes, String value) {
    return Report.fmt(
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" %s>%s</text>%n",
        x, y, anchor, attributes, escape(value));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
