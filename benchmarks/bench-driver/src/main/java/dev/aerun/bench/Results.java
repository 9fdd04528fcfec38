package dev.aerun.bench;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Everything one run measured, as written to {@code results.json}. Sizes are bytes, times are the
 * unit their name says, rates are requests per second.
 */
final class Results {
  // Public for Jackson, in the order the file lists them.
  public Meta meta;
  public final List<PeerInfo> peers = new ArrayList<>();
  public final List<EchoRow> echo = new ArrayList<>();
  public final List<CpuRow> cpu = new ArrayList<>();
  public final List<LatencyRow> latency = new ArrayList<>();
  public final List<CapacityRow> capacity = new ArrayList<>();
  public final List<ColdStartRow> coldStart = new ArrayList<>();
  public final List<SoakRow> soak = new ArrayList<>();
  public final List<ProcessRow> processes = new ArrayList<>();
  public final List<TargetRow> targets = new ArrayList<>();
  public final List<String> measurementProblems = new ArrayList<>();
  public Generator generator;
  public StealSummary steal;
  public final List<Failure> failures = new ArrayList<>();

  /**
   * The run: what, where, how. {@code otherCpuPercent} (see {@link OtherCpu}) tells whether
   * something else used the machine meanwhile; the load averages (one minute, before and after the
   * run) are kept for the record, the one after counting the run itself.
   */
  record Meta(
      String profile,
      String startedAt,
      double durationSeconds,
      String command,
      int cores,
      long memoryBytes,
      String os,
      String serverJava,
      String serverJavaVersion,
      String jettyVersion,
      List<String> jvmFlags,
      String driverJavaVersion,
      List<String> scenarios,
      List<String> ees,
      double loadAverageBefore,
      double loadAverageAfter,
      double otherCpuPercent) {}

  /**
   * The hypervisor's steal over the run and what it cost (see {@link Steal}).
   *
   * @param runPercent steal over the whole run, in percent of the machine's CPU time (NaN where the
   *     machine does not say)
   * @param maxPercent the most a timed phase may see and still count
   * @param attempts runs a timed phase gets at most
   * @param phases timed phases measured
   * @param rerun phases run more than once because of steal
   * @param disturbed phases still over the bound in the run kept: their figures are marked
   * @param worstPercent the most steal a kept run saw
   * @param calmWaitSeconds time spent waiting for bursts of steal to pass before runs again
   */
  record StealSummary(
      double runPercent,
      double maxPercent,
      int attempts,
      int phases,
      int rerun,
      int disturbed,
      double worstPercent,
      double calmWaitSeconds) {}

  /** A peer as the report names it. */
  record PeerInfo(String id, String label) {}

  /**
   * One echo size on one peer, in one of its server JVMs.
   *
   * @param round which of the peer's server JVMs ran it, from 1 (see {@link Profile#echoRounds()})
   * @param allocatedBytesPerRequest the whole server process, every live thread: the median of
   *     {@code allocatedWindows}
   * @param allocatedWindows the same, per window of the measured requests (see {@link
   *     EchoScenario#WINDOWS}): its spread is the figure's noise
   * @param gcAllocatedBytesPerRequest the garbage collectors' cross-check (coarse)
   * @param statsOverheadBytes what one stats request allocates, taken off the figure
   * @param heapAfterGcBytes median heap in use after a full GC halfway through an echo
   * @param heapAtRestBytes heap in use after a full GC at the end of an empty echo sent after the
   *     others: the process's own live data; {@code heapAfterGcBytes} less this is what the server
   *     holds for the request
   */
  record EchoRow(
      String ee,
      String peer,
      long size,
      int round,
      int requests,
      double allocatedBytesPerRequest,
      List<Double> allocatedWindows,
      double gcAllocatedBytesPerRequest,
      double statsOverheadBytes,
      long heapAfterGcBytes,
      long heapAtRestBytes,
      List<Long> heapAfterGcSamples,
      double cpuMicrosPerRequest,
      double medianMillis) {}

  /**
   * The CPU scenario (1 KiB request, 32 KiB response at a fixed rate) on one peer, one round.
   *
   * @param cpuMicrosPerRequestNetOfJit the same without the JIT compiler threads' CPU time: the
   *     steady-state cost, which the targets use
   * @param jitMillis CPU time of the JIT compiler threads during the window: large means the server
   *     was still warming up, and its gross CPU figure is high for that reason
   * @param gcPauseMillis collection pauses during the window
   * @param lag the generator's schedule lag and cost over the measured window
   */
  record CpuRow(
      String peer,
      int round,
      double targetRate,
      double achievedRate,
      long requests,
      long errors,
      double cpuMicrosPerRequest,
      double cpuMicrosPerRequestNetOfJit,
      double idleCpuMillisPerSecond,
      double cpuMicrosPerRequestNetOfIdle,
      double allocatedBytesPerRequest,
      long jitMillis,
      long gcPauseMillis,
      PhaseLag lag,
      double stealPercent) {}

  /**
   * The load generator over one fixed-rate phase.
   *
   * @param p99Millis the generator's p99 schedule lag
   * @param latencyP99Millis the p99 latency the phase reports
   * @param measurable whether the lag is at most a tenth of the reported p99: if not, the phase
   *     measured the generator as much as the server ("not measurable on this machine")
   * @param cpuMicrosPerRequest the generator's own CPU time per request
   */
  record PhaseLag(
      double p99Millis,
      double maxMillis,
      double latencyP99Millis,
      boolean measurable,
      double cpuMicrosPerRequest) {
    static PhaseLag of(LoadGenerator.RateRun run) {
      return new PhaseLag(
          run.lagP99Millis(),
          run.lag().getMaxValue() / 1000.0,
          run.p99Millis(),
          run.measurable(),
          run.generatorCpuMicrosPerRequest());
    }
  }

