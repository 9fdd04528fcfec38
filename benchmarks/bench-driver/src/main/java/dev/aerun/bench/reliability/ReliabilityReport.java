package dev.aerun.bench.reliability;

import dev.aerun.bench.reliability.ReliabilityResults.CapacityRow;
import dev.aerun.bench.reliability.ReliabilityResults.Criterion;
import dev.aerun.bench.reliability.ReliabilityResults.Failure;
import dev.aerun.bench.reliability.ReliabilityResults.OverloadRow;
import dev.aerun.bench.reliability.ReliabilityResults.SigtermRow;
import dev.aerun.bench.reliability.ReliabilityResults.SoakRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/** The reliability profile's criteria (one verdict each) and its {@code summary.md}. */
final class ReliabilityReport {
  /** A 503 is fast when it comes within the queue's 1 s wait plus half a second. */
  static final double FAST_503_MILLIS = 1500;

  /** The overload is measured only if the generator sent it at most this late. */
  static final double MAX_LAG_MILLIS = 1000;

  /** Recovery: a moderate rate served within the bound again this soon after the overload. */
  static final double RECOVERY_SECONDS = 5;

  /** Flat heap: the last third's median within this much of the first third's (or 10 %). */
  static final long HEAP_TOLERANCE_BYTES = 4L * 1024 * 1024;

  /** No thread growth: the last third's median within this many threads of the first third's. */
  static final long THREAD_TOLERANCE = 4;

  /** No descriptor growth: the same for open file descriptors. */
  static final long FD_TOLERANCE = 8;

  private ReliabilityReport() {}

