package dev.aerun.bench;

import dev.aerun.bench.Stats.Spread;

/**
 * Verdicts on figures measured several times. A target is met only if it holds across the whole
 * spread (the worst of one peer against the best of the other), missed only if it fails across the
 * whole spread; in between, the spread covers the difference and the verdict is "within noise".
 */
final class Verdicts {
  static final String MET = "met";
  static final String MISSED = "missed";
  static final String WITHIN_NOISE = "within noise";
  static final String NOT_MEASURED = "not measured";
  static final String NOT_MEASURABLE = "not measurable on this machine";
  static final String NOT_RESOLVED = "not resolved in the quick profile";

  private Verdicts() {}

  /** {@code a ≤ factor × b}, for figures where lower is better (CPU, latency, start time). */
  static String atMost(Spread a, Spread b, double factor) {
    return judge(a, b, a.max() <= factor * b.min(), a.min() > factor * b.max());
  }

  /** {@code a ≥ factor × b}, for figures where higher is better (throughput, capacity). */
  static String atLeast(Spread a, Spread b, double factor) {
    return judge(a, b, a.min() >= factor * b.max(), a.max() < factor * b.min());
  }

  /**
   * {@code a − b ≤ bound}, for differences where lower is better (bytes allocated per request): met
   * when it holds for the worst pair of the spreads, missed when it fails for the best.
   */
  static String differenceAtMost(Spread a, Spread b, double bound) {
    return judge(a, b, a.max() - b.min() <= bound, a.min() - b.max() > bound);
  }

  /** Met if it holds across the whole spread, missed if it fails across it, else within noise. */
  private static String judge(Spread a, Spread b, boolean holdsForWorst, boolean failsForBest) {
    if (!a.known() || !b.known()) {
      return NOT_MEASURED;
    }
    return holdsForWorst ? MET : failsForBest ? MISSED : WITHIN_NOISE;
  }

  /** Whether the two spreads overlap: their difference is within noise. */
  static boolean overlap(Spread a, Spread b) {
    return a.known() && b.known() && a.min() <= b.max() && b.min() <= a.max();
  }

  /**
   * Whether {@code peer} beats bare Jetty by more than the noise: every measurement of the peer
   * better than every one of bare Jetty's. Bare Jetty does the least work of all peers on the same
   * app, so such a result points at the measurement, not at the peer.
   */
  static boolean beatsBeyondNoise(Spread peer, Spread bare, boolean lowerIsBetter) {
    if (!peer.known() || !bare.known()) {
      return false;
    }
    return lowerIsBetter ? peer.max() < bare.min() : peer.min() > bare.max();
  }

  /**
   * Whether a fixed-rate phase measured the server rather than the load generator: the generator's
   * p99 schedule lag is at most a tenth of the p99 latency it reports.
   */
  static boolean measurable(double lagP99, double latencyP99) {
    return lagP99 <= 0.10 * latencyP99;
  }

  /** Whether more than a third of {@code phases} fixed-rate phases are not measurable. */
  static boolean mostlyUnmeasurable(int unmeasurable, int phases) {
    return phases > 0 && unmeasurable * 3 > phases;
  }
}
