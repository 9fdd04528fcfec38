package dev.aerun.bench;

import dev.aerun.bench.Results.CapacityRow;
import dev.aerun.bench.Results.ColdStartRow;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.TargetRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The project's targets, checked against one run's figures. Timing figures come from repeated,
 * interleaved rounds and are judged on their spread ({@link Verdicts}); a target whose figures the
 * run did not measure says so; none is ever turned into a test.
 */
final class Targets {
  private static final String MET = Verdicts.MET;
  private static final String MISSED = Verdicts.MISSED;
  private static final String WITHIN_NOISE = Verdicts.WITHIN_NOISE;
  private static final String NOT_MEASURED = Verdicts.NOT_MEASURED;
  private static final String NOT_MEASURABLE = Verdicts.NOT_MEASURABLE;

  private Targets() {}

  static List<TargetRow> evaluate(Results results) {
    List<TargetRow> rows = new ArrayList<>();
    rows.add(allocationVsBare(results));
    rows.add(allocationAtFixedRate(results));
    rows.add(allocationVsLegacy(results));
    rows.add(heapVsBare(results));
    rows.add(
        cpu(results, "bare", 1.05, "Server CPU per request: HttpConnector ≤ 1.05 × bare Jetty"));
    rows.add(cpuVsLegacy(results));
    rows.add(cpuAtPeak(results));
    rows.add(latency(results));
    rows.add(capacity(results));
    rows.add(peak(results));
    rows.add(coldStart(results));
    return rows;
  }

  /** The echo rows of one size on one peer: one per server JVM it ran in. */
  private static List<EchoRow> echo(Results r, String ee, String peer, long size) {
    return r.echo.stream()
        .filter(e -> e.ee().equals(ee) && e.peer().equals(peer) && e.size() == size)
        .toList();
  }

  /** The median over a peer's server JVMs of an echo figure. */
  static double echoMedian(List<EchoRow> rows, ToDoubleFunction<EchoRow> figure) {
    return Stats.spread(rows.stream().map(row -> figure.applyAsDouble(row)).toList()).median();
  }

  /** The largest allocation per request HttpConnector may add to bare Jetty's at an echo size. */
  static final double ECHO_ALLOCATION_BOUND = 4096;

