package dev.aerun.bench;

import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.TargetRow;
import dev.aerun.bench.Stats.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The project's targets, checked against one run's figures; none is ever turned into a test. Timing
 * figures come from repeated, interleaved rounds and are judged on their spread: a target is met
 * only if it holds across the whole spread (the worst of one peer against the best of the other),
 * missed only if it fails across the whole spread; in between, the spread covers the difference and
 * the verdict is "within noise". A target whose figures the run did not measure says so.
 */
final class Targets {
  static final String MET = "met";
  static final String MISSED = "missed";
  static final String WITHIN_NOISE = "within noise";
  static final String NOT_MEASURED = "not measured";
  static final String NOT_MEASURABLE = "not measurable on this machine";
  static final String NOT_RESOLVED = "not resolved in the quick profile";

  private Targets() {}

  /** A case of a target (an EE and size, a response size, a peer): its figure and verdict. */
  private record Case(String figure, String verdict) {
    Case(String figure, boolean met) {
      this(figure, met ? MET : MISSED);
    }
  }

  static List<TargetRow> evaluate(Results r) {
    ToDoubleFunction<EchoRow> allocated = EchoRow::allocatedBytesPerRequest;
    return List.of(
        // Judged on every window of every server JVM (both kinds of noise); the figure is the
        // difference of the JVMs' medians, as the tables show.
        echo(
            r,
            "Allocation per request: HttpConnector within 4 KiB of bare Jetty at every size",
            "bare",
            0,
            (bare, http) -> {
              Spread h = windows(http);
              Spread b = windows(bare);
              double difference = median(http, allocated) - median(bare, allocated);
              return new Case(differenceFigure(difference, h, b), differenceAtMost(h, b, 4096));
            }),
        allocationAtFixedRate(r),
        echo(
            r,
            "Allocation per request: legacy ≥ 10 × HttpConnector at 1 MiB and 30 MiB",
            "legacy",
            1024 * 1024,
            (legacy, http) -> {
              double ratio = median(legacy, allocated) / Math.max(1, median(http, allocated));
              return new Case(Report.fmt("%.1f×", ratio), ratio >= 10);
            }),
        echo(
            r,
            "Heap inside the servlet during a 30 MiB echo: HttpConnector within 2 MiB of bare",
            "bare",
            30L * 1024 * 1024,
            (bare, http) -> {
              ToDoubleFunction<EchoRow> heap = EchoRow::heapAfterGcBytes;
              double diff = median(http, heap) - median(bare, heap);
              return new Case(signed(diff), diff <= 2 * 1024 * 1024);
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
            "%.1f µs without JIT",
            (h, b) -> atMost(h, b, 1.05)),
        latency(r),
        atPeak(
            r,
            "Capacity (small responses, p99 ≤ bound): HttpConnector ≥ 0.95 × bare Jetty",
            CapacityRound::capacityRate,
            false,
            "%.0f req/s",
            (h, b) -> atLeast(h, b, 0.95)),
        atPeak(
            r,
            "Peak throughput (small responses): HttpConnector ≥ 0.95 × bare Jetty",
            CapacityRound::peakRate,
            false,
            "%.0f req/s",
            (h, b) -> atLeast(h, b, 0.95)),
        row(
            "Cold start to the first 200 (hello): HttpConnector ≤ 1.1 × bare Jetty",
            ratio(
                coldStarts(r, "http"),
                coldStarts(r, "bare"),
                "%.0f ms",
                (h, b) -> atMost(h, b, 1.1))),
        soak(r));
  }

  /** A target's row: its cases' figures and the worst of their verdicts. */
  private static TargetRow row(String target, List<Case> cases) {
    if (cases.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    List<String> figures = cases.stream().map(Case::figure).toList();
    return new TargetRow(
        target, String.join("; ", figures), worst(cases.stream().map(Case::verdict).toList()));
  }

  /** The verdict of several figures: missed over within noise over not measurable over met. */
  private static String worst(List<String> verdicts) {
    return Stream.of(MISSED, WITHIN_NOISE, NOT_MEASURABLE, NOT_MEASURED)
        .filter(verdicts::contains)
        .findFirst()
        .orElse(MET);
  }

  /** The spread of a figure of the CPU scenario's rounds on {@code peer}. */
  private static Spread cpu(Results r, String peer, ToDoubleFunction<CpuRow> figure) {
    return Stats.byPeer(r.cpu, CpuRow::peer, figure).getOrDefault(peer, Spread.NONE);
  }

  /** The median over a peer's server JVMs of an echo figure. */
  private static double median(List<EchoRow> rows, ToDoubleFunction<EchoRow> figure) {
    return Stats.median(rows.stream().map(figure::applyAsDouble).toList());
  }

  /**
   * HttpConnector against {@code other} at every echo size of every EE from {@code from} bytes on
   * (the case's name gives the size when the target covers several); {@code judge} gets the other's
   * rows, then HttpConnector's, one per server JVM.
   */
  private static TargetRow echo(
      Results r,
      String target,
      String other,
      long from,
      BiFunction<List<EchoRow>, List<EchoRow>, Case> judge) {
    List<Case> cases = new ArrayList<>();
    for (String ee : BenchOptions.EES) {
      List<EchoRow> rows = r.echo.stream().filter(e -> e.ee().equals(ee)).toList();
      for (long size : rows.stream().map(EchoRow::size).distinct().sorted().toList()) {
        List<EchoRow> http =
            rows.stream().filter(e -> e.size() == size && e.peer().equals("http")).toList();
        List<EchoRow> base =
            rows.stream().filter(e -> e.size() == size && e.peer().equals(other)).toList();
        if (size >= from && !http.isEmpty() && !base.isEmpty()) {
          Case judged = judge.apply(base, http);
          String name =
              ee.toUpperCase(Locale.ROOT) + (from >= 30L << 20 ? "" : " " + Report.size(size));
          cases.add(new Case(name + ": " + judged.figure(), judged.verdict()));
        }
      }
    }
    return row(target, cases);
  }

  /** A peer's allocation per request at one echo size: every window of every JVM it ran in. */
  private static Spread windows(List<EchoRow> rows) {
    return Stats.spread(rows.stream().flatMap(row -> row.allocatedWindows().stream()).toList());
  }

  /** "+1.2 KiB", and with several values the range of {@code a − b}: "(−3 B to +2 KiB)". */
  private static String differenceFigure(double difference, Spread a, Spread b) {
    String median = signed(difference);
    if (a.values().size() < 2 && b.values().size() < 2) {
      return median;
    }
    return median + " (" + signed(a.min() - b.max()) + " to " + signed(a.max() - b.min()) + ")";
  }

  /** The CPU scenario's requests with the runtime's defaults, medians of the rounds. */
  private static TargetRow allocationAtFixedRate(Results r) {
    Spread http = cpu(r, "http", CpuRow::allocatedBytesPerRequest);
    Spread bare = cpu(r, "bare", CpuRow::allocatedBytesPerRequest);
    double diff = http.median() - bare.median();
    String figure =
        Report.fmt(
            "%s (%s vs %s)",
            signed(diff), Report.bytes(http.median()), Report.bytes(bare.median()));
    return row(
        "Allocation per request at a fixed rate (1 KiB in, 32 KiB out): HttpConnector within"
            + " 1 KiB of bare Jetty",
        http.known() && bare.known() ? List.of(new Case(figure, diff <= 1024)) : List.of());
  }

  /** HttpConnector's CPU per request without JIT against {@code other}'s, the gross beside. */
  private static TargetRow cpu(Results r, String other, double bound, String target) {
    ToDoubleFunction<CpuRow> net = CpuRow::cpuMicrosPerRequestNetOfJit;
    ToDoubleFunction<CpuRow> gross = CpuRow::cpuMicrosPerRequest;
    String unit =
        Report.fmt(
            "%%.0f µs, without JIT; gross %s vs %s µs",
            cpu(r, "http", gross).format("%.0f"), cpu(r, other, gross).format("%.0f"));
    return row(
        target,
        ratio(cpu(r, "http", net), cpu(r, other, net), unit, (h, b) -> atMost(h, b, bound)));
  }

  private static Spread p99(Results r, String peer, long size) {
    ToDoubleFunction<LatencyRow> p99 = l -> l.latencyMillis().p99();
    return Stats.byPeer(sized(r, size), LatencyRow::peer, p99).getOrDefault(peer, Spread.NONE);
  }

  private static List<LatencyRow> sized(Results r, long size) {
    return r.latency.stream().filter(l -> l.responseSize() == size).toList();
  }

  private static List<Long> latencySizes(Results r) {
    return r.latency.stream().map(LatencyRow::responseSize).distinct().sorted().toList();
  }

  private static TargetRow latency(Results r) {
    List<Case> cases = new ArrayList<>();
    for (long size : latencySizes(r)) {
      Spread http = p99(r, "http", size);
      Spread bare = p99(r, "bare", size);
      if (!http.known() || !bare.known()) {
        continue;
      }
      Spread legacy = p99(r, "legacy", size);
      boolean measurable =
          sized(r, size).stream()
              .filter(l -> l.peer().equals("http") || l.peer().equals("bare"))
              .allMatch(l -> l.lag().measurable());
      String figure =
          Report.fmt(
              "%s: %.2f× (%s vs %s ms%s)%s",
              Report.size(size),
              http.median() / bare.median(),
              http.format("%.2f"),
              bare.format("%.2f"),
              legacy.known() ? "; legacy " + legacy.format("%.2f") + " ms" : "",
              measurable ? "" : ", not measurable: the generator's lag is over 10 % of p99");
      cases.add(new Case(figure, measurable ? atMost(http, bare, 1.2) : NOT_MEASURABLE));
    }
    return row("Latency at the same rate: HttpConnector p99 ≤ 1.2 × bare Jetty p99", cases);
  }

  /** A figure of the capacity scenario's rounds on {@code peer}: its median and spread. */
  private static Spread capacity(Results r, String peer, ToDoubleFunction<CapacityRound> figure) {
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
      BiFunction<Spread, Spread, String> verdict) {
    Spread h = capacity(r, "http", figure);
    Spread b = capacity(r, "bare", figure);
    if (!resolvedInQuick && quick(r) && !r.capacity.isEmpty()) {
      return new TargetRow(target, "–", NOT_RESOLVED);
    }
    if (h.known() && b.known() && !(b.median() > 0)) {
      return new TargetRow(target, "bare Jetty: none measured", NOT_MEASURED);
    }
    return row(target, ratio(h, b, format, verdict));
  }

  /** Whether the run is the quick profile's, which does not resolve capacity and peak. */
  static boolean quick(Results r) {
    return r.meta != null && r.meta.profile().equals("quick");
  }

  private static Spread coldStarts(Results r, String peer) {
    return r.coldStart.stream()
        .filter(c -> c.peer().equals(peer))
        .findFirst()
        .map(c -> Stats.spread(c.startMillis()))
        .orElse(Spread.NONE);
  }

  /**
   * HttpConnector's {@code h} against the other's {@code b}: the ratio and both spreads, each
   * number written with the {@code %.Nf} of {@code format}, its unit after it.
   */
  private static List<Case> ratio(
      Spread h, Spread b, String format, BiFunction<Spread, Spread, String> verdict) {
    if (!h.known() || !b.known()) {
      return List.of();
    }
    String number = format.substring(0, format.indexOf(' '));
    String figure =
        Report.fmt(
            "%.2f× (%s vs %s%s)",
            h.median() / b.median(),
            h.format(number),
            b.format(number),
            format.substring(number.length()));
    return List.of(new Case(figure, verdict.apply(h, b)));
  }

  /** Every peer's soak met every criterion of {@link SoakScenario#shortfalls}. */
  private static TargetRow soak(Results r) {
    List<Case> cases = new ArrayList<>();
    for (Results.SoakRow soak : r.soak) {
      List<String> missed = SoakScenario.shortfalls(soak);
      String figure = missed.isEmpty() ? "flat" : String.join(", ", missed);
      cases.add(new Case(soak.peer() + ": " + figure, missed.isEmpty()));
    }
    return row(
        "Soak: every request 200, no OutOfMemoryError; heap after GC, threads and descriptors"
            + " flat (every peer)",
        cases);
  }

  /**
   * The timing figures where a peer beats bare Jetty by more than the noise: bare Jetty does the
   * least work on the same app, so each is a measurement problem to look into, not a result.
   */
  static List<String> measurementProblems(Results r) {
    // Each figure: its name, whether lower is better, and its spread on a peer.
    List<Figure> figures = new ArrayList<>();
    ToDoubleFunction<CpuRow> cpu = CpuRow::cpuMicrosPerRequestNetOfJit;
    figures.add(new Figure("CPU per request", true, p -> cpu(r, p, cpu)));
    for (long size : latencySizes(r)) {
      figures.add(new Figure("p99 latency, " + Report.size(size), true, p -> p99(r, p, size)));
    }
    if (!quick(r)) {
      figures.add(new Figure("capacity", false, p -> capacity(r, p, CapacityRound::capacityRate)));
      figures.add(
          new Figure("peak throughput", false, p -> capacity(r, p, CapacityRound::peakRate)));
      figures.add(
          new Figure(
              "CPU per request at saturation",
              true,
              p -> capacity(r, p, CapacityRound::serverCpuMicrosPerRequestAtPeakNetOfJit)));
    }
    List<String> problems = new ArrayList<>();
    for (Results.PeerInfo peer : r.peers) {
      for (Figure figure : peer.id().equals("bare") ? List.<Figure>of() : figures) {
        Spread value = figure.of().apply(peer.id());
        Spread bare = figure.of().apply("bare");
        if (beatsBeyondNoise(value, bare, figure.lowerIsBetter())) {
          problems.add(
              Report.fmt(
                  "%s beats bare Jetty on %s by more than the noise (%s vs %s): a measurement"
                      + " problem, not a result",
                  peer.id(), figure.name(), value.format("%.1f"), bare.format("%.1f")));
        }
      }
    }
    return problems;
  }

  private record Figure(String name, boolean lowerIsBetter, Function<String, Spread> of) {}

  private static String signed(double bytes) {
    return (bytes >= 0 ? "+" : "−") + Report.bytes(Math.abs(bytes));
  }

  // ---- Verdicts on spreads -------------------------------------------------------------------

  /** {@code a ≤ factor × b}, for figures where lower is better (CPU, latency, start time). */
  static String atMost(Spread a, Spread b, double factor) {
    return judge(a, b, a.max() <= factor * b.min(), a.min() > factor * b.max());
  }

  /** {@code a ≥ factor × b}, for figures where higher is better (throughput, capacity). */
  static String atLeast(Spread a, Spread b, double factor) {
    return judge(a, b, a.min() >= factor * b.max(), a.max() < factor * b.min());
  }

  /**
   * {@code a − b ≤ bound}, for differences where lower is better (bytes allocated per request): met
   * when it holds for the worst pair of the spreads, missed when it fails for the best.
   */
  static String differenceAtMost(Spread a, Spread b, double bound) {
    return judge(a, b, a.max() - b.min() <= bound, a.min() - b.max() > bound);
  }

  /** Met if it holds across the whole spread, missed if it fails across it, else within noise. */
  private static String judge(Spread a, Spread b, boolean holdsForWorst, boolean failsForBest) {
    boolean known = a.known() && b.known();
    return !known ? NOT_MEASURED : holdsForWorst ? MET : failsForBest ? MISSED : WITHIN_NOISE;
  }

  /** Whether the two spreads overlap: their difference is within noise. */
  static boolean overlap(Spread a, Spread b) {
    return a.known() && b.known() && a.min() <= b.max() && b.min() <= a.max();
  }

  /** Whether every measurement of {@code peer} is better than every one of bare Jetty's. */
  static boolean beatsBeyondNoise(Spread peer, Spread bare, boolean lowerIsBetter) {
    // Not measured (NaN) compares false.
    return lowerIsBetter ? peer.max() < bare.min() : peer.min() > bare.max();
  }

  /**
   * Whether a fixed-rate phase measured the server rather than the load generator: the generator's
   * p99 schedule lag is at most a tenth of the p99 latency it reports.
   */
  static boolean measurable(double lagP99, double latencyP99) {
    return lagP99 <= 0.10 * latencyP99;
  }

  /** Whether more than a third of {@code phases} fixed-rate phases are not measurable. */
  static boolean mostlyUnmeasurable(int unmeasurable, int phases) {
    return phases > 0 && unmeasurable * 3 > phases;
  }
}
