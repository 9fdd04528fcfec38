package dev.aerun.bench;

import dev.aerun.bench.Results.CapacityStep;
import java.util.ArrayList;
import java.util.List;

/**
 * The capacity search: the highest fixed rate whose p99 latency stays under a bound, searched from
 * the server's measured peak downwards (a fraction of the peak at a time, then bisection between
 * the highest passing and the lowest failing rate). Each rate runs until two runs agree on pass or
 * fail, so that one pause (GC, JIT, the generator's own) neither ends the search early nor lets a
 * rate pass by luck.
 */
final class CapacitySearch {
  private CapacitySearch() {}

  /** One fixed-rate run at {@code rate}, warmed up and recorded by whoever implements it. */
  interface Stepper {
    CapacityStep run(double rate) throws Exception;
  }

  /** The highest rate that passed (0 if none did), and every run in the order run. */
  record Found(double capacityRate, List<CapacityStep> steps) {}

  /**
   * Searches down from {@code peak}: {@code fractions} of it, highest first, until one passes, then
   * {@code refinements} bisections between it and the fraction above it.
   */
  static Found search(double peak, double[] fractions, int refinements, Stepper stepper)
      throws Exception {
    List<CapacityStep> steps = new ArrayList<>();
    double passed = 0;
    double failed = 0;
    for (int i = 0; peak > 0 && i < fractions.length; i++) {
      double rate = round(peak * fractions[i]);
      if (rate <= 0) {
        break;
      }
      if (agreed(stepper, rate, steps)) {
        passed = rate;
        break;
      }
      failed = rate;
    }
    for (int i = 0; i < refinements && passed > 0 && failed > passed; i++) {
      double mid = round((passed + failed) / 2);
      if (mid <= passed || mid >= failed) {
        break;
      }
      if (agreed(stepper, mid, steps)) {
        passed = mid;
      } else {
        failed = mid;
      }
    }
    return new Found(passed, steps);
  }

  /** Runs {@code rate} until two runs agree (by the third at the latest); whether on a pass. */
  static boolean agreed(Stepper stepper, double rate, List<CapacityStep> steps) throws Exception {
    int passes = 0;
    for (int runs = 0; passes < 2 && runs - passes < 2; runs++) {
      CapacityStep step = stepper.run(rate);
      steps.add(step);
      passes += step.passed() ? 1 : 0;
    }
    return passes == 2;
  }

  /** Whether a run passes: no error, p99 under the bound, at least 95 % of the rate achieved. */
  static boolean passes(
      double targetRate, double achievedRate, double p99Millis, long errors, double boundMillis) {
    return errors == 0 && p99Millis <= boundMillis && achievedRate >= 0.95 * targetRate;
  }

  /** Rates in whole tens below 10,000/s, whole hundreds above. */
  static double round(double rate) {
    double unit = rate >= 10_000 ? 100 : 10;
    return Math.floor(rate / unit) * unit;
  }
}