  /** Adds one criterion per figure to {@code results.criteria}. */
  static void judge(ReliabilityResults results, ReliabilityOptions options) {
    List<Criterion> c = results.criteria;
    for (OverloadRow row : results.overload) {
      // A generator far behind its schedule did not send the overload it was asked to: the other
      // figures then describe a machine too busy to measure, which this criterion says.
      c.add(
          new Criterion(
              row.peer(),
              "overload",
              "measurable: the generator kept its schedule (lag <= " + fmt(MAX_LAG_MILLIS) + " ms)",
              "lag " + fmt(row.maxSendLagMicros() / 1000.0) + " ms",
              row.maxSendLagMicros() <= MAX_LAG_MILLIS * 1000));
      c.add(
          new Criterion(
              row.peer(),
              "overload",
              "no OutOfMemoryError, server still up",
              (row.outOfMemory() ? "OutOfMemoryError in the log" : "none")
                  + (row.aliveAfter() ? ", up" : ", exited"),
              !row.outOfMemory() && row.aliveAfter()));
      long serverErrors = serverErrors(row.outcomes());
      c.add(
          new Criterion(
              row.peer(),
              "overload",
              "no 500 (no 5xx but 503)",
              serverErrors + " of " + row.sent(),
              serverErrors == 0));
      long rejected = row.outcomes().getOrDefault("503", 0L);
      c.add(
          new Criterion(
              row.peer(),
              "overload",
              "503s fast: p99 <= " + fmt(FAST_503_MILLIS) + " ms",
              rejected == 0
                  ? "no 503"
                  : "p99 " + fmt(row.rejectedP99Millis()) + " ms of " + rejected + " 503s",
              rejected == 0 || row.rejectedP99Millis() <= FAST_503_MILLIS));
      c.add(
          new Criterion(
              row.peer(),
              "overload",
              "recovery within " + fmt(RECOVERY_SECONDS) + " s",
              row.recoverySeconds() < 0 ? "not within 30 s" : fmt(row.recoverySeconds()) + " s",
              row.recoverySeconds() >= 0 && row.recoverySeconds() <= RECOVERY_SECONDS));
    }
    for (SoakRow row : results.soak) {
      long ok = row.outcomes().getOrDefault("200", 0L);
      long total = row.outcomes().values().stream().mapToLong(Long::longValue).sum();
      c.add(
          new Criterion(
              row.peer(),
              "soak",
              "every request 200, no OutOfMemoryError",
              (total - ok) + " of " + total + " not 200" + (row.outOfMemory() ? ", OOM" : ""),
              ok == total && !row.outOfMemory()));
      long heapGrowth = growth(row.samples(), ProcessProbe.Sample::heapAfterGcBytes);
      long heapBase = thirdMedian(row.samples(), ProcessProbe.Sample::heapAfterGcBytes, false);
      c.add(
          new Criterion(
              row.peer(),
              "soak",
              "heap after GC flat (last third within max(4 MiB, 10 %) of the first)",
              String.format(
                  Locale.ROOT,
                  "%+.2f MiB (%.1f -> %.1f MiB; slope %+.3f MiB/min)",
                  heapGrowth / 1048576.0,
                  row.heapFirstBytes() / 1048576.0,
                  row.heapLastBytes() / 1048576.0,
                  row.heapSlopeBytesPerMinute() / 1048576.0),
              heapGrowth <= Math.max(HEAP_TOLERANCE_BYTES, heapBase / 10)));
      long threadGrowth = growth(row.samples(), ProcessProbe.Sample::threads);
      c.add(
          new Criterion(
              row.peer(),
              "soak",
              "no thread growth (within " + THREAD_TOLERANCE + ")",
              String.format(
                  Locale.ROOT,
                  "%+d (%d -> %d; slope %+.3f/min)",
                  threadGrowth,
                  row.threadsFirst(),
                  row.threadsLast(),
                  row.threadSlopePerMinute()),
              threadGrowth <= THREAD_TOLERANCE));
      long fdGrowth = growth(row.samples(), ProcessProbe.Sample::fds);
      c.add(
          new Criterion(
              row.peer(),
              "soak",
              "no file-descriptor growth (within " + FD_TOLERANCE + ")",
              String.format(
                  Locale.ROOT,
                  "%+d (%d -> %d; slope %+.3f/min)",
                  fdGrowth,
                  row.fdsFirst(),
                  row.fdsLast(),
                  row.fdSlopePerMinute()),
              fdGrowth <= FD_TOLERANCE));
    }
    for (SigtermRow row : results.sigterm) {
      long inFlight = sum(row.inFlight());
      // A 503 is the waiting room's answer to a request that waited its turn too long: an answer
      // the overload gives with or without SIGTERM, not a request the shutdown failed.
      long inFlightOk =
          row.inFlight().getOrDefault("200", 0L) + row.inFlight().getOrDefault("503", 0L);
      c.add(
          new Criterion(
              row.peer(),
              "sigterm",
              "every request in flight at SIGTERM completes (200, or 503 after waiting its turn)",
              inFlightOk + " of " + inFlight + " " + row.inFlight(),
              inFlightOk == inFlight));
      long unclean =
          row.after().getOrDefault(Outcomes.CLOSED, 0L)
              + row.after().getOrDefault(Outcomes.TIMEOUT, 0L)
              + serverErrors(row.after());
      c.add(
          new Criterion(
              row.peer(),
              "sigterm",
              "later requests answered or refused cleanly (200, 503, connection refused)",
              unclean + " of " + sum(row.after()) + " closed or timed out: " + row.after(),
              unclean == 0));
      c.add(
          new Criterion(
              row.peer(),
              "sigterm",
              "exits 0 within the grace",
              "exit " + row.exitCode() + " after " + fmt(row.exitSeconds()) + " s",
              row.exitCode() == 0));
    }
  }

