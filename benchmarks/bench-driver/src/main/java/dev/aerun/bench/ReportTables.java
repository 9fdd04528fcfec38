package dev.aerun.bench;

import dev.aerun.bench.Charts.Series;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.Function;

/**
 * The report's tables and charts: one column per peer in run order, then the ratios between peers
 * (HttpConnector / bare, legacy / HttpConnector, and each peer given with {@code --peer} / bare).
 */
final class ReportTables {
  private static final String BARE = Peer.BARE.id;
  private static final String HTTP = Peer.HTTP.id;
  private static final String LEGACY = Peer.LEGACY.id;
  private static final String LEGACY_TCP = Peer.LEGACY_TCP.id;
  private static final Map<String, String> COLORS =
      Map.of(BARE, "#8c8c8c", HTTP, "#1f77b4", LEGACY, "#ff7f0e", LEGACY_TCP, "#d62728");
  private static final List<String> MORE_COLORS =
      List.of("#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22");

  final StringBuilder md;
  final List<Peer> peers;
  final List<String> charts = new ArrayList<>();
  private final Path chartDir;

  ReportTables(StringBuilder md, List<Peer> peers, Path chartDir) {
    this.md = md;
    this.peers = peers;
    this.chartDir = chartDir;
  }

  private String color(Peer peer) {
    String color = COLORS.get(peer.id);
    if (color != null) {
      return color;
    }
    int custom = (int) peers.stream().filter(Peer::isCustom).takeWhile(p -> p != peer).count();
    return MORE_COLORS.get(custom % MORE_COLORS.size());
  }

  /** The ratio columns: {numerator, denominator, title}. */
  private List<String[]> ratioColumns() {
    List<String[]> ratioColumns = new ArrayList<>();
    if (has(HTTP) && has(BARE)) {
      ratioColumns.add(new String[] {HTTP, BARE, "HttpConnector / bare"});
    }
    if (has(LEGACY) && has(HTTP)) {
      ratioColumns.add(new String[] {LEGACY, HTTP, "legacy / HttpConnector"});
    }
    if (has(LEGACY_TCP) && has(HTTP)) {
      ratioColumns.add(new String[] {LEGACY_TCP, HTTP, "legacy (tcp) / HttpConnector"});
    }
    for (Peer peer : peers) {
      if (peer.isCustom() && has(BARE)) {
        ratioColumns.add(new String[] {peer.id, BARE, peer.label + " / bare"});
      }
    }
    return ratioColumns;
  }

  /**
   * A table of figures measured in several rounds: each cell the median and the spread (min–max);
   * each ratio of medians, marked ≈ where the two spreads overlap (within noise).
   */
  void spreadTable(
      String first,
      List<String> rowNames,
      List<Map<String, Stats.Spread>> rows,
      List<String> formats) {
    List<String[]> ratioColumns = ratioColumns();
    header(first, ratioColumns);
    for (int i = 0; i < rowNames.size(); i++) {
      Map<String, Stats.Spread> row = rows.get(i);
      md.append("| ").append(rowNames.get(i));
      for (Peer peer : peers) {
        Stats.Spread v = row.get(peer.id);
        md.append(" | ").append(v == null ? "–" : v.format(formats.get(i)));
      }
      for (String[] ratio : ratioColumns) {
        Stats.Spread a = row.get(ratio[0]);
        Stats.Spread b = row.get(ratio[1]);
        String text = a == null || b == null ? "–" : ratio(a.median(), b.median());
        if (a != null && b != null && Verdicts.overlap(a, b) && !text.equals("–")) {
          text = "≈ " + text;
        }
        md.append(" | ").append(text);
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  /** A table's header: {@code first}, one column per peer, then {@code ratioColumns}. */
  void header(String first, List<String[]> ratioColumns) {
    md.append("| ").append(first);
    for (Peer peer : peers) {
      md.append(" | ").append(peer.label);
    }
    for (String[] ratio : ratioColumns) {
      md.append(" | ").append(ratio[2]);
    }
    md.append(" |\n|---");
    md.append("|---:".repeat(peers.size() + ratioColumns.size()));
    md.append("|\n");
  }

  /** A table: one row per figure, one column per peer, then the ratios. */
  void table(
      String first,
      List<String> rowNames,
      List<Map<String, Double>> rows,
      DoubleFunction<String> f) {
    table(first, rowNames, rows, rowNames.stream().map(n -> f).toList(), true);
  }

  void table(
      String first,
      List<String> rowNames,
      List<Map<String, Double>> rows,
      List<DoubleFunction<String>> formats) {
    table(first, rowNames, rows, formats, true);
  }

  void table(
      String first,
      List<String> rowNames,
      List<Map<String, Double>> rows,
      List<DoubleFunction<String>> formats,
      boolean ratios) {
    List<String[]> ratioColumns = ratios ? ratioColumns() : List.of();
    header(first, ratioColumns);
    for (int i = 0; i < rowNames.size(); i++) {
      Map<String, Double> row = rows.get(i);
      md.append("| ").append(rowNames.get(i));
      for (Peer peer : peers) {
        Double v = row.get(peer.id);
        md.append(" | ").append(v == null || v.isNaN() ? "–" : formats.get(i).apply(v));
      }
      for (String[] ratio : ratioColumns) {
        md.append(" | ").append(ratio(row.get(ratio[0]), row.get(ratio[1])));
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  boolean has(String peer) {
    return peers.stream().anyMatch(p -> p.id.equals(peer));
  }

  private static String ratio(Double a, Double b) {
    if (a == null || b == null || a.isNaN() || b.isNaN() || b == 0) {
      return "–";
    }
    double r = a / b;
    return String.format(Locale.ROOT, r >= 100 ? "%.0f×" : r >= 10 ? "%.1f×" : "%.2f×", r);
  }

  static <T> Map<String, Double> values(
      Map<String, T> rows, java.util.function.ToDoubleFunction<T> figure) {
    Map<String, Double> values = new java.util.HashMap<>();
    rows.forEach((peer, row) -> values.put(peer, figure.applyAsDouble(row)));
    return values;
  }

  static <T> double value(
      Map<String, T> rows, String peer, java.util.function.ToDoubleFunction<T> figure) {
    T row = rows.get(peer);
    return row == null ? Double.NaN : figure.applyAsDouble(row);
  }

  void chart(
      String file,
      String title,
      String axis,
      List<String> groups,
      Function<String, double[]> valuesOfPeer,
      boolean log,
      DoubleFunction<String> format)
      throws IOException {
    List<Series> series = new ArrayList<>();
    for (Peer peer : peers) {
      series.add(new Series(peer.label, color(peer), valuesOfPeer.apply(peer.id)));
    }
    // Byte axes tick at 1 KiB, 32 KiB, 1 MiB…; the others at powers of ten.
    double logBase = axis.contains("bytes") || axis.contains("heap") ? 32 : 10;
    Charts.groupedBars(chartDir.resolve(file), title, axis, groups, series, log, logBase, format);
    charts.add(file);
  }

  String label(String peerId) {
    return peers.stream()
        .filter(p -> p.id.equals(peerId))
        .map(p -> p.label)
        .findFirst()
        .orElse(peerId);
  }
}
