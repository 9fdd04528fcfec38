package dev.aerun.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aerun.bench.LoadGenerator;
import dev.aerun.bench.reliability.ReliabilityResults.Criterion;
import dev.aerun.bench.reliability.ReliabilityResults.OverloadRow;
import dev.aerun.bench.reliability.ReliabilityResults.SigtermRow;
import dev.aerun.bench.reliability.ReliabilityResults.SoakRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** The criteria's verdicts on made-up figures, and how outcomes are told apart. */
class ReliabilityReportTest {
  private static final long MIB = 1024 * 1024;

  private static ReliabilityOptions options() throws Exception {
    return ReliabilityOptions.parse(new String[0], Path.of("."));
  }

  private static Map<String, Boolean> verdicts(ReliabilityResults results) throws Exception {
    ReliabilityReport.judge(results, options());
    Map<String, Boolean> verdicts = new java.util.LinkedHashMap<>();
    for (Criterion c : results.criteria) {
      verdicts.put(c.peer() + " " + c.part() + ": " + c.criterion(), c.pass());
    }
    return verdicts;
  }

  private static List<ProcessProbe.Sample> samples(
      LongUnaryOperator heap, LongUnaryOperator threads, LongUnaryOperator fds) {
    List<ProcessProbe.Sample> samples = new ArrayList<>();
    for (long i = 0; i <= 30; i++) {
      samples.add(
          new ProcessProbe.Sample(
              60 * i, heap.applyAsLong(i), (int) threads.applyAsLong(i), (int) fds.applyAsLong(i)));
    }
    return samples;
  }

  private static SoakRow soak(String peer, List<ProcessProbe.Sample> samples) {
    ProcessProbe.Sample first = samples.get(0);
    ProcessProbe.Sample last = samples.get(samples.size() - 1);
    return new SoakRow(
        peer,
        200,
        30,
        360_000,
        Map.of("200", 360_000L),
        1,
        2,
        3,
        samples,
        first.heapAfterGcBytes(),
        last.heapAfterGcBytes(),
        Soak.slopePerMinute(samples, ProcessProbe.Sample::heapAfterGcBytes),
        first.threads(),
        last.threads(),
        0,
        first.fds(),
        last.fds(),
        0,
        false,
        "x.log");
  }

  @Test
  void soak_flatFiguresMeet_growingOnesMiss() throws Exception {
    ReliabilityResults results = new ReliabilityResults();
    // Noise around a flat line: met.
    results.soak.add(
        soak("flat", samples(i -> 20 * MIB + (i % 3) * MIB, i -> 60 + i % 2, i -> 100 + i % 3)));
    // 1 MiB a minute, a thread every 3 minutes, a descriptor a minute: each missed.
    results.soak.add(
        soak("leaky", samples(i -> 20 * MIB + i * MIB, i -> 60 + i / 3, i -> 100 + i)));

    Map<String, Boolean> verdicts = verdicts(results);

    assertEquals(
        List.of(true, true, true, true, true, false, false, false),
        new ArrayList<>(verdicts.values()),
        verdicts.toString());
    assertEquals(
        1.0 * MIB,
        Soak.slopePerMinute(results.soak.get(1).samples(), ProcessProbe.Sample::heapAfterGcBytes),
        1.0);
  }

  @Test
  void overload_a500_aSlow503_orNoRecoveryMiss() throws Exception {
    ReliabilityResults results = new ReliabilityResults();
    results.overload.add(overload("good", Map.of("200", 900L, "503", 100L), 40, 1.5, false));
    results.overload.add(overload("500", Map.of("200", 900L, "500", 1L), 0, 1.5, false));
    results.overload.add(overload("slow", Map.of("200", 900L, "503", 100L), 3000, 1.5, false));
    results.overload.add(overload("stuck", Map.of("200", 1000L), 0, -1, false));
    results.overload.add(overload("oom", Map.of("200", 1000L), 0, 1, true));
    results.overload.add(overload("lagging", Map.of("200", 1000L), 0, 1, false));

    Map<String, Boolean> verdicts = verdicts(results);

    assertEquals(
        List.of(
            true, true, true, true, true, // good
            true, true, false, true, true, // a 500
            true, true, true, false, true, // 503s slow
            true, true, true, true, false, // never recovered
            true, false, true, true, true, // OutOfMemoryError
            false, true, true, true, true), // the generator fell behind
        new ArrayList<>(verdicts.values()),
        verdicts.toString());
  }

  private static OverloadRow overload(
      String peer, Map<String, Long> outcomes, double p99, double recovery, boolean oom) {
    long lagMicros = peer.equals("lagging") ? 5_000_000 : 2_000;
    long sent = outcomes.values().stream().mapToLong(Long::longValue).sum();
    return new OverloadRow(
        peer, 1000, 5000, 30, 30, sent, outcomes, p99, p99, lagMicros, 250, 2, 10, recovery, 3, oom,
        true, "x.log");
  }

  @Test
  void sigterm_aFailedInFlightRequestOrAResetAfterMiss() throws Exception {
    ReliabilityResults results = new ReliabilityResults();
    results.sigterm.add(
        sigterm(
            "clean", Map.of("200", 40L, "503", 2L), Map.of("200", 10L, Outcomes.REFUSED, 500L), 0));
    results.sigterm.add(
        sigterm("cut", Map.of("200", 39L, Outcomes.CLOSED, 1L), Map.of(Outcomes.REFUSED, 5L), 0));
    results.sigterm.add(
        sigterm("reset", Map.of("200", 40L), Map.of("503", 3L, Outcomes.CLOSED, 2L), 1));

    Map<String, Boolean> verdicts = verdicts(results);

    assertEquals(
        List.of(true, true, true, false, true, true, true, false, false),
        new ArrayList<>(verdicts.values()),
        verdicts.toString());
  }

  private static SigtermRow sigterm(
      String peer, Map<String, Long> inFlight, Map<String, Long> after, int exit) {
    return new SigtermRow(peer, 100, 1000, Map.of("200", 400L), inFlight, after, exit, 1, "x.log");
  }

  @Test
  void outcomes_byStatusOrClosed() {
    Outcomes outcomes = new Outcomes();
    outcomes.add(new LoadGenerator.Outcome(0, 1, 2_000_000, 503));
    outcomes.add(new LoadGenerator.Outcome(0, 1, 2, -1));
    outcomes.add(Outcomes.REFUSED, 3);
    assertEquals(Map.of("503", 1L, Outcomes.CLOSED, 1L, Outcomes.REFUSED, 3L), outcomes.snapshot());
    assertEquals(2.0, outcomes.rejectedLatency().getMaxValue() / 1000.0, 0.01);
  }
}
