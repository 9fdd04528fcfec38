package dev.aerun.bench;

import static dev.aerun.bench.Verdicts.MET;
import static dev.aerun.bench.Verdicts.MISSED;
import static dev.aerun.bench.Verdicts.NOT_MEASURABLE;
import static dev.aerun.bench.Verdicts.NOT_MEASURED;
import static dev.aerun.bench.Verdicts.NOT_RESOLVED;
import static dev.aerun.bench.Verdicts.WITHIN_NOISE;

import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.TargetRow;
import dev.aerun.bench.Stats.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;

/**
 * The project's targets, checked against one run's figures. Timing figures come from repeated,
 * interleaved rounds and are judged on their spread ({@link Verdicts}); a target whose figures the
 * run did not measure says so; none is ever turned into a test.
 */
final class Targets {
  /** The largest allocation per request HttpConnector may add to bare Jetty's at an echo size. */
  static final double ECHO_ALLOCATION_BOUND = 4096;

  private Targets() {}

  /** A target's figures and verdicts, case by case (an EE and size, a response size, a peer). */
  private static final class Row {
    final String target;
    final List<String> figures = new ArrayList<>();
    final List<String> verdicts = new ArrayList<>();

    Row(String target) {
      this.target = target;
    }

    Row add(String figure, String verdict) {
      figures.add(figure);
      verdicts.add(verdict);
      return this;
    }

    Row add(String figure, boolean met) {
      return add(figure, met ? MET : MISSED);
    }

    TargetRow done() {
      return figures.isEmpty()
          ? new TargetRow(target, "–", NOT_MEASURED)
          : new TargetRow(target, String.join("; ", figures), worst(verdicts));
    }
  }

  static List<TargetRow> evaluate(Results r) {
    return List.of(
        // Judged on every window of every server JVM (both kinds of noise); the figure is the
        // difference of the JVMs' medians, as the tables show.
        echo(
            r,
            "Allocation per request: HttpConnector within 4 KiB of bare Jetty at every size",
            "bare",
            0,
            (row, name, bare, http) -> {
              Spread h = windows(http);
              Spread b = windows(bare);
              double difference =
                  echoMedian(http, EchoRow::allocatedBytesPerRequest)
                      - echoMedian(bare, EchoRow::allocatedBytesPerRequest);
              row.add(
                  name + differenceFigure(difference, h, b),
                  Verdicts.differenceAtMost(h, b, ECHO_ALLOCATION_BOUND));
            }),
        allocationAtFixedRate(r),
        echo(
            r,
            "Allocation per request: legacy ≥ 10 × HttpConnector at 1 MiB and 30 MiB",
            "legacy",
            1024 * 1024,
            (row, name, legacy, http) -> {
              double ratio =
                  echoMedian(legacy, EchoRow::allocatedBytesPerRequest)
                      / Math.max(1, echoMedian(http, EchoRow::allocatedBytesPerRequest));
              row.add(name + Report.fmt("%.1f×", ratio), ratio >= 10);
            }),
        echo(
            r,
            "Heap inside the servlet during a 30 MiB echo: HttpConnector within 2 MiB of bare",
            "bare",
            30L * 1024 * 1024,
            (row, name, bare, http) -> {
              double diff =
                  echoMedian(http, EchoRow::heapAfterGcBytes)
                      - echoMedian(bare, EchoRow::heapAfterGcBytes);
              row.add(name + signed(diff), diff <= 2 * 1024 * 1024);
            }),
        cpu(r, "bare", 1.05, "Server CPU per request: HttpConnector ≤ 1.05 × bare Jetty"),
        cpu(r, "legacy", 0.85, "Server CPU per request: HttpConnector ≤ 0.85 × legacy"),
        // Without the JIT compiler threads, as the CPU scenario: they still run in bursts after
        // the warm-up, differently in every run, and a compiled server costs what is left.
        atPeak(
            r,
            "Server CPU per request at saturation (hello): HttpConnector ≤ 1.05 × bare",
            CapacityRound::serverCpuMicrosPerRequestAtPeakNetOfJit,
            true,
            "%.1f",
            "µs without JIT",
            (h, b) -> Verdicts.atMost(h, b, 1.05)),
        latency(r),
        atPeak(
            r,
            "Capacity (small responses, p99 ≤ bound): HttpConnector ≥ 0.95 × bare Jetty",
            CapacityRound::capacityRate,
            false,
            "%.0f",
            "req/s",
            (h, b) -> Verdicts.atLeast(h, b, 0.95)),
        atPeak(
            r,
            "Peak throughput (small responses): HttpConnector ≥ 0.95 × bare Jetty",
            CapacityRound::peakRate,
            false,
            "%.0f",
            "req/s",
            (h, b) -> Verdicts.atLeast(h, b, 0.95)),
        coldStart(r),
        soak(r));
  }

