package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
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
  private static final DoubleFunction<String> US = f("%.0f µs");
  private static final DoubleFunction<String> US1 = f("%.1f µs");
  private static final DoubleFunction<String> MS = f("%.2f ms");
  private static final DoubleFunction<String> WHOLE = f("%.0f");
  private static final DoubleFunction<String> SLOPE = f("%+.3f");
  private static final DoubleFunction<String> CHANGE = f("%+.0f");

  /**
   * A table row: one figure of each peer (a median and its spread), written with {@code format}.
   */
  private record Row(String name, Map<String, Spread> byPeer, DoubleFunction<String> format) {}

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
      list.add(new Row(name, Stats.byPeer(rows, peer, figure), format));
      return this;
    }

    /** Each peer's median over its rows, as one value. */
    Rows<T> median(String name, ToDoubleFunction<T> figure, DoubleFunction<String> format) {
      return reduced(name, figure, format, Spread::median);
    }

    /** Each peer's sum over its rows. */
    Rows<T> sum(String name, ToDoubleFunction<T> figure) {
      return reduced(name, figure, WHOLE, s -> s.values().stream().mapToDouble(d -> d).sum());
    }

    /** Each peer's rows reduced to one value. */
    private Rows<T> reduced(
        String name,
        ToDoubleFunction<T> figure,
        DoubleFunction<String> format,
        ToDoubleFunction<Spread> reduce) {
      Map<String, Spread> values = new LinkedHashMap<>();
      Stats.byPeer(rows, peer, figure)
          .forEach((p, s) -> values.put(p, Spread.of(reduce.applyAsDouble(s))));
      list.add(new Row(name, values, format));
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

  private <T> Rows<T> rows(List<T> rows, Function<T, String> peer) {
    return new Rows<>(rows, peer);
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
    targets();
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
    processes();
    failures();
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
    if (Verdicts.mostlyUnmeasurable(g.notMeasurablePhases(), g.fixedRatePhases())) {
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

  private void targets() {
    List<List<String>> rows = new ArrayList<>();
    for (Results.TargetRow row : results.targets) {
      String verdict =
          switch (row.verdict()) {
            case Verdicts.MISSED -> "**MISSED**";
            case Verdicts.WITHIN_NOISE -> "*within noise*";
            default -> row.verdict();
          };
      rows.add(List.of(row.target(), row.figure(), verdict));
    }
    textTable("Targets", List.of("Target", "This run", "Verdict"), rows);
  }

  private void echo(String ee) throws IOException {
    List<EchoRow> rows = results.echo.stream().filter(r -> r.ee().equals(ee)).toList();
    if (rows.isEmpty()) {
      return;
    }
    List<Long> sizes = new ArrayList<>(new TreeSet<>(rows.stream().map(EchoRow::size).toList()));
    String name = ee.toUpperCase(Locale.ROOT);
    int jvms = rows.stream().mapToInt(EchoRow::round).max().orElse(1);
    md.append("## Echo: bytes allocated per request, whole server process (" + name + ")\n\n");
    if (jvms > 1) {
      printf("The median of the peer's server JVMs (up to %d; legacy mode's in one).%n%n", jvms);
    }
    // One row per server JVM a peer ran the echo in: the tables show their median.
    List<Row> allocated = echoRows(rows, sizes, EchoRow::allocatedBytesPerRequest, Report::bytes);
    table("Size", allocated, true);
    if (jvms > 1) {
      md.append("Per server JVM (each the median of its windows), lowest to highest:\n\n");
      header("Size", peerColumns(), List.of());
      for (long size : sizes) {
        md.append("| ").append(size(size));
        for (Peer peer : peers) {
          String each =
              rows.stream()
                  .filter(r -> r.size() == size && r.peer().equals(peer.id))
                  .mapToDouble(EchoRow::allocatedBytesPerRequest)
                  .sorted()
                  .mapToObj(Report::bytes)
                  .collect(Collectors.joining(", "));
          md.append(" | ").append(each.isEmpty() ? "–" : each);
        }
        md.append(" |\n");
      }
      md.append('\n');
    }
    md.append("## Echo: heap in use after a full GC inside the servlet (" + name + ")\n\n");
    List<Row> heap = echoRows(rows, sizes, EchoRow::heapAfterGcBytes, Report::bytes);
    table("Size", heap, true);
    md.append("Of which held for the request (less the heap at rest):\n\n");
    ToDoubleFunction<EchoRow> held =
        e -> e.heapAtRestBytes() < 0 ? Double.NaN : e.heapAfterGcBytes() - e.heapAtRestBytes();
    table("Size", echoRows(rows, sizes, held, Report::signedBytes), false);
    String allocationTitle = "Allocated per echo request, whole server (" + name + ")";
    chart(
        "echo-allocation-" + ee + ".svg",
        allocationTitle,
        "bytes per request",
        allocated,
        true,
        Report::bytes);
    String heapTitle = "Heap after GC inside the servlet, mid-echo (" + name + ")";
    chart("echo-heap-" + ee + ".svg", heapTitle, "heap in use", heap, false, Report::bytes);
  }

  /** One row per echo size: each peer's median over its server JVMs of {@code figure}. */
  private List<Row> echoRows(
      List<EchoRow> rows,
      List<Long> sizes,
      ToDoubleFunction<EchoRow> figure,
      DoubleFunction<String> format) {
    List<Row> list = new ArrayList<>();
    for (long size : sizes) {
      List<EchoRow> sized = rows.stream().filter(r -> r.size() == size).toList();
      list.addAll(rows(sized, EchoRow::peer).median(size(size), figure, format).list);
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
        rows(rows, CpuRow::peer)
            .spread("CPU per request", CpuRow::cpuMicrosPerRequest, US)
            .spread("CPU per request, without JIT", CpuRow::cpuMicrosPerRequestNetOfJit, US)
            .spread("CPU per request, net of idle", CpuRow::cpuMicrosPerRequestNetOfIdle, US)
            .spread(
                "Allocated per request", r -> r.allocatedBytesPerRequest() / 1024, f("%.2f KiB"));
    table("Figure", spreads.list, true);
    Rows<CpuRow> medians =
        rows(rows, CpuRow::peer)
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
        List.of(renamed(spreads.list.get(0), "gross"), renamed(spreads.list.get(1), "without JIT")),
        false,
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
        rows(rows, LatencyRow::peer)
            .spread("p50", r -> r.latencyMillis().p50(), MS)
            .spread("p90", r -> r.latencyMillis().p90(), MS)
            .spread("p99", r -> r.latencyMillis().p99(), MS)
            .spread("p99.9", r -> r.latencyMillis().p999(), MS)
            .spread("max", r -> r.latencyMillis().max(), f("%.1f ms"));
    table("Figure", percentiles.list, true);
    Rows<LatencyRow> medians =
        rows(rows, LatencyRow::peer)
            .median("Target rate (req/s)", LatencyRow::targetRate, WHOLE)
            .median("Achieved rate (req/s)", LatencyRow::achievedRate, WHOLE)
            .sum("Errors (all rounds)", LatencyRow::errors)
            .generator(LatencyRow::lag, LatencyRow::stealPercent);
    table("Figure (median of the rounds)", medians.list, false);
    chart(
        "latency-" + (size == 1024 * 1024 ? "1mib" : (size / 1024) + "kib") + ".svg",
        fmt("Latency, %s responses at %.0f/s (open loop)", sized, rate),
        "milliseconds",
        percentiles.list,
        true,
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
    Rows<Map.Entry<String, CapacityRound>> figures = rows(rounds, Map.Entry::getKey);
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
          List.of(renamed(figures.list.get(0), "capacity"), renamed(figures.list.get(1), "peak")),
          false,
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
        rows(rows, ColdStartRow::peer)
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
        List.of(renamed(figures.list.get(0), "start to first 200")),
        false,
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
          "%d s per run.%n%n", (quick ? Profile.quick() : Profile.full()).peakTime().toSeconds());
      generators(results.h2cPeak, List.of(Calibration.H2C, Calibration.HTTP1));
    }
  }

  /** Per peer, a table of {@code generators}' runs: the peak and both ends' CPU per request. */
  private void generators(List<Results.CalibrationRow> rows, List<String> generators) {
    List<String[]> columns = generators.stream().map(g -> new String[] {g, g}).toList();
    for (Peer peer : peers) {
      List<Results.CalibrationRow> own =
          rows.stream().filter(r -> r.peer().equals(peer.id)).toList();
      if (!own.isEmpty()) {
        Rows<Results.CalibrationRow> figures =
            rows(own, Results.CalibrationRow::generator)
                .spread("Peak (req/s)", Results.CalibrationRow::rate, WHOLE)
                .spread(
                    "Generator CPU per request (µs)",
                    Results.CalibrationRow::generatorCpuMicrosPerRequest,
                    f("%.1f"))
                .spread(
                    "Server CPU per request (µs)",
                    Results.CalibrationRow::serverCpuMicrosPerRequest,
                    f("%.1f"));
        table(peer.label, figures.list, columns, List.of());
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
    ToDoubleFunction<SoakRow> heapGrowth =
        r -> SoakScenario.growth(r.samples(), SoakSample::heapAfterGcBytes);
    Rows<SoakRow> figures =
        rows(rows, SoakRow::peer)
            .median("Requests", SoakRow::sent, WHOLE)
            .median("Not 200", SoakRow::failed, WHOLE)
            .median("Latency p50", SoakRow::p50Millis, Report::millis)
            .median("Latency p99", SoakRow::p99Millis, Report::millis)
            .median(
                "Heap after GC, first sample", r -> sample(r, 0).heapAfterGcBytes(), Report::bytes)
            .median(
                "Heap after GC, last sample", r -> sample(r, -1).heapAfterGcBytes(), Report::bytes)
            .median(
                "Heap after GC, growth (last third − first)",
                heapGrowth,
                v -> (v < 0 ? "" : "+") + signedBytes(v))
            .median("Heap slope (KiB/min)", r -> r.heapSlopeBytesPerMinute() / 1024, SLOPE)
            .median(
                "Threads, growth",
                r -> SoakScenario.growth(r.samples(), SoakSample::threads),
                CHANGE)
            .median("Thread slope (per min)", SoakRow::threadSlopePerMinute, SLOPE)
            .median(
                "Descriptors, growth",
                r -> SoakScenario.growth(r.samples(), SoakSample::fds),
                CHANGE)
            .median("Descriptor slope (per min)", SoakRow::fdSlopePerMinute, SLOPE);
    table("Figure", figures.list, false);
  }

  /** The soak's sample {@code i}, from the end when negative. */
  private static SoakSample sample(SoakRow row, int i) {
    return row.samples().get(i < 0 ? row.samples().size() + i : i);
  }

  private void processes() {
    List<List<String>> rows = new ArrayList<>();
    for (Results.ProcessRow row : results.processes) {
      rows.add(
          List.of(
              peers.stream().filter(p -> p.id.equals(row.peer())).findFirst().get().label,
              row.ee().toUpperCase(Locale.ROOT),
              bytes(row.peakRssBytes()),
              Integer.toString(row.threads()),
              row.log()));
    }
    List<String> columns = List.of("Peer", "EE", "Peak RSS", "Threads at the end", "Log");
    textTable("Server processes", columns, rows);
  }

  private void failures() {
    List<List<String>> rows = new ArrayList<>();
    for (Results.Failure failure : results.failures) {
      String message = failure.message().lines().findFirst().orElse("").replace("|", "\\|");
      rows.add(List.of(failure.peer(), failure.ee(), failure.scenario(), message));
    }
    textTable("Failures", List.of("Peer", "EE", "Step", "What happened"), rows);
  }

  /** A section of one table of text cells under {@code columns}; nothing without rows. */
  private void textTable(String title, List<String> columns, List<List<String>> rows) {
    if (rows.isEmpty()) {
      return;
    }
    md.append("## ").append(title).append("\n\n| ").append(String.join(" | ", columns));
    md.append(" |\n|").append("---|".repeat(columns.size())).append('\n');
    rows.forEach(row -> md.append("| ").append(String.join(" | ", row)).append(" |\n"));
    md.append('\n');
  }

  // ---- Tables and charts ----------------------------------------------------------------------

  /** How many rounds each peer ran, from the rows' peers. */
  private static <T> int rounds(List<T> rows, Function<T, String> peer) {
    long peers = rows.stream().map(peer).distinct().count();
    return peers == 0 ? 0 : Math.max(1, rows.size() / (int) peers);
  }

  /** The ratio columns: {numerator, denominator, title}. */
  private List<String[]> ratioColumns() {
    List<String[]> columns = new ArrayList<>();
    for (String[] c :
        List.of(
            new String[] {"http", "bare", "HttpConnector / bare"},
            new String[] {"legacy", "http", "legacy / HttpConnector"},
            new String[] {"legacy-tcp", "http", "legacy (tcp) / HttpConnector"})) {
      if (has(c[0]) && has(c[1])) {
        columns.add(c);
      }
    }
    for (Peer peer : peers) {
      if (peer.isCustom() && has("bare")) {
        columns.add(new String[] {peer.id, "bare", peer.label + " / bare"});
      }
    }
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
    table(first, rows, peerColumns(), ratios ? ratioColumns() : List.of());
  }

  /**
   * A table of {@code columns} ({id, title}) and {@code ratios} ({numerator, denominator, title}).
   */
  private void table(String first, List<Row> rows, List<String[]> columns, List<String[]> ratios) {
    header(first, columns, ratios);
    for (Row row : rows) {
      md.append("| ").append(row.name());
      for (String[] column : columns) {
        Spread v = row.byPeer().get(column[0]);
        md.append(" | ").append(v == null ? "–" : v.format(row.format()));
      }
      for (String[] ratio : ratios) {
        md.append(" | ").append(ratio(row.byPeer().get(ratio[0]), row.byPeer().get(ratio[1])));
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private List<String[]> peerColumns() {
    return peers.stream().map(p -> new String[] {p.id, p.label}).toList();
  }

  /** A table's header: {@code first}, the columns, then the ratio columns. */
  private void header(String first, List<String[]> columns, List<String[]> ratios) {
    md.append("| ").append(first);
    columns.forEach(c -> md.append(" | ").append(c[1]));
    ratios.forEach(r -> md.append(" | ").append(r[2]));
    md.append(" |\n|---").append("|---:".repeat(columns.size() + ratios.size())).append("|\n");
  }

  private static String ratio(Spread a, Spread b) {
    if (a == null || b == null || !a.known() || !b.known() || b.median() == 0) {
      return "–";
    }
    double r = a.median() / b.median();
    String text = fmt(r >= 100 ? "%.0f×" : r >= 10 ? "%.1f×" : "%.2f×", r);
    boolean spreads = a.values().size() > 1 && b.values().size() > 1;
    return spreads && Verdicts.overlap(a, b) ? "≈ " + text : text;
  }

  private static Row renamed(Row row, String name) {
    return new Row(name, row.byPeer(), row.format());
  }

  /**
   * A grouped bar chart: one group per row, one bar per peer (its median), labelled with {@code
   * format}. Byte axes tick at 1 KiB, 32 KiB, 1 MiB…; the others at powers of ten.
   */
  private void chart(
      String file,
      String title,
      String axis,
      List<Row> groups,
      boolean log,
      DoubleFunction<String> format)
      throws IOException {
    List<Charts.Series> series = new ArrayList<>();
    int custom = 0;
    for (Peer peer : peers) {
      String color = COLORS.get(peer.id);
      if (color == null) {
        color = MORE_COLORS.get(custom++ % MORE_COLORS.size());
      }
      double[] values =
          groups.stream()
              .mapToDouble(g -> g.byPeer().getOrDefault(peer.id, Spread.NONE).median())
              .toArray();
      series.add(new Charts.Series(peer.label, color, values));
    }
    double logBase = axis.contains("bytes") || axis.contains("heap") ? 32 : 10;
    List<String> names = groups.stream().map(Row::name).toList();
    Charts.groupedBars(chartDir.resolve(file), title, axis, names, series, log, logBase, format);
    charts.add(file);
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
    if (b < 1024) {
      return fmt("%.0f B", b);
    }
    double v = b / 1024;
    for (String unit : List.of(" KiB", " MiB")) {
      if (v < 1024) {
        return fmt((v < 10 ? "%.2f" : "%.1f") + unit, v);
      }
      v /= 1024;
    }
    return fmt("%.2f GiB", v);
  }

  /** Bytes with their sign. */
  static String signedBytes(double b) {
    return Double.isNaN(b) ? "–" : (b < 0 ? "−" : "") + bytes(Math.abs(b));
  }

  /** A body size: {@code 32 KiB}, {@code 1 MiB}. */
  static String size(long bytes) {
    if (bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + " MiB";
    }
    return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
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
    String loads =
        fmt(
            "load average %.2f before the run and %.2f after it on %d cores, the latter counting"
                + " the run's own processes",
            meta.loadAverageBefore(), meta.loadAverageAfter(), meta.cores());
    boolean busy =
        Double.isNaN(others) ? meta.loadAverageBefore() > meta.cores() * 0.5 : others > 10;
    String share =
        Double.isNaN(others)
            ? ""
            : fmt("other processes used %.1f %% of the machine's CPU during the run; ", others);
    if (busy) {
      return "> **The machine was busy**: "
          + share
          + loads
          + ". Timing figures (CPU, latency, capacity, cold start) are unreliable; allocation and"
          + " heap figures are not affected.\n\n";
    }
    return "Other load: " + share + loads + ".\n\n";
  }
}
