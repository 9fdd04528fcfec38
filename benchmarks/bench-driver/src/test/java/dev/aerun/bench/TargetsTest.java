package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {
  private static final String ALLOCATION =
      "Allocation per request at a fixed rate (1 KiB in, 32 KiB out): HttpConnector within 1 KiB"
          + " of bare Jetty";

  private static Results.CpuRow cpu(String peer, int round, double allocated) {
    return new Results.CpuRow(
        peer, round, 200, 200, 300, 0, 200, 190, 0, 190, allocated, 0, 0, null, 0);
  }

  private static Results.TargetRow allocation(double... httpThenBare) {
    Results r = new Results();
    for (int i = 0; i < httpThenBare.length / 2; i++) {
      r.cpu.add(cpu("http", i + 1, httpThenBare[2 * i]));
      r.cpu.add(cpu("bare", i + 1, httpThenBare[2 * i + 1]));
    }
    return target(r, ALLOCATION);
  }

  /** The row of {@code name} in the run's targets. */
  private static Results.TargetRow target(Results r, String name) {
    return Targets.evaluate(r).stream()
        .filter(t -> t.target().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void allocationAtAFixedRate_comparesTheMediansAgainst1KiB() {
    Results.TargetRow met = allocation(5000, 4500, 5100, 4200, 4900, 4300);
    assertEquals("met", met.verdict(), met.toString());
    assertTrue(met.figure().startsWith("+700 B"), met.figure());

    assertEquals("missed", allocation(6000, 4500, 6100, 4600, 5900, 4400).verdict());
  }

  @Test
  void allocationAtAFixedRate_withoutBothPeersIsNotMeasured() {
    Results r = new Results();
    r.cpu.addAll(List.of(cpu("http", 1, 5000)));
    assertEquals("not measured", target(r, ALLOCATION).verdict());
  }

  private static final String ECHO =
      "Allocation per request: HttpConnector within 4 KiB of bare Jetty at every size";

  private static Results.EchoRow echo(String peer, long size, Double... windows) {
    return echoIn(1, peer, size, windows);
  }

  /** An echo row of the peer's server JVM {@code round}. */
  private static Results.EchoRow echoIn(int round, String peer, long size, Double... windows) {
    List<Double> values = List.of(windows);
    return new Results.EchoRow(
        "ee10",
        peer,
        size,
        round,
        30,
        Stats.spread(values).median(),
        values,
        0,
        0,
        0,
        0,
        List.of(),
        0,
        0);
  }

  private static Results.TargetRow echoTarget(Results.EchoRow... rows) {
    Results r = new Results();
    r.echo.addAll(List.of(rows));
    return target(r, ECHO);
  }

  @Test
  void echoAllocation_isJudgedOnTheWindowsSpread() {
    long size = 30L << 20;
    Results.TargetRow met =
        echoTarget(echo("http", size, 1000.0, 1100.0, 1200.0), echo("bare", size, 900.0, 1000.0));
    assertEquals("met", met.verdict(), met.toString());
    assertEquals("EE10 30 MiB: +150 B (+0 B to +300 B)", met.figure());

    // One window 9 KiB above bare's, the others close: the spread covers the 4 KiB bound.
    Results.TargetRow noisy =
        echoTarget(
            echo("http", size, 10000.0, 2000.0, 3000.0),
            echo("bare", size, 1000.0, 1000.0, 1000.0));
    assertEquals("within noise", noisy.verdict(), noisy.toString());

    Results.TargetRow missed =
        echoTarget(
            echo("http", size, 9000.0, 9500.0, 9800.0), echo("bare", size, 1000.0, 1100.0, 1200.0));
    assertEquals("missed", missed.verdict(), missed.toString());
  }

  @Test
  void echoAllocation_withOneWindowComparesTheFiguresAgainst4KiB() {
    long size = 1L << 20;
    assertEquals(
        "met", echoTarget(echo("http", size, 5000.0), echo("bare", size, 1000.0)).verdict());
    Results.TargetRow missed = echoTarget(echo("http", size, 6000.0), echo("bare", size, 1000.0));
    assertEquals("missed", missed.verdict());
    assertEquals("EE10 1 MiB: +4.88 KiB", missed.figure());
  }

  @Test
  void echoAllocation_theWorstSizeDecides() {
    Results.TargetRow row =
        echoTarget(
            echo("http", 32 << 10, 3000.0, 3100.0),
            echo("bare", 32 << 10, 2900.0, 3000.0),
            echo("http", 30L << 20, 10000.0, 2000.0),
            echo("bare", 30L << 20, 1000.0, 1000.0));
    assertEquals("within noise", row.verdict(), row.toString());
  }

  @Test
  void echoAllocation_coversEveryServerJvmOfAPeer() {
    long size = 30L << 20;
    // Each JVM's windows agree within bytes, but bare Jetty's second JVM allocated 240 KiB less
    // per request (the JIT removed more): the JVMs' spread covers the difference.
    Results.EchoRow http1 = echoIn(1, "http", size, 1_060_000.0, 1_060_100.0);
    Results.EchoRow http2 = echoIn(2, "http", size, 1_059_900.0, 1_060_000.0);
    Results.EchoRow bare1 = echoIn(1, "bare", size, 1_060_000.0, 1_060_050.0);
    Results.TargetRow jvms =
        echoTarget(http1, http2, bare1, echoIn(2, "bare", size, 812_000.0, 812_100.0));
    assertEquals("within noise", jvms.verdict(), jvms.toString());
    // The same with bare Jetty's first JVM alone: HttpConnector's every window is within 4 KiB.
    Results.TargetRow oneJvm = echoTarget(http1, http2, bare1);
    assertEquals("met", oneJvm.verdict(), oneJvm.toString());
    // Every JVM of HttpConnector's above every one of bare Jetty's by more than 4 KiB.
    Results.TargetRow missed =
        echoTarget(
            echoIn(1, "http", size, 1_070_000.0),
            echoIn(2, "http", size, 1_071_000.0),
            echoIn(1, "bare", size, 1_060_000.0),
            echoIn(2, "bare", size, 1_061_000.0));
    assertEquals("missed", missed.verdict(), missed.toString());
  }

  @Test
  void echoAllocation_figureIsTheDifferenceOfTheJvmsMedians_asTheTablesShow() {
    long size = 30L << 20;
    // Pooled, HttpConnector's windows have the median 1,000 B; its JVMs' medians are 1,000 and
    // 5,000 B, whose median is 3,000 B: 2,000 B above bare Jetty's.
    Results.TargetRow row =
        echoTarget(
            echoIn(1, "http", size, 1000.0, 1000.0, 1000.0),
            echoIn(2, "http", size, 5000.0),
            echoIn(1, "bare", size, 1000.0),
            echoIn(2, "bare", size, 1000.0));
    assertTrue(row.figure().startsWith("EE10 30 MiB: +1.95 KiB (+0 B to +3.91 KiB)"), row.figure());
    assertEquals("met", row.verdict(), row.toString());
  }

  private static Results.CapacityRound round(double capacity, double peak, double cpu) {
    return new Results.CapacityRound(1, peak, 1, capacity, cpu, cpu, 0, 5, 0, List.of());
  }

  /** Capacity rounds of bare Jetty and HttpConnector mode, and the run's profile. */
  private static Results capacityRun(String profile, double capacity) {
    Results r = new Results();
    r.meta =
        new Results.Meta(
            profile, "", 1, "", 2, 1, "", "", "", "", List.of(), "", List.of(), List.of(), 0, 0, 0);
    for (String peer : List.of("http", "bare")) {
      List<Results.CapacityRound> rounds =
          List.of(
              round(capacity, 30000, 20), round(capacity, 31000, 21), round(capacity, 29000, 22));
      r.capacity.add(
          new Results.CapacityRow(peer, capacity, 30000, 10, null, null, null, null, rounds));
    }
    return r;
  }

  @Test
  void quickProfile_capacityAndPeakNotResolved_cpuAtSaturationJudged() {
    Results quick = capacityRun("quick", Double.NaN);
    String capacity = "Capacity (small responses, p99 ≤ bound): HttpConnector ≥ 0.95 × bare Jetty";
    String peak = "Peak throughput (small responses): HttpConnector ≥ 0.95 × bare Jetty";
    for (String name : List.of(capacity, peak)) {
      Results.TargetRow row = target(quick, name);
      assertEquals("not resolved in the quick profile", row.verdict(), row.toString());
      assertEquals("–", row.figure());
    }
    // The same rounds in the full profile are judged.
    assertEquals("met", target(capacityRun("full", 25000), capacity).verdict());
    assertEquals("within noise", target(capacityRun("full", 25000), peak).verdict());
    Results.TargetRow cpu =
        target(quick, "Server CPU per request at saturation (hello): HttpConnector ≤ 1.05 × bare");
    assertEquals("within noise", cpu.verdict(), cpu.toString());
    assertTrue(Targets.measurementProblems(quick).isEmpty());
  }
}
