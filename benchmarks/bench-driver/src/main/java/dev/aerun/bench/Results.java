package dev.aerun.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  public final List<CalibrationRow> calibration = new ArrayList<>();
  public final List<CalibrationRow> h2cPeak = new ArrayList<>();
  public final List<ProcessRow> processes = new ArrayList<>();
  public final List<TargetRow> targets = new ArrayList<>();
  public final List<String> measurementProblems = new ArrayList<>();
  public Generator generator;
  public StealSummary steal;
  public final List<Failure> failures = new ArrayList<>();

  /**
   * The run: what, where, how. {@code otherCpuPercent} (see {@link Steal.Sample}) tells whether
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

  /** The hypervisor's steal over the run and what it cost (see {@link Steal}). */
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

  /** One echo size on one peer, in one of its server JVMs. */
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

  /** The CPU scenario (1 KiB request, 32 KiB response at a fixed rate) on one peer, one round. */
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

  /** The load generator over one fixed-rate phase. */
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

  /** The load generator's cost over the whole run, beside the servers'. */
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
          h.getValueAtPercentile(50) / 1000.0,
          h.getValueAtPercentile(90) / 1000.0,
          h.getValueAtPercentile(99) / 1000.0,
          h.getValueAtPercentile(99.9) / 1000.0,
          h.getMaxValue() / 1000.0);
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

  /** One capacity round of one peer: the closed-loop peak, then the search down from it. */
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

  /** The capacity of one peer for small responses over every round. */
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
   * interval; {@code failed} counts requests not answered 200 (other statuses, broken connections,
   * no answer), {@code statuses} the answers by status.
   */
  record SoakRow(
      String peer,
      double rate,
      double minutes,
      long sent,
      long failed,
      Map<Integer, Long> statuses,
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

  /**
   * One closed-loop run of a generator on one peer ({@link TimingScenarios}): built-in or wrk
   * ({@code calibration}), h2load over h2c or wrk over HTTP/1.1 ({@code h2cPeak}).
   */
  record CalibrationRow(
      String peer,
      int round,
      String generator,
      double rate,
      double generatorCpuMicrosPerRequest,
      double serverCpuMicrosPerRequest) {}

  /** One peer's server process over its whole run. */
  record ProcessRow(String peer, String ee, long peakRssBytes, int threads, String log) {}

  /** A target of the project and whether this run met it (met, missed, within noise, …). */
  record TargetRow(String target, String figure, String verdict) {}

  /** Something that could not be measured, and why. */
  record Failure(String peer, String ee, String scenario, String message) {}
}