  /** The echo rows of one size on one peer: one per server JVM it ran in. */
  private static List<EchoRow> echo(Results r, String ee, String peer, long size) {
    return r.echo.stream()
        .filter(e -> e.ee().equals(ee) && e.peer().equals(peer) && e.size() == size)
        .toList();
  }

  /** The median over a peer's server JVMs of an echo figure. */
  static double echoMedian(List<EchoRow> rows, ToDoubleFunction<EchoRow> figure) {
    return Stats.median(rows.stream().map(figure::applyAsDouble).toList());
  }

  /** A case of an echo target: HttpConnector's rows against the other peer's at one size. */
  private interface EchoCase {
    void judge(Row row, String name, List<EchoRow> other, List<EchoRow> http);
  }

  /**
   * HttpConnector against {@code other} at every echo size of every EE from {@code from} bytes on
   * (the case's name gives the size when the target covers several).
   */
  private static TargetRow echo(
      Results r, String target, String other, long from, EchoCase echoCase) {
    Row row = new Row(target);
    for (String ee : BenchOptions.EES) {
      for (long size : sizes(r, ee)) {
        List<EchoRow> http = echo(r, ee, "http", size);
        List<EchoRow> base = echo(r, ee, other, size);
        if (size >= from && !http.isEmpty() && !base.isEmpty()) {
          String name =
              ee.toUpperCase(Locale.ROOT) + (from >= 30L << 20 ? "" : " " + Report.size(size));
          echoCase.judge(row, name + ": ", base, http);
        }
      }
    }
    return row.done();
  }

  /** A peer's allocation per request at one echo size: every window of every JVM it ran in. */
  private static Spread windows(List<EchoRow> rows) {
    return Stats.spread(rows.stream().flatMap(row -> row.allocatedWindows().stream()).toList());
  }

  /** "+1.2 KiB", and with several values the range of {@code a − b}: "(−3 B to +2 KiB)". */
  static String differenceFigure(double difference, Spread a, Spread b) {
    String median = signed(difference);
    if (a.values().size() < 2 && b.values().size() < 2) {
      return median;
    }
    return median + " (" + signed(a.min() - b.max()) + " to " + signed(a.max() - b.min()) + ")";
  }

  /** The CPU scenario's requests with the runtime's defaults, medians of the rounds. */
  private static TargetRow allocationAtFixedRate(Results r) {
    Row row =
        new Row(
            "Allocation per request at a fixed rate (1 KiB in, 32 KiB out): HttpConnector within"
                + " 1 KiB of bare Jetty");
    Spread http = cpuFigure(r, "http", CpuRow::allocatedBytesPerRequest);
    Spread bare = cpuFigure(r, "bare", CpuRow::allocatedBytesPerRequest);
    if (http.known() && bare.known()) {
      double diff = http.median() - bare.median();
      String figure =
          Report.fmt(
              "%s (%s vs %s)",
              signed(diff), Report.bytes(http.median()), Report.bytes(bare.median()));
      row.add(figure, diff <= 1024);
    }
    return row.done();
  }

  /** A figure of the CPU scenario's rounds on {@code peer}: its median and spread. */
  private static Spread cpuFigure(Results r, String peer, ToDoubleFunction<CpuRow> figure) {
    return Stats.spread(
        r.cpu.stream().filter(c -> c.peer().equals(peer)).map(figure::applyAsDouble).toList());
  }

