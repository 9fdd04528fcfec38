package dev.aerun.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** Medians and spreads of repeated measurements. */
final class Stats {
  private Stats() {}

  /**
   * A figure measured several times: its median and its spread (min–max).
   *
   * @param values every measurement, in the order taken
   */
  record Spread(double median, double min, double max, List<Double> values) {
    static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, List.of());

    /** One measurement (NaN: none). */
    static Spread of(double value) {
      return spread(List.of(value));
    }

    boolean known() {
      return !Double.isNaN(median);
    }

    /** {@code median (min–max)} with {@code format} for each number. */
    String format(String format) {
      return format(v -> Report.fmt(format, v));
    }

    String format(DoubleFunction<String> format) {
      if (!known()) {
        return "–";
      }
      String m = format.apply(median);
      return values.size() < 2 ? m : m + " (" + format.apply(min) + "–" + format.apply(max) + ")";
    }
  }

  /**
   * The spread of {@code values}, NaNs left out ({@link Spread#NONE} if none is left); the median
   * of an even count is the mean of the two middle values.
   */
  static Spread spread(List<Double> values) {
    List<Double> taken = values.stream().filter(v -> v != null && !v.isNaN()).toList();
    double[] s = taken.stream().mapToDouble(v -> v).sorted().toArray();
    int n = s.length;
    return n == 0
        ? Spread.NONE
        : new Spread((s[(n - 1) / 2] + s[n / 2]) / 2, s[0], s[n - 1], taken);
  }

  /** The median of {@code values} (NaN if there are none). */
  static double median(List<Double> values) {
    return spread(values).median();
  }

  /** Per peer, in the rows' order, the spread of {@code figure} over that peer's rows. */
  static <T> Map<String, Spread> byPeer(
      List<T> rows, Function<T, String> peer, ToDoubleFunction<T> figure) {
    Map<String, List<Double>> values = new LinkedHashMap<>();
    rows.forEach(
        r ->
            values
                .computeIfAbsent(peer.apply(r), k -> new ArrayList<>())
                .add(figure.applyAsDouble(r)));
    Map<String, Spread> spreads = new LinkedHashMap<>();
    values.forEach((p, v) -> spreads.put(p, spread(v)));
    return spreads;
  }
}
