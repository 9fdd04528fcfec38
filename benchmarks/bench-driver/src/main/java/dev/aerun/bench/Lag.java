package dev.aerun.bench;

/**
 * The rule that says whether a fixed-rate phase measured the server or the load generator: the
 * generator's own schedule lag must stay small beside the latency it reports.
 */
final class Lag {
  /** The largest p99 lag, as a share of the reported p99 latency, of a measurable phase. */
  static final double MAX_SHARE = 0.10;

  private Lag() {}

  /** Whether a phase whose p99 lag and p99 latency are these measured the server. */
  static boolean measurable(double lagP99, double latencyP99) {
    return lagP99 <= MAX_SHARE * latencyP99;
  }

  /** Whether more than a third of {@code phases} phases are not measurable. */
  static boolean mostlyUnmeasurable(int unmeasurable, int phases) {
    return phases > 0 && unmeasurable * 3 > phases;
  }
}