  private static TargetRow allocationVsBare(Results r) {
    String target =
        "Allocation per request: HttpConnector within 4 KiB of bare Jetty at every size";
    List<String> figures = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    for (String ee : BenchOptions.EES) {
      for (long size : sizes(r, ee)) {
        List<EchoRow> http = echo(r, ee, "http", size);
        List<EchoRow> bare = echo(r, ee, "bare", size);
        if (!http.isEmpty() && !bare.isEmpty()) {
          Stats.Spread h = windows(http);
          Stats.Spread b = windows(bare);
          String name = ee.toUpperCase(Locale.ROOT) + " " + Report.size(size) + ": ";
          // The centre as the tables show it (the median of each peer's JVMs), the range over
          // every window.
          double difference =
              echoMedian(http, EchoRow::allocatedBytesPerRequest)
                  - echoMedian(bare, EchoRow::allocatedBytesPerRequest);
          figures.add(name + differenceFigure(difference, h, b));
          verdicts.add(Verdicts.differenceAtMost(h, b, ECHO_ALLOCATION_BOUND));
        }
      }
    }
    if (verdicts.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    return new TargetRow(target, String.join("; ", figures), worst(verdicts));
  }

  /**
   * A peer's allocation per request at one echo size, one value per window of every server JVM it
   * ran in: the spread covers both the windows' noise and the JVMs'.
   */
  private static Stats.Spread windows(List<EchoRow> rows) {
    return Stats.spread(rows.stream().flatMap(row -> row.allocatedWindows().stream()).toList());
  }

  /**
   * {@code difference}, and with several values the range of {@code a − b}: "+1.2 KiB (−3 B to +2
   * KiB)".
   */
  static String differenceFigure(double difference, Stats.Spread a, Stats.Spread b) {
    String median = signed(difference);
    if (a.values().size() < 2 && b.values().size() < 2) {
      return median;
    }
    return median + " (" + signed(a.min() - b.max()) + " to " + signed(a.max() - b.min()) + ")";
  }

  /**
   * The CPU scenario's requests (1 KiB in, 32 KiB out) with the runtime's defaults: what its
   * request path adds per request, medians of the rounds.
   */
  private static TargetRow allocationAtFixedRate(Results r) {
    String target =
        "Allocation per request at a fixed rate (1 KiB in, 32 KiB out): HttpConnector within 1 KiB"
            + " of bare Jetty";
    Stats.Spread http = cpuFigure(r, "http", CpuRow::allocatedBytesPerRequest);
    Stats.Spread bare = cpuFigure(r, "bare", CpuRow::allocatedBytesPerRequest);
    if (!http.known() || !bare.known()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    double diff = http.median() - bare.median();
    return new TargetRow(
        target,
        String.format(
            Locale.ROOT,
            "%s (%s vs %s)",
            signed(diff),
            Report.bytes(http.median()),
            Report.bytes(bare.median())),
        diff <= 1024 ? MET : MISSED);
  }

  /** A figure of the CPU scenario's rounds on {@code peer}: its median and spread. */
  private static Stats.Spread cpuFigure(Results r, String peer, Function<CpuRow, Double> figure) {
    return Stats.spread(r.cpu.stream().filter(c -> c.peer().equals(peer)).map(figure).toList());
  }

  private static TargetRow allocationVsLegacy(Results r) {
    String target = "Allocation per request: legacy ≥ 10 × HttpConnector at 1 MiB and 30 MiB";
    List<String> figures = new ArrayList<>();
    boolean measured = false;
    boolean met = true;
    for (String ee : BenchOptions.EES) {
      for (long size : sizes(r, ee)) {
        if (size < 1024 * 1024) {
          continue;
        }
        List<EchoRow> http = echo(r, ee, "http", size);
        List<EchoRow> legacy = echo(r, ee, "legacy", size);
        if (!http.isEmpty() && !legacy.isEmpty()) {
          measured = true;
          double ratio =
              echoMedian(legacy, EchoRow::allocatedBytesPerRequest)
                  / Math.max(1, echoMedian(http, EchoRow::allocatedBytesPerRequest));
          met &= ratio >= 10;
          figures.add(
              String.format(
                  Locale.ROOT,
                  "%s %s: %.1f×",
                  ee.toUpperCase(Locale.ROOT),
                  Report.size(size),
                  ratio));
        }
      }
    }
    return row(target, figures, measured, met);
  }

  private static TargetRow heapVsBare(Results r) {
    String target =
        "Heap inside the servlet during a 30 MiB echo: HttpConnector within 2 MiB of bare";
    List<String> figures = new ArrayList<>();
    boolean measured = false;
    boolean met = true;
    long size = 30L * 1024 * 1024;
    for (String ee : BenchOptions.EES) {
      List<EchoRow> http = echo(r, ee, "http", size);
      List<EchoRow> bare = echo(r, ee, "bare", size);
      if (!http.isEmpty() && !bare.isEmpty()) {
        measured = true;
        double diff =
            echoMedian(http, EchoRow::heapAfterGcBytes)
                - echoMedian(bare, EchoRow::heapAfterGcBytes);
        met &= diff <= 2 * 1024 * 1024;
        figures.add(ee.toUpperCase(Locale.ROOT) + ": " + signed(diff));
      }
    }
    return row(target, figures, measured, met);
  }

  private static TargetRow cpu(Results r, String other, double bound, String target) {
    Stats.Spread http = cpuFigure(r, "http", CpuRow::cpuMicrosPerRequestNetOfJit);
    Stats.Spread base = cpuFigure(r, other, CpuRow::cpuMicrosPerRequestNetOfJit);
    if (!http.known() || !base.known()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    return new TargetRow(
        target,
        String.format(
            Locale.ROOT,
            "%.2f× (%s vs %s µs, without JIT; gross %s vs %s µs)",
            http.median() / base.median(),
            http.format("%.0f"),
            base.format("%.0f"),
            cpuFigure(r, "http", CpuRow::cpuMicrosPerRequest).format("%.0f"),
            cpuFigure(r, other, CpuRow::cpuMicrosPerRequest).format("%.0f")),
        Verdicts.atMost(http, base, bound));
  }

  private static TargetRow cpuVsLegacy(Results r) {
    return cpu(r, "legacy", 0.85, "Server CPU per request: HttpConnector ≤ 0.85 × legacy");
  }

  static Stats.Spread p99Spread(Results r, String peer, long size) {
    return Stats.spread(
        r.latency.stream()
            .filter(l -> l.peer().equals(peer) && l.responseSize() == size)
            .map(l -> l.latencyMillis().p99())
            .toList());
  }

  private static boolean measurable(Results r, String peer, long size) {
    return r.latency.stream()
        .filter(l -> l.peer().equals(peer) && l.responseSize() == size)
        .allMatch(l -> l.lag().measurable());
  }

  private static TargetRow latency(Results r) {
    String target = "Latency at the same rate: HttpConnector p99 ≤ 1.2 × bare Jetty p99";
    List<String> figures = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    for (long size : new TreeSet<>(r.latency.stream().map(LatencyRow::responseSize).toList())) {
      Stats.Spread http = p99Spread(r, "http", size);
      Stats.Spread bare = p99Spread(r, "bare", size);
      if (!http.known() || !bare.known()) {
        continue;
      }
      Stats.Spread legacy = p99Spread(r, "legacy", size);
      boolean measurable = measurable(r, "http", size) && measurable(r, "bare", size);
      verdicts.add(measurable ? Verdicts.atMost(http, bare, 1.2) : NOT_MEASURABLE);
      figures.add(
          String.format(
              Locale.ROOT,
              "%s: %.2f× (%s vs %s ms%s)%s",
              Report.size(size),
              http.median() / bare.median(),
              http.format("%.2f"),
              bare.format("%.2f"),
              legacy.known() ? "; legacy " + legacy.format("%.2f") + " ms" : "",
              measurable ? "" : ", not measurable: the generator's lag is over 10 % of p99"));
    }
    if (figures.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    return new TargetRow(target, String.join("; ", figures), worst(verdicts));
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

  private static Optional<CapacityRow> capacityRow(Results r, String peer) {
    return r.capacity.stream().filter(c -> c.peer().equals(peer)).findFirst();
  }

  private static TargetRow capacity(Results r) {
    return capacityTarget(
        r,
        "Capacity (small responses, p99 ≤ bound): HttpConnector ≥ 0.95 × bare Jetty",
        CapacityRow::capacity);
  }

  private static TargetRow peak(Results r) {
    return capacityTarget(
        r,
        "Peak throughput (small responses): HttpConnector ≥ 0.95 × bare Jetty",
        CapacityRow::peak);
  }

  private static TargetRow capacityTarget(
      Results r, String target, java.util.function.Function<CapacityRow, Stats.Spread> figure) {
    Optional<CapacityRow> http = capacityRow(r, "http");
    Optional<CapacityRow> bare = capacityRow(r, "bare");
    if (http.isEmpty() || bare.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    Stats.Spread h = figure.apply(http.get());
    Stats.Spread b = figure.apply(bare.get());
    if (!(b.median() > 0)) {
      return new TargetRow(target, "bare Jetty: none measured", NOT_MEASURED);
    }
    return ratioRow(target, h, b, "%.0f", "req/s", Verdicts.atLeast(h, b, 0.95));
  }

  private static TargetRow cpuAtPeak(Results r) {
    String target = "Server CPU per request at saturation (hello): HttpConnector ≤ 1.05 × bare";
    Optional<CapacityRow> http = capacityRow(r, "http");
    Optional<CapacityRow> bare = capacityRow(r, "bare");
    if (http.isEmpty() || bare.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    // Without the JIT compiler threads, as the CPU scenario: they still run in bursts after the
    // warm-up, differently in every run, and a compiled server costs what remains.
    Stats.Spread h = http.get().serverCpuMicrosPerRequestAtPeakNetOfJit();
    Stats.Spread b = bare.get().serverCpuMicrosPerRequestAtPeakNetOfJit();
    if (!h.known() || !b.known()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    return ratioRow(target, h, b, "%.1f", "µs without JIT", Verdicts.atMost(h, b, 1.05));
  }

  private static TargetRow coldStart(Results r) {
    String target = "Cold start to the first 200 (hello): HttpConnector ≤ 1.1 × bare Jetty";
    Optional<ColdStartRow> http =
        r.coldStart.stream().filter(c -> c.peer().equals("http")).findFirst();
    Optional<ColdStartRow> bare =
        r.coldStart.stream().filter(c -> c.peer().equals("bare")).findFirst();
    if (http.isEmpty() || bare.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    Stats.Spread h = Stats.spread(http.get().startMillis());
    Stats.Spread b = Stats.spread(bare.get().startMillis());
    return ratioRow(target, h, b, "%.0f", "ms", Verdicts.atMost(h, b, 1.1));
  }

  /** A row comparing HttpConnector's {@code h} with bare Jetty's {@code b}: ratio, both spreads. */
  private static TargetRow ratioRow(
      String target, Stats.Spread h, Stats.Spread b, String format, String unit, String verdict) {
    return new TargetRow(
        target,
        String.format(
            Locale.ROOT,
            "%.2f× (%s vs %s %s)",
            h.median() / b.median(),
            h.format(format),
            b.format(format),
            unit),
        verdict);
  }

  /**
   * The timing figures where a peer beats bare Jetty by more than the noise: bare Jetty does the
   * least work on the same app, so each is a measurement problem to look into, not a result.
   */
  static List<String> measurementProblems(Results r) {
    List<String> problems = new ArrayList<>();
    List<String> peers = r.peers.stream().map(Results.PeerInfo::id).toList();
    for (String peer : peers) {
      if (peer.equals("bare")) {
        continue;
      }
      problem(
          problems,
          peer,
          "CPU per request",
          cpuFigure(r, peer, CpuRow::cpuMicrosPerRequestNetOfJit),
          cpuFigure(r, "bare", CpuRow::cpuMicrosPerRequestNetOfJit),
          true);
      for (long size : new TreeSet<>(r.latency.stream().map(LatencyRow::responseSize).toList())) {
        problem(
            problems,
            peer,
            "p99 latency, " + Report.size(size),
            p99Spread(r, peer, size),
            p99Spread(r, "bare", size),
            true);
      }
      Optional<CapacityRow> row = capacityRow(r, peer);
      Optional<CapacityRow> bare = capacityRow(r, "bare");
      if (row.isPresent() && bare.isPresent()) {
        problem(problems, peer, "capacity", row.get().capacity(), bare.get().capacity(), false);
        problem(problems, peer, "peak throughput", row.get().peak(), bare.get().peak(), false);
        problem(
            problems,
            peer,
            "CPU per request at saturation",
            row.get().serverCpuMicrosPerRequestAtPeakNetOfJit(),
            bare.get().serverCpuMicrosPerRequestAtPeakNetOfJit(),
            true);
      }
    }
    return problems;
  }

  private static void problem(
      List<String> problems,
      String peer,
      String figure,
      Stats.Spread value,
      Stats.Spread bare,
      boolean lowerIsBetter) {
    if (Verdicts.beatsBeyondNoise(value, bare, lowerIsBetter)) {
      problems.add(
          String.format(
              Locale.ROOT,
              "%s beats bare Jetty on %s by more than the noise (%s vs %s): a measurement"
                  + " problem, not a result",
              peer,
              figure,
              value.format("%.1f"),
              bare.format("%.1f")));
    }
  }

  private static List<Long> sizes(Results r, String ee) {
    return new ArrayList<>(
        new TreeSet<>(r.echo.stream().filter(e -> e.ee().equals(ee)).map(EchoRow::size).toList()));
  }

  private static String signed(double bytes) {
    return (bytes >= 0 ? "+" : "−") + Report.bytes(Math.abs(bytes));
  }

  private static TargetRow row(String target, List<String> figures, boolean measured, boolean met) {
    if (!measured) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    return new TargetRow(target, String.join("; ", figures), met ? MET : MISSED);
  }
}