  /** HttpConnector's CPU per request without JIT against {@code other}'s, the gross beside. */
  private static TargetRow cpu(Results r, String other, double bound, String target) {
    ToDoubleFunction<CpuRow> net = CpuRow::cpuMicrosPerRequestNetOfJit;
    ToDoubleFunction<CpuRow> gross = CpuRow::cpuMicrosPerRequest;
    String unit =
        String.format(
            "µs, without JIT; gross %s vs %s µs",
            cpuFigure(r, "http", gross).format("%.0f"), cpuFigure(r, other, gross).format("%.0f"));
    return ratio(
        target,
        cpuFigure(r, "http", net),
        cpuFigure(r, other, net),
        "%.0f",
        unit,
        (h, b) -> Verdicts.atMost(h, b, bound));
  }

  static Spread p99Spread(Results r, String peer, long size) {
    return Stats.spread(
        latencyRows(r, peer, size).stream().map(l -> l.latencyMillis().p99()).toList());
  }

  private static List<LatencyRow> latencyRows(Results r, String peer, long size) {
    return r.latency.stream()
        .filter(l -> l.peer().equals(peer) && l.responseSize() == size)
        .toList();
  }

  private static TreeSet<Long> latencySizes(Results r) {
    return new TreeSet<>(r.latency.stream().map(LatencyRow::responseSize).toList());
  }

  private static TargetRow latency(Results r) {
    Row row = new Row("Latency at the same rate: HttpConnector p99 ≤ 1.2 × bare Jetty p99");
    for (long size : latencySizes(r)) {
      Spread http = p99Spread(r, "http", size);
      Spread bare = p99Spread(r, "bare", size);
      if (!http.known() || !bare.known()) {
        continue;
      }
      Spread legacy = p99Spread(r, "legacy", size);
      boolean measurable =
          latencyRows(r, "http", size).stream().allMatch(l -> l.lag().measurable())
              && latencyRows(r, "bare", size).stream().allMatch(l -> l.lag().measurable());
      String figure =
          Report.fmt(
              "%s: %.2f× (%s vs %s ms%s)%s",
              Report.size(size),
              http.median() / bare.median(),
              http.format("%.2f"),
              bare.format("%.2f"),
              legacy.known() ? "; legacy " + legacy.format("%.2f") + " ms" : "",
              measurable ? "" : ", not measurable: the generator's lag is over 10 % of p99");
      row.add(figure, measurable ? Verdicts.atMost(http, bare, 1.2) : NOT_MEASURABLE);
    }
    return row.done();
  }

  /** The verdict of several figures: missed over within noise over not measurable over met. */
  static String worst(List<String> verdicts) {
    for (String v : List.of(MISSED, WITHIN_NOISE, NOT_MEASURABLE, NOT_MEASURED)) {
      if (verdicts.contains(v)) {
        return v;
      }
    }
    return MET;
  }

  /** A figure of the capacity scenario's rounds on {@code peer}: its median and spread. */
  static Spread capacityFigure(Results r, String peer, ToDoubleFunction<CapacityRound> figure) {
    return Stats.spread(
        r.capacity.stream()
            .filter(c -> c.peer().equals(peer))
            .flatMap(c -> c.rounds().stream())
            .map(figure::applyAsDouble)
            .toList());
  }

  /**
   * HttpConnector against bare Jetty on a figure of the capacity rounds, a ratio of the medians;
   * one not {@code resolvedInQuick} (capacity, peak) says so in the quick profile.
   */
  private static TargetRow atPeak(
      Results r,
      String target,
      ToDoubleFunction<CapacityRound> figure,
      boolean resolvedInQuick,
      String format,
      String unit,
      BiFunction<Spread, Spread, String> verdict) {
    Spread h = capacityFigure(r, "http", figure);
    Spread b = capacityFigure(r, "bare", figure);
    if (!resolvedInQuick && quick(r) && !r.capacity.isEmpty()) {
      return new TargetRow(target, "–", NOT_RESOLVED);
    }
    if (h.known() && b.known() && !(b.median() > 0)) {
      return new TargetRow(target, "bare Jetty: none measured", NOT_MEASURED);
    }
    return ratio(target, h, b, format, unit, verdict);
  }

  /** Whether the run is the quick profile's, which does not resolve capacity and peak. */
  static boolean quick(Results r) {
    return r.meta != null && r.meta.profile().equals("quick");
  }

  private static TargetRow coldStart(Results r) {
    String target = "Cold start to the first 200 (hello): HttpConnector ≤ 1.1 × bare Jetty";
    Spread h = coldStarts(r, "http");
    return ratio(
        target, h, coldStarts(r, "bare"), "%.0f", "ms", (x, y) -> Verdicts.atMost(x, y, 1.1));
  }

