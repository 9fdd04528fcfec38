package dev.aerun.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

    boolean known() {
      return !Double.isNaN(median);
    }

    /** {@code median (min–max)} with {@code format} for each number. */
    String format(String format) {
      if (!known()) {
        return "–";
      }
      String m = String.format(Locale.ROOT, format, median);
      if (values.size() < 2) {
        return m;
      }
      return m
          + " ("
          + String.format(Locale.ROOT, format, min)
          + "–"
          + String.format(Locale.ROOT, format, max)
          + ")";
    }
  }

  /** The spread of {@code values}, NaNs left out; {@link Spread#NONE} if none is left. */
  static Spread spread(List<Double> values) {
    List<Double> sorted = new ArrayList<>();
    for (Double v : values) {
      if (v != null && !v.isNaN()) {
        sorted.add(v);
      }
    }
    if (sorted.isEmpty()) {
      return Spread.NONE;
    }
    List<Double> taken = List.copyOf(sorted);
    sorted.sort(null);
    return new Spread(median(sorted), sorted.get(0), sorted.get(sorted.size() - 1), taken);
  }

  /** The median of sorted values: the middle one, or the mean of the two middle ones. */
  private static double median(List<Double> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
