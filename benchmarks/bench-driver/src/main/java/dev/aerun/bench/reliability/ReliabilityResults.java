package dev.aerun.bench.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything the reliability profile measured, as written to {@code results.json}. Times are the
 * unit their name says, rates are requests per second, sizes bytes.
 */
final class ReliabilityResults {
  Meta meta;
  final List<CapacityRow> capacity = new ArrayList<>();
  final List<OverloadRow> overload = new ArrayList<>();
  final List<SoakRow> soak = new ArrayList<>();
  final List<SigtermRow> sigterm = new ArrayList<>();
  final List<Criterion> criteria = new ArrayList<>();
  final List<Failure> failures = new ArrayList<>();

  // Public getters for Jackson, in the order the file lists them.
  public Meta getMeta() {
    return meta;
  }

  public List<Criterion> getCriteria() {
    return criteria;
  }

  public List<CapacityRow> getCapacity() {
    return capacity;
  }

  public List<OverloadRow> getOverload() {
    return overload;
  }

  public List<SoakRow> getSoak() {
    return soak;
  }

  public List<SigtermRow> getSigterm() {
    return sigterm;
  }

  public List<Failure> getFailures() {
    return failures;
  }

  /**
   * The run. {@code otherCpuPercent}: other processes' share of the machine's CPU meanwhile (see
   * {@link dev.aerun.bench.OtherCpu}); the load averages (one minute) are kept for the record, the
   * one after counting the run itself.
   */
  record Meta(
      String startedAt,
      double durationSeconds,
      String command,
      int cores,
      String serverJava,
      List<String> jvmFlags,
      List<String> parts,
      double loadAverageBefore,
      double loadAverageAfter,
      double otherCpuPercent) {}

  /** One criterion of one part on one mode, and whether this run met it. */
  record Criterion(String peer, String part, String criterion, String figure, boolean pass) {}

  /** One step of the capacity search: GET /hello at a fixed rate. */
  /** One capacity step; {@code stealPercent} is the hypervisor's over the run kept. */
  record CapacityStep(
      double targetRate, double achievedRate, double p99Millis, long errors, double stealPercent) {}

  /** The capacity the overload multiplies: measured (with its steps) or given. */
  record CapacityRow(String peer, double rate, boolean measured, List<CapacityStep> steps) {}

  /**
   * The overload: {@code rate} (factor × capacity) of GET /hello for {@code seconds}, then a
   * moderate rate in half-second windows until one is served with p99 under the bound.
   *
   * @param outcomes requests by status, or by why they got none
   * @param rejectedP99Millis 503s' p99 from the intended send time (the client's queueing counts)
   * @param maxSendLagMicros how late the generator sent its latest request: a large figure means
   *     the generator could not keep the overload's schedule
   * @param sendingSeconds how long the generator took to send the overload (longer than {@code
   *     seconds} when it could not keep the schedule)
   * @param baselineP99Millis p99 of the moderate rate before the overload
   * @param recoveryBoundMillis the bound a window must meet: the capacity's, or twice the baseline
   * @param recoverySeconds from the overload's last request to the start of the first window served
   *     within the recovery bound, or -1 if none within the limit
   * @param outOfMemory whether the server's output mentions {@code OutOfMemoryError}
   * @param aliveAfter whether the server still ran after the overload
   */
  record OverloadRow(
      String peer,
      double capacityRate,
      double rate,
      double seconds,
      double sendingSeconds,
      long sent,
      Map<String, Long> outcomes,
      double rejectedP99Millis,
      double rejectedMaxMillis,
      long maxSendLagMicros,
      double moderateRate,
      double baselineP99Millis,
      double recoveryBoundMillis,
      double recoverySeconds,
      int recoveryWindows,
      boolean outOfMemory,
      boolean aliveAfter,
      String log) {}

  /**
   * The soak: a steady rate, the server sampled after each interval.
   *
   * @param heapSlopeBytesPerMinute least-squares slope of the heap after GC over the samples
   */
  record SoakRow(
      String peer,
      double rate,
      double minutes,
      long sent,
      Map<String, Long> outcomes,
      double p50Millis,
      double p99Millis,
      double maxMillis,
      List<ProcessProbe.Sample> samples,
      long heapFirstBytes,
      long heapLastBytes,
      double heapSlopeBytesPerMinute,
      int threadsFirst,
      int threadsLast,
      double threadSlopePerMinute,
      int fdsFirst,
      int fdsLast,
      double fdSlopePerMinute,
      boolean outOfMemory,
      String log) {}

  /**
   * SIGTERM under load: GET /hello at {@code rate}, SIGTERM mid-way.
   *
   * @param inFlight requests on the wire when SIGTERM was sent and not yet answered, by how they
   *     ended
   * @param after requests that went out after SIGTERM, by how they ended
   * @param exitCode the server's exit code (-1: still running after the wait)
   * @param exitSeconds from SIGTERM to the process's exit
   */
  record SigtermRow(
      String peer,
      double rate,
      long sent,
      Map<String, Long> before,
      Map<String, Long> inFlight,
      Map<String, Long> after,
      int exitCode,
      double exitSeconds,
      String log) {}

  /** Something that could not be measured, and why. */
  record Failure(String peer, String part, String message) {}
}
