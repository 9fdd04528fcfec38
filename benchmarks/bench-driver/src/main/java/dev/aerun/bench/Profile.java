package dev.aerun.bench;

import java.time.Duration;

/**
 * How long and how hard each scenario runs: {@link #quick()} checks that everything works and gives
 * rough figures in under five minutes, {@link #full()} gives figures worth comparing. What each one
 * means: docs/BENCHMARKS.md.
 *
 * @param echoWarmup requests before the measured ones, per size class (≤ 256 KiB, ≤ 4 MiB, more)
 * @param echoRequests measured requests per size class
 * @param heapSamples echo requests that measure the heap after GC, per size
 * @param echoRounds server JVMs of each peer (but legacy mode's) that run the echo, interleaved
 * @param warmup the unrecorded lead-in of every fixed-rate run; {@code measure} the recorded part
 * @param idle how long the server is left idle to measure its CPU at rest
 * @param rounds how many times the timing scenarios run, the peers interleaved
 * @param warmupTime the least closed-loop lead-in of a peer's first capacity round (up to 5 ×)
 * @param capacityFractions the fractions of the peak the capacity search tries, highest first;
 *     none: capacity not resolved ({@link #resolvesCapacity})
 * @param capacityRefinements bisections between the highest passing and lowest failing fraction
 * @param coldStarts cold starts per peer (the first comes with the peer's main run)
 * @param stealAttempts the most runs of a timed phase the hypervisor's steal disturbed ({@link
 *     Steal}), after waiting at most {@code stealCalmBudget} in all for bursts to pass
 */
record Profile(
    String name,
    int[] echoWarmup,
    int[] echoRequests,
    int heapSamples,
    int echoRounds,
    int cpuRate,
    int latencyRate5k,
    int latencyRate1m,
    Duration warmup,
    Duration measure,
    Duration idle,
    int rounds,
    Duration warmupTime,
    Duration peakTime,
    Duration capacityWarmup,
    Duration capacityStep,
    double[] capacityFractions,
    int capacityRefinements,
    int coldStarts,
    int stealAttempts,
    Duration stealCalmBudget) {

  static Profile quick() {
    return new Profile(
        "quick",
        new int[] {100, 20, 2},
        new int[] {300, 30, 3},
        1,
        1,
        200,
        500,
        50,
        Duration.ofMillis(500),
        Duration.ofMillis(1500),
        Duration.ofMillis(500),
        3,
        Duration.ofSeconds(3),
        Duration.ofSeconds(2),
        Duration.ofMillis(200),
        Duration.ofMillis(800),
        // No search: two quick runs' capacities differed by up to half on a quiet machine.
        new double[0],
        0,
        1,
        3,
        Duration.ofSeconds(60));
  }

  static Profile full() {
    return new Profile(
        "full",
        new int[] {3000, 300, 10},
        new int[] {5000, 500, 60},
        5,
        3,
        500,
        1000,
        100,
        Duration.ofSeconds(10),
        Duration.ofSeconds(10),
        Duration.ofSeconds(5),
        5,
        Duration.ofSeconds(10),
        Duration.ofSeconds(5),
        Duration.ofMillis(500),
        Duration.ofSeconds(2),
        new double[] {0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1},
        2,
        5,
        5,
        Duration.ofMinutes(5));
  }

  /**
   * Whether the capacity is searched and it and the peak are results (not in the quick profile).
   */
  boolean resolvesCapacity() {
    return capacityFractions.length > 0;
  }

  int echoWarmup(long size) {
    return echoWarmup[sizeClass(size)];
  }

  int echoRequests(long size) {
    return echoRequests[sizeClass(size)];
  }

  private static int sizeClass(long size) {
    return size <= 256 * 1024 ? 0 : size <= 4 * 1024 * 1024 ? 1 : 2;
  }
}
