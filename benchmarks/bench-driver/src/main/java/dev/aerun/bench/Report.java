package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.aerun.bench.Results.CalibrationRow;
import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.CapacityRow;
import dev.aerun.bench.Results.ColdStartRow;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.SoakRow;
import dev.aerun.bench.Results.SoakSample;
import dev.aerun.bench.Stats.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The report of a run, in its results folder: {@code results.json} (every figure), {@code
 * summary.md} (the targets met, missed or within noise, then one table per scenario: a column per
 * peer, then the ratios HttpConnector / bare, legacy / HttpConnector and each {@code --peer} /
 * bare) and {@code charts/*.svg}.
 */
final class Report {
  private static final Map<String, String> COLORS =
      Map.of("bare", "#8c8c8c", "http", "#1f77b4", "legacy", "#ff7f0e", "legacy-tcp", "#d62728");
  private static final List<String> MORE_COLORS =
      List.of("#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22");
  private static final int WIDTH = 860;
  private static final int HEIGHT = 420;
  private static final int LEFT = 80;
  private static final int RIGHT = 20;
  private static final int TOP = 56;
  private static final int BOTTOM = HEIGHT - 70;
  private static final DoubleFunction<String> US = f("%.0f µs");
  private static final DoubleFunction<String> US1 = f("%.1f µs");
  private static final DoubleFunction<String> MS = f("%.2f ms");
  private static final DoubleFunction<String> WHOLE = f("%.0f");
  private static final DoubleFunction<String> SLOPE = f("%+.3f");
  private static final DoubleFunction<String> CHANGE = f("%+.0f");

  /** A table row: each peer's figure (a median and its spread), written by {@code cell}. */
  private record Row(String name, Map<String, Spread> byPeer, Function<Spread, String> cell) {
    Row named(String name) {
      return new Row(name, byPeer, cell);
    }
  }

  /** The rows of a table, each a figure of {@code T}'s rows per peer. */
  private final class Rows<T> {
    final List<Row> list = new ArrayList<>();
    final List<T> rows;
    final Function<T, String> peer;

    Rows(List<T> rows, Function<T, String> peer) {
      this.rows = rows;
      this.peer = peer;
    }

    /** Each peer's median and spread over its rows. */
    Rows<T> spread(String name, ToDoubleFunction<T> figure, DoubleFunction<String> format) {
      return add(name, figure, s -> s, s -> s.format(format));
    }

    /** Each peer's median over its rows, as one value. */
    Rows<T> median(String name, ToDoubleFunction<T> figure, DoubleFunction<String> format) {
      return add(name, figure, s -> Spread.of(s.median()), s -> s.format(format));
    }

    Rows<T> sum(String name, ToDoubleFunction<T> figure) {
      UnaryOperator<Spread> sum = s -> Spread.of(s.values().stream().mapToDouble(d -> d).sum());
      return add(name, figure, sum, s -> s.format(WHOLE));
    }

    Rows<T> add(
        String name,
        ToDoubleFunction<T> figure,
        UnaryOperator<Spread> reduce,
        Function<Spread, String> cell) {
      Map<String, Spread> values = Stats.byPeer(rows, peer, figure);
      values.replaceAll((p, s) -> reduce.apply(s));
      list.add(new Row(name, values, cell));
      return this;
    }

    /** The load generator's lag, cost and measurability, and the steal, over fixed-rate phases. */
    Rows<T> generator(Function<T, Results.PhaseLag> lag, ToDoubleFunction<T> steal) {
      double max = results.steal == null ? Double.POSITIVE_INFINITY : results.steal.maxPercent();
      return median("Generator lag p99 (ms)", r -> lag.apply(r).p99Millis(), Report::millis)
          .median(
              "Generator CPU per request", r -> lag.apply(r).cpuMicrosPerRequest(), Report::micros)
          .sum("Rounds not measurable (lag)", r -> lag.apply(r).measurable() ? 0 : 1)
          .median("Hypervisor steal (%)", steal, Report::tenths)
          .sum("Rounds disturbed (steal)", r -> steal.applyAsDouble(r) > max ? 1 : 0);
    }
  }

  private final Results results;
  private final List<Peer> peers;
  private final Path chartDir;
  private final boolean quick;
  private final StringBuilder md = new StringBuilder();
  private final List<String> charts = new ArrayList<>();

  private Report(Results results, List<Peer> peers, Path out) {
    this.results = results;
    this.peers = peers;
    this.chartDir = out.resolve("charts");
    this.quick = Targets.quick(results);
  }

  static void write(Results results, List<Peer> peers, Path out) throws IOException {
    Files.createDirectories(out.resolve("charts"));
    results.targets.clear();
    results.targets.addAll(Targets.evaluate(results));
    results.measurementProblems.clear();
    results.measurementProblems.addAll(Targets.measurementProblems(results));
    Report report = new Report(results, peers, out);
    report.markdown();
    Files.writeString(out.resolve("summary.md"), report.md);
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    json.writeValue(out.resolve("results.json").toFile(), results);
  }

  private void markdown() throws IOException {
    Results.Meta meta = results.meta;
    md.append("# aerun benchmarks: ").append(meta.profile()).append(" profile\n\n");
    printf(
        "Run %s, %.0f s, on %d cores and %s of memory (%s). Server JVMs: Java %s, `%s`,"
            + " Jetty %s. Load from one separate JVM (Java %s) on 127.0.0.1.%n%n",
        meta.startedAt(),
        meta.durationSeconds(),
        meta.cores(),
        bytes(meta.memoryBytes()),
        meta.os(),
        meta.serverJavaVersion(),
        String.join(" ", meta.jvmFlags()),
        meta.jettyVersion(),
        meta.driverJavaVersion());
    md.append("Command: `").append(meta.command()).append("`\n\n").append(machineNote(meta));
    md.append("What each peer, figure and verdict means: docs/BENCHMARKS.md.\n\n");
    generator();
    steal();
    if (!results.measurementProblems.isEmpty()) {
      md.append("> **Measurement problems**: bare Jetty does the least work of the peers on the")
          .append(" same app, yet\n");
      results.measurementProblems.forEach(p -> md.append("> - ").append(p).append('\n'));
      md.append('\n');
    }
    if (quick) {
      md.append(
          "> The quick profile checks that everything runs and gives rough figures; compare"
              + " peers with the full profile.\n\n");
    }
    textTable("Targets", List.of("Target", "This run", "Verdict"), results.targets, Report::target);
    for (String ee : BenchOptions.EES) {
      echo(ee);
    }
    cpu();
    latency(5 * 1024);
    latency(1024 * 1024);
    capacity();
    coldStart();
    calibration();
    soak();
    List<String> columns = List.of("Peer", "EE", "Peak RSS", "Threads at the end", "Log");
    textTable("Server processes", columns, results.processes, this::process);
    columns = List.of("Peer", "EE", "Step", "What happened");
    textTable("Failures", columns, results.failures, Report::failure);
    if (!charts.isEmpty()) {
      md.append("## Charts\n\n");
      charts.forEach(c -> md.append("![").append(c).append("](charts/").append(c).append(")\n\n"));
    }
  }

  /** The load generator's cost and lag, at the top: they say how far the timings can be trusted. */
  private void generator() {
    Results.Generator g = results.generator;
    if (g == null) {
      return;
    }
    if (Targets.mostlyUnmeasurable(g.notMeasurablePhases(), g.fixedRatePhases())) {
      printf(
          "> **%d of the %d fixed-rate phases are not measurable on this machine** (generator lag"
              + " p99 over 10 %% of p99): their verdicts say so.%n%n",
          g.notMeasurablePhases(), g.fixedRatePhases());
    }
    md.append("Load generator: ").append(g.engine()).append(". ");
    if (!Double.isNaN(g.cpuMicrosPerRequestAtPeak())) {
      printf(
          "Its CPU per request at the servers' peak: %s, the servers' %s (%.2f×). ",
          micros(g.cpuMicrosPerRequestAtPeak()),
          micros(g.serverCpuMicrosPerRequestAtPeak()),
          g.cpuMicrosPerRequestAtPeak() / g.serverCpuMicrosPerRequestAtPeak());
    }
    if (g.fixedRatePhases() > 0) {
      printf(
          "Fixed-rate phases not measurable (lag p99 > 10 %% of p99): %d of %d. ",
          g.notMeasurablePhases(), g.fixedRatePhases());
    }
    md.append("Calibration: ").append(g.calibration()).append(".\n\n");
  }

  /**
   * The hypervisor's steal, at the top beside the generator's lag: a virtual machine's host can
   * take the CPU from server and generator alike, and the figures then measure the host.
   */
  private void steal() {
    Results.StealSummary s = results.steal;
    if (s == null) {
      return;
    }
    if (Double.isNaN(s.runPercent())) {
      md.append("Hypervisor steal: not known on this machine (no steal figure in /proc/stat).\n\n");
      return;
    }
    printf(
        "Hypervisor steal (/proc/stat): %s of the machine's CPU over the run. Phases over %s run"
            + " again (up to %d runs): %d of %d, after %.0f s in all waiting for bursts to pass.",
        Steal.percent(s.runPercent()),
        Steal.percent(s.maxPercent()),
        s.attempts(),
        s.rerun(),
        s.phases(),
        s.calmWaitSeconds());
    if (s.disturbed() > 0) {
      printf(
          "%n%n> **%d of the %d timed phases were still disturbed by the hypervisor** (up to %s"
              + " steal); the tables count them per peer.",
          s.disturbed(), s.phases(), Steal.percent(s.worstPercent()));
    }
    md.append("\n\n");
  }

  private static List<String> target(Results.TargetRow row) {
    String verdict =
        switch (row.verdict()) {
          case Targets.MISSED -> "**MISSED**";
          case Targets.WITHIN_NOISE -> "*within noise*";
          default -> row.verdict();
        };
    return List.of(row.target(), row.figure(), verdict);
  }

  private void echo(String ee) throws IOException {
    List<EchoRow> rows = results.echo.stream().filter(r -> r.ee().equals(ee)).toList();
    if (rows.isEmpty()) {
      return;
    }
    String name = ee.toUpperCase(Locale.ROOT);
    int jvms = rows.stream().mapToInt(EchoRow::round).max().orElse(1);
    md.append("## Echo: bytes allocated per request, whole server process (" + name + ")\n\n");
    if (jvms > 1) {
      printf("The median of the peer's server JVMs (up to %d; legacy mode's in one).%n%n", jvms);
    }
    // One row per server JVM a peer ran the echo in: the tables show their median.
    List<Row> allocated =
        echoRows(
            rows, (r, size) -> r.median(size, EchoRow::allocatedBytesPerRequest, Report::bytes));
    table("Size", allocated, true);
    if (jvms > 1) {
      md.append("Per server JVM (each the median of its windows), lowest to highest:\n\n");
      Function<Spread, String> each =
          s -> s.values().stream().sorted().map(Report::bytes).collect(Collectors.joining(", "));
      table(
          "Size",
          echoRows(rows, (r, size) -> r.add(size, EchoRow::allocatedBytesPerRequest, s -> s, each)),
          false);
    }
    md.append("## Echo: heap in use after a full GC inside the servlet (" + name + ")\n\n");
    List<Row> heap =
        echoRows(rows, (r, size) -> r.median(size, EchoRow::heapAfterGcBytes, Report::bytes));
    table("Size", heap, true);
    md.append("Of which held for the request (less the heap at rest):\n\n");
    ToDoubleFunction<EchoRow> held =
        e -> e.heapAtRestBytes() < 0 ? Double.NaN : e.heapAfterGcBytes() - e.heapAtRestBytes();
    table("Size", echoRows(rows, (r, size) -> r.median(size, held, Report::signedBytes)), false);
    String title = "Allocated per echo request, whole server (" + name + ")";
    chart(
        "echo-allocation-" + ee + ".svg", title, "bytes per request", allocated, 32, Report::bytes);
    title = "Heap after GC inside the servlet, mid-echo (" + name + ")";
    chart("echo-heap-" + ee + ".svg", title, "heap in use", heap, 0, Report::bytes);
  }

  /** One row per echo size: {@code add} over the rows of that size. */
  private List<Row> echoRows(
      List<EchoRow> rows, BiFunction<Rows<EchoRow>, String, Rows<EchoRow>> add) {
    List<Row> list = new ArrayList<>();
    for (long size : rows.stream().map(EchoRow::size).distinct().sorted().toList()) {
      List<EchoRow> sized = rows.stream().filter(r -> r.size() == size).toList();
      list.addAll(add.apply(new Rows<>(sized, EchoRow::peer), size(size)).list);
    }
    return list;
  }

  private void cpu() throws IOException {
    List<CpuRow> rows = results.cpu;
    if (rows.isEmpty()) {
      return;
    }
    double rate = rows.get(0).targetRate();
    printf("## CPU: 1 KiB request, 32 KiB response at %.0f/s%n%n", rate);
    printf("Median (min–max) of %d interleaved rounds.%n%n", rounds(rows, CpuRow::peer));
    Rows<CpuRow> spreads =
        new Rows<>(rows, CpuRow::peer)
            .spread("CPU per request", CpuRow::cpuMicrosPerRequest, US)
            .spread("CPU per request, without JIT", CpuRow::cpuMicrosPerRequestNetOfJit, US)
            .spread("CPU per request, net of idle", CpuRow::cpuMicrosPerRequestNetOfIdle, US)
            .spread(
                "Allocated per request", r -> r.allocatedBytesPerRequest() / 1024, f("%.2f KiB"));
    table("Figure", spreads.list, true);
    Rows<CpuRow> medians =
        new Rows<>(rows, CpuRow::peer)
            .median("Achieved rate (req/s)", CpuRow::achievedRate, WHOLE)
            .sum("Errors (all rounds)", CpuRow::errors)
            .median("Idle CPU (ms/s)", CpuRow::idleCpuMillisPerSecond, Report::tenths)
            .median("JIT compiler threads' CPU in the window (ms)", CpuRow::jitMillis, WHOLE)
            .median("GC pauses in the window (ms)", CpuRow::gcPauseMillis, WHOLE)
            .generator(CpuRow::lag, CpuRow::stealPercent);
    table("Figure (median of the rounds)", medians.list, false);
    chart(
        "cpu-per-request.svg",
        fmt("Server CPU per request (1 KiB in, 32 KiB out, %.0f/s)", rate),
        "CPU µs per request",
        List.of(spreads.list.get(0).named("gross"), spreads.list.get(1).named("without JIT")),
        0,
        Report::micros);
  }

  private void latency(long size) throws IOException {
    List<LatencyRow> rows = results.latency.stream().filter(r -> r.responseSize() == size).toList();
    if (rows.isEmpty()) {
      return;
    }
    double rate = rows.get(0).targetRate();
    String sized = size(size);
    printf("## Latency: %s responses at %.0f/s, open loop%n%n", sized, rate);
    printf("Median (min–max) of %d interleaved rounds.%n%n", rounds(rows, LatencyRow::peer));
    Rows<LatencyRow> percentiles =
        new Rows<>(rows, LatencyRow::peer)
            .spread("p50", r -> r.latencyMillis().p50(), MS)
            .spread("p90", r -> r.latencyMillis().p90(), MS)
            .spread("p99", r -> r.latencyMillis().p99(), MS)
            .spread("p99.9", r -> r.latencyMillis().p999(), MS)
            .spread("max", r -> r.latencyMillis().max(), f("%.1f ms"));
    table("Figure", percentiles.list, true);
    Rows<LatencyRow> medians =
        new Rows<>(rows, LatencyRow::peer)
            .median("Target rate (req/s)", LatencyRow::targetRate, WHOLE)
            .median("Achieved rate (req/s)", LatencyRow::achievedRate, WHOLE)
            .sum("Errors (all rounds)", LatencyRow::errors)
            .generator(LatencyRow::lag, LatencyRow::stealPercent);
    table("Figure (median of the rounds)", medians.list, false);
    chart(
        "latency-" + sized.replace(" ", "").toLowerCase(Locale.ROOT) + ".svg",
        fmt("Latency, %s responses at %.0f/s (open loop)", sized, rate),
        "milliseconds",
        percentiles.list,
        10,
        Report::millis);
  }

  private void capacity() throws IOException {
    List<CapacityRow> capacityRows = results.capacity;
    if (capacityRows.isEmpty()) {
      return;
    }
    double bound = capacityRows.get(0).p99BoundMillis();
    printf(
        "## Capacity: small responses (hello), peak and highest rate with p99 ≤ %.0f ms%n%n",
        bound);
    if (quick) {
      md.append("> Capacity and peak throughput: **not resolved in the quick profile**.\n\n");
    }
    // One row per round: (peer, round).
    List<Map.Entry<String, CapacityRound>> rounds =
        capacityRows.stream()
            .flatMap(r -> r.rounds().stream().map(round -> Map.entry(r.peer(), round)))
            .toList();
    Rows<Map.Entry<String, CapacityRound>> figures = new Rows<>(rounds, Map.Entry::getKey);
    if (!quick) {
      figures
          .spread("Capacity, p99 ≤ bound (req/s)", e -> e.getValue().capacityRate(), WHOLE)
          .spread("Peak, closed loop (req/s)", e -> e.getValue().peakRate(), WHOLE);
    }
    figures
        .spread(
            "Server CPU per request at the peak",
            e -> e.getValue().serverCpuMicrosPerRequestAtPeak(),
            US1)
        .spread(
            "Server CPU per request at the peak, without JIT",
            e -> e.getValue().serverCpuMicrosPerRequestAtPeakNetOfJit(),
            US1)
        .spread(
            "Server JIT threads' CPU in the peak run (ms)",
            e -> e.getValue().serverJitCpuMillisAtPeak(),
            WHOLE)
        .spread(
            "Generator CPU per request at the peak",
            e -> e.getValue().generatorCpuMicrosPerRequestAtPeak(),
            US1);
    table("Figure", figures.list, true);
    md.append(
        "| Peer | Round: peak (steal) → capacity; steps (rate: p99 / generator lag p99, steal,"
            + " pass) |\n|---|---|\n");
    for (Peer peer : peers) {
      for (CapacityRow row : capacityRows) {
        if (row.peer().equals(peer.id)) {
          String cells = row.rounds().stream().map(this::round).collect(Collectors.joining("<br>"));
          md.append("| ").append(peer.label).append(" | ").append(cells).append(" |\n");
        }
      }
    }
    md.append('\n');
    if (!quick) {
      chart(
          "capacity.svg",
          fmt("Peak and capacity with p99 ≤ %.0f ms (hello)", bound),
          "requests per second",
          List.of(figures.list.get(0).named("capacity"), figures.list.get(1).named("peak")),
          0,
          WHOLE);
    }
  }

  private String round(CapacityRound round) {
    String steal = tenths(round.peakStealPercent());
    if (quick) {
      return fmt("%d: not resolved (s %s)", round.round(), steal);
    }
    return fmt(
            "%d: %.0f (s %s) → %.0f; ",
            round.round(), round.peakRate(), steal, round.capacityRate())
        + round.steps().stream()
            .map(
                s ->
                    fmt(
                        "%.0f: %.2f / %.2f ms, s %s%s %s",
                        s.targetRate(),
                        s.p99Millis(),
                        s.lagP99Millis(),
                        tenths(s.stealPercent()),
                        s.attempts() > 1 ? " ×" + s.attempts() : "",
                        s.passed() ? "✓" : "✗"))
            .collect(Collectors.joining(", "));
  }

  private void coldStart() throws IOException {
    List<ColdStartRow> rows = results.coldStart;
    if (rows.isEmpty()) {
      return;
    }
    md.append("## Cold start: hello app (EE10)\n\n");
    printf("Median of %d starts.%n%n", rows.get(0).startMillis().size());
    Rows<ColdStartRow> figures =
        new Rows<>(rows, ColdStartRow::peer)
            .median("Start to first 200", ColdStartRow::medianStartMillis, f("%.0f ms"))
            .median("RSS after the first request", ColdStartRow::medianRssBytes, Report::bytes)
            .median(
                "Highest steal in a start",
                r -> r.stealPercent().stream().mapToDouble(d -> d).max().orElse(Double.NaN),
                Steal::percent);
    table("Figure", figures.list, true);
    chart(
        "cold-start.svg",
        "Cold start: process start to first 200 (hello, EE10)",
        "milliseconds",
        List.of(figures.list.get(0).named("start to first 200")),
        0,
        f("%.0f ms"));
  }

  /** The runs of other load generators: {@code --calibrate}'s and {@code --h2c-peak}'s. */
  private void calibration() {
    if (!results.calibration.isEmpty()) {
      md.append("## Calibration: the built-in load generator against wrk\n\n");
      generators(results.calibration, List.of("built-in", "wrk"));
      md.append("Verdict: **").append(results.generator.calibration()).append("**.\n\n");
    }
    if (!results.h2cPeak.isEmpty()) {
      md.append("## HTTP/2 cleartext: peak throughput of small GETs (EE10)\n\n");
      printf(
          "%d s per run.%n%n",
          (quick ? Profile.quick() : Profile.full()).capacity().peakTime().toSeconds());
      generators(results.h2cPeak, List.of(TimingScenarios.H2C, TimingScenarios.HTTP1));
    }
  }

  /** Per peer, a table of {@code generators}' runs: the peak and both ends' CPU per request. */
  private void generators(List<CalibrationRow> rows, List<String> generators) {
    List<String[]> columns = generators.stream().map(g -> new String[] {g, g}).toList();
    for (Peer peer : peers) {
      List<CalibrationRow> own = rows.stream().filter(r -> r.peer().equals(peer.id)).toList();
      if (!own.isEmpty()) {
        Rows<CalibrationRow> figures =
            new Rows<>(own, CalibrationRow::generator)
                .spread("Peak (req/s)", CalibrationRow::rate, WHOLE)
                .spread(
                    "Generator CPU per request (µs)",
                    CalibrationRow::generatorCpuMicrosPerRequest,
                    f("%.1f"))
                .spread(
                    "Server CPU per request (µs)",
                    CalibrationRow::serverCpuMicrosPerRequest,
                    f("%.1f"));
        table(peer.label, figures.list, columns, false);
      }
    }
  }

  private void soak() {
    List<SoakRow> rows = results.soak;
    if (rows.isEmpty()) {
      return;
    }
    md.append("## Soak: hello at a steady rate\n\n");
    printf(
        "`GET /hello` at %.0f/s for %.1f minutes, %d intervals; flat: within %s or 10 %%, %d"
            + " threads, %d descriptors.%n%n",
        rows.get(0).rate(),
        rows.get(0).minutes(),
        rows.get(0).samples().size() - 1,
        bytes(SoakScenario.HEAP_TOLERANCE_BYTES),
        SoakScenario.THREAD_TOLERANCE,
        SoakScenario.FD_TOLERANCE);
    Function<ToDoubleFunction<SoakSample>, ToDoubleFunction<SoakRow>> growth =
        figure -> r -> SoakScenario.growth(r.samples(), figure);
    Rows<SoakRow> figures =
        new Rows<>(rows, SoakRow::peer)
            .median("Requests", SoakRow::sent, WHOLE)
            .median("Not 200", SoakRow::failed, WHOLE)
            .median("Latency p50", SoakRow::p50Millis, Report::millis)
            .median("Latency p99", SoakRow::p99Millis, Report::millis)
            .median("Heap after GC, first sample", r -> heap(r, 0), Report::bytes)
            .median(
                "Heap after GC, last sample", r -> heap(r, r.samples().size() - 1), Report::bytes)
            .median(
                "Heap after GC, growth (last third − first)",
                growth.apply(SoakSample::heapAfterGcBytes),
                v -> (v < 0 ? "" : "+") + signedBytes(v))
            .median("Heap slope (KiB/min)", r -> r.heapSlopeBytesPerMinute() / 1024, SLOPE)
            .median("Threads, growth", growth.apply(SoakSample::threads), CHANGE)
            .median("Thread slope (per min)", SoakRow::threadSlopePerMinute, SLOPE)
            .median("Descriptors, growth", growth.apply(SoakSample::fds), CHANGE)
            .median("Descriptor slope (per min)", SoakRow::fdSlopePerMinute, SLOPE);
    table("Figure", figures.list, false);
  }

  private static double heap(SoakRow row, int sample) {
    return row.samples().get(sample).heapAfterGcBytes();
  }

  private List<String> process(Results.ProcessRow row) {
    String peer = peers.stream().filter(p -> p.id.equals(row.peer())).findFirst().get().label;
    String ee = row.ee().toUpperCase(Locale.ROOT);
    return List.of(peer, ee, bytes(row.peakRssBytes()), "" + row.threads(), row.log());
  }

  private static List<String> failure(Results.Failure failure) {
    String message = failure.message().lines().findFirst().orElse("").replace("|", "\\|");
    return List.of(failure.peer(), failure.ee(), failure.scenario(), message);
  }

  /** A section of one table of text cells under {@code columns}; nothing without rows. */
  private <T> void textTable(
      String title, List<String> columns, List<T> rows, Function<T, List<String>> cells) {
    if (rows.isEmpty()) {
      return;
    }
    md.append("## ").append(title).append("\n\n| ").append(String.join(" | ", columns));
    md.append(" |\n|").append("---|".repeat(columns.size())).append('\n');
    rows.forEach(r -> md.append("| ").append(String.join(" | ", cells.apply(r))).append(" |\n"));
    md.append('\n');
  }

  // ---- Tables and charts ----------------------------------------------------------------------

  /** How many rounds each peer ran, from the rows' peers. */
  private static <T> int rounds(List<T> rows, Function<T, String> peer) {
    long peers = rows.stream().map(peer).distinct().count();
    return peers == 0 ? 0 : Math.max(1, rows.size() / (int) peers);
  }

  /** The ratio columns of the peers that ran: {numerator, denominator, title}. */
  private List<String[]> ratioColumns() {
    List<String[]> columns = new ArrayList<>();
    columns.add(new String[] {"http", "bare", "HttpConnector / bare"});
    columns.add(new String[] {"legacy", "http", "legacy / HttpConnector"});
    columns.add(new String[] {"legacy-tcp", "http", "legacy (tcp) / HttpConnector"});
    for (Peer peer : peers) {
      if (peer.isCustom()) {
        columns.add(new String[] {peer.id, "bare", peer.label + " / bare"});
      }
    }
    columns.removeIf(c -> !has(c[0]) || !has(c[1]));
    return columns;
  }

  private boolean has(String peer) {
    return peers.stream().anyMatch(p -> p.id.equals(peer));
  }

  /**
   * A table: one row per figure, one column per peer (each cell the median and, with several
   * measurements, the spread), then with {@code ratios} the ratios of the medians, marked ≈ where
   * two spreads overlap (within noise).
   */
  private void table(String first, List<Row> rows, boolean ratios) {
    table(first, rows, peers.stream().map(p -> new String[] {p.id, p.label}).toList(), ratios);
  }

  /** A table of {@code columns} ({id, title}), with {@code ratios} the ratio columns. */
  private void table(String first, List<Row> rows, List<String[]> columns, boolean ratios) {
    List<String[]> quotients = ratios ? ratioColumns() : List.of();
    md.append("| ").append(first);
    columns.forEach(c -> md.append(" | ").append(c[1]));
    quotients.forEach(r -> md.append(" | ").append(r[2]));
    md.append(" |\n|---").append("|---:".repeat(columns.size() + quotients.size())).append("|\n");
    for (Row row : rows) {
      md.append("| ").append(row.name());
      for (String[] column : columns) {
        Spread v = row.byPeer().get(column[0]);
        md.append(" | ").append(v == null ? "–" : row.cell().apply(v));
      }
      for (String[] ratio : quotients) {
        md.append(" | ").append(ratio(row.byPeer().get(ratio[0]), row.byPeer().get(ratio[1])));
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private static String ratio(Spread a, Spread b) {
    if (a == null || b == null || !a.known() || !b.known() || b.median() == 0) {
      return "–";
    }
    double r = a.median() / b.median();
    String text = fmt(r >= 100 ? "%.0f×" : r >= 10 ? "%.1f×" : "%.2f×", r);
    boolean spreads = a.values().size() > 1 && b.values().size() > 1;
    return spreads && Targets.overlap(a, b) ? "≈ " + text : text;
  }

  /**
   * A grouped bar chart as self-contained SVG (no plotting library: a file any browser or Markdown
   * viewer shows): one group per row, one bar per peer (its median) labelled with {@code format}, a
   * legend, and a logarithmic axis ticking at powers of {@code logBase} (for figures that span
   * orders of magnitude: 10, or 32 for bytes: 1 KiB, 32 KiB, 1 MiB…), or 0: a linear axis.
   */
  private void chart(
      String file,
      String title,
      String axis,
      List<Row> groups,
      double logBase,
      DoubleFunction<String> format)
      throws IOException {
    double[][] values = new double[peers.size()][];
    String[] colors = new String[peers.size()];
    for (int s = 0, custom = 0; s < peers.size(); s++) {
      String peer = peers.get(s).id;
      values[s] =
          groups.stream()
              .mapToDouble(g -> g.byPeer().getOrDefault(peer, Spread.NONE).median())
              .toArray();
      colors[s] =
          COLORS.containsKey(peer)
              ? COLORS.get(peer)
              : MORE_COLORS.get(custom++ % MORE_COLORS.size());
    }
    double[] measured =
        Arrays.stream(values).flatMapToDouble(Arrays::stream).filter(v -> v > 0).toArray();
    double max = Arrays.stream(measured).max().orElse(1);
    double min = Arrays.stream(measured).min().orElse(1);
    boolean log = logBase > 0;
    double ln = Math.log(logBase);
    double lo = log ? Math.pow(logBase, Math.floor(Math.log(min) / ln)) : 0;
    double hi =
        log
            ? Math.max(Math.pow(logBase, Math.ceil(Math.log(max * 1.01) / ln)), lo * logBase)
            : niceCeiling(max * 1.1);
    DoubleUnaryOperator y =
        v -> {
          double f = log ? Math.log(Math.max(v, lo) / lo) / Math.log(hi / lo) : v / hi;
          return BOTTOM - (BOTTOM - TOP) * Math.max(0, Math.min(1, f));
        };
    StringBuilder svg = new StringBuilder();
    svg.append(
        fmt(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                + " %d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n",
            WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(text(LEFT, 24, "start", "font-size=\"16\" font-weight=\"bold\"", title));
    double step = niceCeiling(hi / 5);
    for (double tick = lo; tick <= hi * 1.0001; tick = log ? tick * logBase : tick + step) {
      double ty = y.applyAsDouble(tick);
      svg.append(line(fmt("%.1f", ty), "#e0e0e0"));
      svg.append(text(LEFT - 6, ty + 4, "end", "fill=\"#555\"", format.apply(tick)));
    }
    svg.append(line("" + BOTTOM, "#333"));
    int middle = (TOP + BOTTOM) / 2;
    svg.append(
        fmt(
            "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\""
                + " fill=\"#333\">%s%s</text>%n",
            middle, middle, escape(axis), log ? " (log scale)" : ""));
    double groupWidth = (WIDTH - LEFT - RIGHT) / (double) Math.max(1, groups.size());
    double barWidth = Math.min(60, groupWidth * 0.8 / Math.max(1, peers.size()));
    for (int g = 0; g < groups.size(); g++) {
      double groupX = LEFT + g * groupWidth;
      for (int s = 0; s < peers.size(); s++) {
        double v = values[s][g];
        double x = groupX + (groupWidth - barWidth * peers.size()) / 2 + (s + 0.5) * barWidth;
        if (Double.isNaN(v)) {
          svg.append(text(x, BOTTOM - 4, "middle", "fill=\"#999\"", "n/a"));
          continue;
        }
        double top = y.applyAsDouble(v);
        svg.append(
            fmt(
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                    + "<title>%s: %s</title></rect>%n",
                x - barWidth / 2 + 1,
                top,
                barWidth - 2,
                Math.max(0.5, BOTTOM - top),
                colors[s],
                escape(peers.get(s).label),
                escape(format.apply(v))));
        svg.append(text(x, top - 4, "middle", "font-size=\"10\" fill=\"#222\"", format.apply(v)));
      }
      String name = groups.get(g).name();
      svg.append(text(groupX + groupWidth / 2, BOTTOM + 18, "middle", "fill=\"#222\"", name));
    }
    double legendX = LEFT;
    for (int s = 0; s < peers.size(); s++) {
      svg.append(
          fmt(
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
              legendX, HEIGHT - 32.0, colors[s]));
      String name = peers.get(s).label;
      svg.append(text(legendX + 16, HEIGHT - 22, "start", "fill=\"#222\"", name));
      legendX += 24 + 7.5 * name.length();
    }
    Files.writeString(chartDir.resolve(file), svg.append("</svg>\n"));
    charts.add(file);
  }

  /** The smallest 1, 2, 2.5 or 5 times a power of ten at or above {@code v}. */
  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 2.5, 5}) {
      if (m * power >= v * 0.9999) {
        return m * power;
      }
    }
    return 10 * power;
  }

  /** A horizontal line across the plot at {@code y}. */
  private static String line(String y, String color) {
    return fmt(
        "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"%s\"/>%n",
        LEFT, y, WIDTH - RIGHT, y, color);
  }

  private static String text(double x, double y, String anchor, String attributes, String value) {
    return fmt(
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" %s>%s</text>%n",
        x, y, anchor, attributes, escape(value));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  // ---- Formats --------------------------------------------------------------------------------

  /** Appends {@code format} with {@code args}, formatted as every number of the report. */
  private void printf(String format, Object... args) {
    md.append(fmt(format, args));
  }

  /** {@code format} with {@code args}, as every number of the report (a dot for decimals). */
  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static DoubleFunction<String> f(String format) {
    return v -> fmt(format, v);
  }

  /** Bytes in B, KiB, MiB or GiB. */
  static String bytes(double b) {
    if (Double.isNaN(b) || b < 0) {
      return "–";
    }
    if (b >= 1024 && b == Math.rint(b) && Long.bitCount((long) b) == 1) {
      return size((long) b); // an axis tick: 1 KiB, 32 KiB, 1 MiB
    }
    int unit = b < 1 << 10 ? 0 : b < 1 << 20 ? 1 : b < 1 << 30 ? 2 : 3;
    double v = b / Math.pow(1024, unit);
    String format = unit == 0 ? "%.0f" : v < 10 || unit == 3 ? "%.2f" : "%.1f";
    return fmt(format + List.of(" B", " KiB", " MiB", " GiB").get(unit), v);
  }

  static String signedBytes(double b) {
    return Double.isNaN(b) ? "–" : (b < 0 ? "−" : "") + bytes(Math.abs(b));
  }

  /** A body size: {@code 32 KiB}, {@code 1 MiB}. */
  static String size(long bytes) {
    return bytes % (1 << 20) == 0
        ? (bytes >> 20) + " MiB"
        : bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
  }

  static String micros(double v) {
    return fmt(v >= 100 ? "%.0f µs" : "%.1f µs", v);
  }

  static String millis(double v) {
    return fmt(v >= 100 ? "%.0f ms" : v >= 1 ? "%.2f ms" : "%.3f ms", v);
  }

  private static String tenths(double v) {
    return Double.isNaN(v) ? "?" : fmt("%.1f", v);
  }

  /**
   * What else used the machine during the run, and whether that makes the timing figures
   * unreliable: other processes' share of the machine's CPU over 10 % where it is known; otherwise
   * the load average before the run over half the cores (the one after it counts the run's own
   * processes).
   */
  static String machineNote(Results.Meta meta) {
    double others = meta.otherCpuPercent();
    boolean known = !Double.isNaN(others);
    String note =
        (known
                ? fmt("other processes used %.1f %% of the machine's CPU during the run; ", others)
                : "")
            + fmt(
                "load average %.2f before the run and %.2f after it on %d cores, the latter"
                    + " counting the run's own processes",
                meta.loadAverageBefore(), meta.loadAverageAfter(), meta.cores());
    if (known ? others > 10 : meta.loadAverageBefore() > meta.cores() * 0.5) {
      return "> **The machine was busy**: "
          + note
          + ". Timing figures (CPU, latency, capacity, cold start) are unreliable; allocation and"
          + " heap figures are not affected.\n\n";
    }
    return "Other load: " + note + ".\n\n";
  }
}