  private static Spread coldStarts(Results r, String peer) {
    return r.coldStart.stream()
        .filter(c -> c.peer().equals(peer))
        .findFirst()
        .map(c -> Stats.spread(c.startMillis()))
        .orElse(Spread.NONE);
  }

  /** HttpConnector's {@code h} against bare Jetty's {@code b}: the ratio and both spreads. */
  private static TargetRow ratio(
      String target,
      Spread h,
      Spread b,
      String format,
      String unit,
      BiFunction<Spread, Spread, String> verdict) {
    Row row = new Row(target);
    if (h.known() && b.known()) {
      String figure =
          Report.fmt(
              "%.2f× (%s vs %s %s)",
              h.median() / b.median(), h.format(format), b.format(format), unit);
      row.add(figure, verdict.apply(h, b));
    }
    return row.done();
  }

  /** Every peer's soak met every criterion of {@link SoakScenario#shortfalls}. */
  private static TargetRow soak(Results r) {
    Row row =
        new Row(
            "Soak: every request 200, no OutOfMemoryError; heap after GC, threads and descriptors"
                + " flat (every peer)");
    List<String> figures = new ArrayList<>();
    boolean met = true;
    for (Results.SoakRow soak : r.soak) {
      List<String> missed = SoakScenario.shortfalls(soak);
      met &= missed.isEmpty();
      figures.add(soak.peer() + ": " + (missed.isEmpty() ? "flat" : String.join(", ", missed)));
    }
    return figures.isEmpty() ? row.done() : row.add(String.join("; ", figures), met).done();
  }

  /**
   * The timing figures where a peer beats bare Jetty by more than the noise: bare Jetty does the
   * least work on the same app, so each is a measurement problem to look into, not a result.
   */
  static List<String> measurementProblems(Results r) {
    List<String> problems = new ArrayList<>();
    for (Results.PeerInfo info : r.peers) {
      String peer = info.id();
      if (peer.equals("bare")) {
        continue;
      }
      ToDoubleFunction<CpuRow> cpu = CpuRow::cpuMicrosPerRequestNetOfJit;
      problem(
          problems,
          peer,
          "CPU per request",
          cpuFigure(r, peer, cpu),
          cpuFigure(r, "bare", cpu),
          true);
      for (long size : latencySizes(r)) {
        String figure = "p99 latency, " + Report.size(size);
        problem(problems, peer, figure, p99Spread(r, peer, size), p99Spread(r, "bare", size), true);
      }
      if (quick(r)
          || !capacityFigure(r, peer, CapacityRound::peakRate).known()
          || !capacityFigure(r, "bare", CapacityRound::peakRate).known()) {
        continue;
      }
      List<ToDoubleFunction<CapacityRound>> figures =
          List.of(
              CapacityRound::capacityRate,
              CapacityRound::peakRate,
              CapacityRound::serverCpuMicrosPerRequestAtPeakNetOfJit);
      List<String> names = List.of("capacity", "peak throughput", "CPU per request at saturation");
      for (int i = 0; i < 3; i++) {
        Spread value = capacityFigure(r, peer, figures.get(i));
        Spread bare = capacityFigure(r, "bare", figures.get(i));
        problem(problems, peer, names.get(i), value, bare, i == 2);
      }
    }
    return problems;
  }

  private static void problem(
      List<String> problems,
      String peer,
      String figure,
      Spread value,
      Spread bare,
      boolean lowerIsBetter) {
    if (Verdicts.beatsBeyondNoise(value, bare, lowerIsBetter)) {
      problems.add(
          Report.fmt(
              "%s beats bare Jetty on %s by more than the noise (%s vs %s): a measurement"
                  + " problem, not a result",
              peer, figure, value.format("%.1f"), bare.format("%.1f")));
    }
  }

  private static List<Long> sizes(Results r, String ee) {
    return new ArrayList<>(
        new TreeSet<>(r.echo.stream().filter(e -> e.ee().equals(ee)).map(EchoRow::size).toList()));
  }

  private static String signed(double bytes) {
    return (bytes >= 0 ? "+" : "−") + Report.bytes(Math.abs(bytes));
  }
}