  static String markdown(ReliabilityResults results, ReliabilityOptions options) {
    StringBuilder md = new StringBuilder();
    var meta = results.meta;
    md.append("# Reliability\n\n");
    md.append("`").append(meta.command()).append("`\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Started %s, %.0f s, %d cores, other processes' share of the machine's CPU %.1f %%,"
                + " load average %.2f before and %.2f after; server JVM flags `%s`; EE10 bench"
                + " app, GET /hello.\n\n",
            meta.startedAt(),
            meta.durationSeconds(),
            meta.cores(),
            meta.otherCpuPercent(),
            meta.loadAverageBefore(),
            meta.loadAverageAfter(),
            String.join(" ", meta.jvmFlags())));
    md.append(
        "## Criteria\n\n| Mode | Part | Criterion | Figure | Verdict |\n|---|---|---|---|---|\n");
    for (Criterion c : results.criteria) {
      md.append(
          String.format(
              "| %s | %s | %s | %s | %s |\n",
              c.peer(), c.part(), c.criterion(), c.figure(), c.pass() ? "met" : "**missed**"));
    }
    if (!results.failures.isEmpty()) {
      md.append("\n## Failures\n\n");
      for (Failure f : results.failures) {
        md.append("- ")
            .append(f.peer())
            .append(" ")
            .append(f.part())
            .append(": ")
            .append(f.message())
            .append('\n');
      }
    }
    if (!results.capacity.isEmpty()) {
      md.append("\n## Capacity (p99 <= ")
          .append(fmt(options.p99BoundMillis()))
          .append(
              " ms)\n\n| Mode | Rate | How | Steps (rate: p99 ms, errors, hypervisor steal %) |\n"
                  + "|---|---|---|---|\n");
      for (CapacityRow row : results.capacity) {
        StringBuilder steps = new StringBuilder();
        row.steps()
            .forEach(
                s ->
                    steps.append(
                        String.format(
                            Locale.ROOT,
                            "%.0f: %.1f, %d, %.1f; ",
                            s.targetRate(),
                            s.p99Millis(),
                            s.errors(),
                            s.stealPercent())));
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.0f/s | %s | %s |\n",
                row.peer(),
                row.rate(),
                row.measured() ? "measured" : "given",
                steps.toString().strip()));
      }
    }
    if (!results.overload.isEmpty()) {
      md.append(
          "\n## Overload\n\n| Mode | Rate | Requests | Outcomes | 503 p99 / max ms |"
              + " Generator lag ms | Recovery s (windows) |\n|---|---|---|---|---|---|---|\n");
      for (OverloadRow r : results.overload) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.0f/s × %.0f s | %d | %s | %s / %s | %.1f | %s (%d) |\n",
                r.peer(),
                r.rate(),
                r.seconds(),
                r.sent(),
                r.outcomes(),
                fmt(r.rejectedP99Millis()),
                fmt(r.rejectedMaxMillis()),
                r.maxSendLagMicros() / 1000.0,
                r.recoverySeconds() < 0 ? "none" : fmt(r.recoverySeconds()),
                r.recoveryWindows()));
      }
    }
    if (!results.sigterm.isEmpty()) {
      md.append(
          "\n## SIGTERM under load\n\n| Mode | Rate | Requests | Before | In flight |"
              + " After | Exit |\n|---|---|---|---|---|---|---|\n");
      for (SigtermRow r : results.sigterm) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.0f/s | %d | %s | %s | %s | %d after %.2f s |\n",
                r.peer(),
                r.rate(),
                r.sent(),
                r.before(),
                r.inFlight(),
                r.after(),
                r.exitCode(),
                r.exitSeconds()));
      }
    }
    if (!results.soak.isEmpty()) {
      md.append(
          "\n## Soak\n\n| Mode | Rate | Minutes | Requests | p50 / p99 / max ms |"
              + " Heap after GC MiB, first -> last (slope/min) | Threads | FDs |\n"
              + "|---|---|---|---|---|---|---|---|\n");
      for (SoakRow r : results.soak) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.0f/s | %.1f | %d | %.2f / %.2f / %.1f | %.1f -> %.1f (%+.3f) | %d -> %d | %d -> %d |\n",
                r.peer(),
                r.rate(),
                r.minutes(),
                r.sent(),
                r.p50Millis(),
                r.p99Millis(),
                r.maxMillis(),
                r.heapFirstBytes() / 1048576.0,
                r.heapLastBytes() / 1048576.0,
                r.heapSlopeBytesPerMinute() / 1048576.0,
                r.threadsFirst(),
                r.threadsLast(),
                r.fdsFirst(),
                r.fdsLast()));
      }
    }
    return md.toString();
  }

  /** The last third's median less the first third's: growth that one odd sample cannot fake. */
  static long growth(List<ProcessProbe.Sample> samples, ToLongFunction<ProcessProbe.Sample> value) {
    return thirdMedian(samples, value, true) - thirdMedian(samples, value, false);
  }

  private static long thirdMedian(
      List<ProcessProbe.Sample> samples, ToLongFunction<ProcessProbe.Sample> value, boolean last) {
    int n = samples.size();
    int third = Math.max(1, n / 3);
    List<ProcessProbe.Sample> part =
        last ? samples.subList(n - third, n) : samples.subList(0, third);
    long[] values = part.stream().mapToLong(value).sorted().toArray();
    return values[values.length / 2];
  }

  private static long serverErrors(Map<String, Long> outcomes) {
    return outcomes.entrySet().stream()
        .filter(e -> e.getKey().startsWith("5") && !e.getKey().equals("503"))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  private static long sum(Map<String, Long> outcomes) {
    return outcomes.values().stream().mapToLong(Long::longValue).sum();
  }

  private static String fmt(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e9
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.2f", value);
  }
}