  /**
   * The load generator's cost over the whole run, beside the servers'.
   *
   * @param engine what generated the load
   * @param cpuMicrosPerRequestAtPeak the generator's CPU per request in the closed-loop peak runs
   *     (median over peers and rounds)
   * @param serverCpuMicrosPerRequestAtPeak the servers' CPU per request in the same runs
   * @param fixedRatePhases the fixed-rate phases (CPU and latency scenarios)
   * @param notMeasurablePhases those whose p99 lag exceeded a tenth of their p99 latency
   */
  record Generator(
      String engine,
      double cpuMicrosPerRequestAtPeak,
      double serverCpuMicrosPerRequestAtPeak,
      int fixedRatePhases,
      int notMeasurablePhases,
      String calibration) {}

  /** Latency percentiles in milliseconds, corrected for coordinated omission. */
  record Percentiles(double p50, double p90, double p99, double p999, double max) {
    static Percentiles of(Histogram h) {
      return new Percentiles(
          ms(h.getValueAtPercentile(50)),
          ms(h.getValueAtPercentile(90)),
          ms(h.getValueAtPercentile(99)),
          ms(h.getValueAtPercentile(99.9)),
          ms(h.getMaxValue()));
    }

    private static double ms(long micros) {
      return micros / 1000.0;
    }
  }

  /** A fixed-rate latency run on one peer, one round. */
  record LatencyRow(
      String peer,
      int round,
      long responseSize,
      double targetRate,
      double achievedRate,
      long sent,
      long ok,
      long errors,
      Percentiles latencyMillis,
      long maxSendLagMicros,
      PhaseLag lag,
      double stealPercent) {}

  /**
   * One run of a rate the capacity search tried; {@code lagP99Millis} is the generator's, {@code
   * stealPercent} the hypervisor's over the run kept, {@code attempts} the runs it took.
   */
  record CapacityStep(
      double targetRate,
      double achievedRate,
      double p99Millis,
      double lagP99Millis,
      long errors,
      boolean passed,
      double stealPercent,
      int attempts) {}

  /**
   * One round of the capacity scenario on one peer: the closed-loop peak, then the search down from
   * it.
   *
   * @param serverCpuMicrosPerRequestAtPeak the server process's CPU per request in the peak run
   * @param serverCpuMicrosPerRequestAtPeakNetOfJit the same without its JIT compiler threads' CPU:
   *     what a request costs once the server is compiled, the figure the CPU target compares (the
   *     compilers still run in bursts after the warm-up, differently in every run and peer)
   * @param serverJitCpuMillisAtPeak its JIT compiler threads' CPU time in that run
   * @param generatorCpuMicrosPerRequestAtPeak the load generator's CPU per request in that run
   * @param peakStealPercent the hypervisor's steal over the peak run kept
   */
  record CapacityRound(
      int round,
      double peakRate,
      double peakP99Millis,
      double capacityRate,
      double serverCpuMicrosPerRequestAtPeak,
      double serverCpuMicrosPerRequestAtPeakNetOfJit,
      double serverJitCpuMillisAtPeak,
      double generatorCpuMicrosPerRequestAtPeak,
      double peakStealPercent,
      List<CapacityStep> steps) {}

  /**
   * The capacity of one peer for small responses over every round.
   *
   * @param capacityRate the median over the rounds of the highest fixed rate with p99 under the
   *     bound
   * @param peakRate the median over the rounds of the closed-loop peak throughput
   */
  record CapacityRow(
      String peer,
      double capacityRate,
      double peakRate,
      double p99BoundMillis,
      Stats.Spread capacity,
      Stats.Spread peak,
      Stats.Spread serverCpuMicrosPerRequestAtPeak,
      Stats.Spread serverCpuMicrosPerRequestAtPeakNetOfJit,
      List<CapacityRound> rounds) {}

  /**
   * Process start to the first 200, and the resident set size right after it; the median leaves out
   * starts disturbed by the hypervisor's steal when others are not.
   */
  record ColdStartRow(
      String peer,
      List<Double> startMillis,
      List<Double> stealPercent,
      double medianStartMillis,
      List<Long> rssBytes,
      long medianRssBytes) {}

  /**
   * A soak of one peer (see {@link SoakScenario}): a steady rate, the server sampled after each
   * interval.
   *
   * @param failed requests not answered 200 (other statuses, broken connections, no answer)
   * @param heapSlopeBytesPerMinute least-squares slope of the heap after GC over the samples
   * @param outOfMemory whether the server's output mentions {@code OutOfMemoryError}
   */
  record SoakRow(
      String peer,
      double rate,
      double minutes,
      long sent,
      long failed,
      double p50Millis,
      double p99Millis,
      double maxMillis,
      List<SoakSample> samples,
      double heapSlopeBytesPerMinute,
      double threadSlopePerMinute,
      double fdSlopePerMinute,
      boolean outOfMemory) {}

  /** A look at the server during a soak: heap after a full GC, threads, open descriptors. */
  record SoakSample(double elapsedSeconds, long heapAfterGcBytes, int threads, int fds) {}

  /** One peer's server process over its whole run. */
  record ProcessRow(String peer, String ee, long peakRssBytes, int threads, String log) {}

  /** A target of the project and whether this run met it (met, missed, within noise, …). */
  record TargetRow(String target, String figure, String verdict) {}

  /** Something that could not be measured, and why. */
  record Failure(String peer, String ee, String scenario, String message) {}
}
