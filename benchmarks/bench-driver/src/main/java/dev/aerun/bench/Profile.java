package dev.aerun.bench;

import java.time.Duration;

/**
 * How long and how hard each scenario runs. {@link #quick()} checks that everything works and gives
 * rough figures in under five minutes; {@link #full()} gives figures worth comparing.
 *
 * @param echoWarmup requests before the measured ones, per size (32 KiB, 1 MiB, 30 MiB)
 * @param echoRequests measured requests per size
 * @param heapSamples echo requests that measure the heap after GC, per size
 * @param echoRounds how many server JVMs of each peer (but legacy mode's) run the echo scenario,
 *     the peers interleaved: which allocations the JIT compiler removes differs from one JVM to the
 *     next, so one JVM's figure is one draw
 * @param cpuRate requests per second of the CPU scenario (1 KiB in, 32 KiB out)
 * @param latencyRate5k requests per second of the 5 KiB latency scenario
 * @param latencyRate1m requests per second of the 1 MiB latency scenario
 * @param warmup the unrecorded lead-in of every fixed-rate run
 * @param measure the recorded part of the CPU and latency runs
 * @param idle how long the server is left idle to measure its CPU at rest
 * @param rounds how many times the timing scenarios (CPU, latency, capacity) run, the peers
 *     interleaved (A B C, A B C, …): medians and spreads come from these
 * @param warmupTime the least unrecorded closed-loop lead-in of a peer's first round (and of the
 *     calibration); it goes on until the rate settles, up to five times as long
 * @param peakTime how long each closed-loop peak-throughput run is recorded
 * @param capacityWarmup the unrecorded lead-in of each capacity step
 * @param capacityStep how long each capacity step is recorded
 * @param capacityFractions the fractions of the peak the capacity search tries, highest first
 * @param capacityRefinements bisection steps between the highest passing and the lowest failing
 *     fraction of the peak
 * @param coldStarts cold starts per peer (the first comes with the peer's main run)
 * @param stealAttempts the most runs of a timed phase the hypervisor's steal disturbed (see {@link
 *     Steal})
 * @param stealCalmBudget the longest a run waits in all for bursts of steal to pass before running
 *     disturbed phases again
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

  /** This profile with {@code echo} echo rounds ({@code --echo-rounds}). */
  Profile withEchoRounds(int echo) {
    return new Profile(
        name,
        echoWarmup,
        echoRequests,
        heapSamples,
        echo,
        cpuRate,
        latencyRate5k,
        latencyRate1m,
        warmup,
        measure,
        idle,
        rounds,
        warmupTime,
        peakTime,
        capacityWarmup,
        capacityStep,
        capacityFractions,
        capacityRefinements,
        coldStarts,
        stealAttempts,
        stealCalmBudget);
  }

  /**
   * Whether the capacity scenario searches the capacity and its peak is a result: not in the quick
   * profile, whose short rounds do not resolve either (it runs the peaks for the CPU per request at
   * saturation and the generator's cost).
   */
  boolean resolvesCapacity() {
    return capacityFractions.length > 0;
  }

  /** The warm-up and measured request counts for an echo of {@code size} bytes. */
  int echoWarmup(long size) {
    return echoWarmup[sizeClass(size)];
  }

  int echoRequests(long size) {
    return echoRequests[sizeClass(size)];
  }

  private static int sizeClass(long size) {
    return size <= 256 * 1024 ? 0 : size <= 4 * 1024 * 1024 ? 1 : 2;
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
}
