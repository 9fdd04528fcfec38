package dev.aerun.bench;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;

import java.time.Duration;

/**
 * How long and how hard each scenario runs: {@link #quick()} checks that everything works and gives
 * rough figures in under five minutes, {@link #full()} gives figures worth comparing. What each one
 * means: docs/BENCHMARKS.md.
 *
 * @param stealAttempts the most runs of a timed phase the hypervisor's steal disturbed ({@link
 *     Steal}), after waiting at most {@code stealCalmBudget} in all for bursts to pass
 */
record Profile(
    String name,
    Echo echo,
    Timed timed,
    Capacity capacity,
    int stealAttempts,
    Duration stealCalmBudget) {

  /**
   * The echo scenario.
   *
   * @param warmup requests before the measured ones, per size class (≤ 256 KiB, ≤ 4 MiB, more)
   * @param requests measured requests per size class
   * @param heapSamples echo requests that measure the heap after GC, per size
   * @param rounds server JVMs of each peer (but legacy mode's) that run the echo, interleaved
   */
  record Echo(int[] warmup, int[] requests, int heapSamples, int rounds) {
    int warmup(long size) {
      return warmup[sizeClass(size)];
    }

    int requests(long size) {
      return requests[sizeClass(size)];
    }

    private static int sizeClass(long size) {
      return size <= 256 * 1024 ? 0 : size <= 4 * 1024 * 1024 ? 1 : 2;
    }
  }

  /**
   * The fixed-rate scenarios and the cold starts.
   *
   * @param warmup the unrecorded lead-in of every fixed-rate run; {@code measure} the recorded part
   * @param idle how long the server is left idle to measure its CPU at rest
   * @param rounds how many times the timing scenarios run, the peers interleaved
   * @param coldStarts cold starts per peer (the first comes with the peer's main run)
   */
  record Timed(
      int cpuRate,
      int latencyRate5k,
      int latencyRate1m,
      Duration warmup,
      Duration measure,
      Duration idle,
      int rounds,
      int coldStarts) {}

  /**
   * The closed-loop peak and the capacity search.
   *
   * @param warmupTime the least closed-loop lead-in of a peer's first capacity round (up to 5 ×)
   * @param warmup the lead-in of each rate the search tries; {@code step} the recorded part
   * @param fractions the fractions of the peak the search tries, highest first; none: capacity not
   *     resolved ({@link #resolved})
   * @param refinements bisections between the highest passing and lowest failing fraction
   */
  record Capacity(
      Duration warmupTime,
      Duration peakTime,
      Duration warmup,
      Duration step,
      double[] fractions,
      int refinements) {
    /** Whether the capacity is searched and it and the peak are results (not in quick). */
    boolean resolved() {
      return fractions.length > 0;
    }
  }

  static Profile quick() {
    return new Profile(
        "quick",
        new Echo(new int[] {100, 20, 2}, new int[] {300, 30, 3}, 1, 1),
        new Timed(200, 500, 50, ofMillis(500), ofMillis(1500), ofMillis(500), 3, 1),
        // No search: two quick runs' capacities differed by up to half on a quiet machine.
        new Capacity(ofSeconds(3), ofSeconds(2), ofMillis(200), ofMillis(800), new double[0], 0),
        3,
        ofSeconds(60));
  }

  static Profile full() {
    double[] fractions = {0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1};
    return new Profile(
        "full",
        new Echo(new int[] {3000, 300, 10}, new int[] {5000, 500, 60}, 5, 3),
        new Timed(500, 1000, 100, ofSeconds(10), ofSeconds(10), ofSeconds(5), 5, 5),
        new Capacity(ofSeconds(10), ofSeconds(5), ofMillis(500), ofSeconds(2), fractions, 2),
        5,
        Duration.ofMinutes(5));
  }
}
