package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.aerun.bench.Results.ColdStartRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.TargetRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The report of a run, in its results folder: {@code results.json} (every figure), {@code
 * summary.md} (one table per scenario, with the ratios HttpConnector / bare and legacy /
 * HttpConnector, and the project's targets met, missed or within noise) and {@code charts/*.svg}.
 */
final class Report {
  private final Results results;
  private final StringBuilder md = new StringBuilder();
  private final ReportTables t;

  private Report(Results results, List<Peer> peers, Path out) {
    this.results = results;
    this.t = new ReportTables(md, peers, out.resolve("charts"));
  }

  static void write(Results results, BenchOptions options, Path out) throws IOException {
    Files.createDirectories(out.resolve("charts"));
    Report report = new Report(results, options.peers(), out);
    results.targets.clear();
    results.targets.addAll(Targets.evaluate(results));
    results.measurementProblems.clear();
    results.measurementProblems.addAll(Targets.measurementProblems(results));
    report.markdown(options);
    Files.writeString(out.resolve("summary.md"), report.md);
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    json.writeValue(out.resolve("results.json").toFile(), results);
  }

  // ---- Markdown -------------------------------------------------------------------------------

  private void markdown(BenchOptions options) throws IOException {
    Results.Meta meta = results.meta;
    md.append("# aerun benchmarks: ").append(meta.profile()).append(" profile\n\n");
    md.append(
        String.format(
            Locale.ROOT,
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
            meta.driverJavaVersion()));
    md.append("Command: `").append(meta.command()).append("`\n\n");
    md.append(machineNote(meta));
    md.append(
        "Peers, each its own server JVM with the same flags and the same WAR: **bare Jetty**"
            + " (a plain WebAppContext, no runtime code), **HttpConnector** (the runtime's"
            + " HttpConnector mode), **legacy** (legacy RPC mode, in-process gRPC: the"
            + " launcher's default) and **legacy (tcp)** (legacy RPC mode, gRPC over loopback"
            + " TCP), and any peer given with `--peer`. Ratios: *HttpConnector / bare* (1.00 means as cheap as bare Jetty) and"
            + " *legacy / HttpConnector* (what legacy mode costs over HttpConnector mode). What"
            + " each figure means: docs/BENCHMARKS.md.\n\n");
    generator();
    steal();
    if (!results.measurementProblems.isEmpty()) {
      md.append("> **Measurement problems**: bare Jetty does the least work of the peers on the")
          .append(" same app, yet\n");
      for (String problem : results.measurementProblems) {
        md.append("> - ").append(problem).append('\n');
      }
      md.append('\n');
    }
    if (meta.profile().equals("quick")) {
      md.append(
          "> The quick profile checks that everything runs and gives rough figures; compare"
              + " peers with the full profile.\n\n");
    }
    targets();
    for (String ee : BenchOptions.EES) {
      echo(ee);
    }
    TimingReport timing = new TimingReport(results, t);
    timing.cpu();
    timing.latency(5 * 1024);
    timing.latency(1024 * 1024);
    timing.capacity();
    coldStart();
    processes();
    failures();
    if (!t.charts.isEmpty()) {
      md.append("## Charts\n\n");
      for (String chart : t.charts) {
        md.append("![").append(chart).append("](charts/").append(chart).append(")\n\n");
      }
    }
  }

  /** The load generator's cost and lag, at the top: they say how far the timings can be trusted. */
  private void generator() {
    Results.Generator g = results.generator;
    if (g == null) {
      return;
    }
    if (Lag.mostlyUnmeasurable(g.notMeasurablePhases(), g.fixedRatePhases())) {
      md.append(
          String.format(
              Locale.ROOT,
              "> **%d of the %d fixed-rate phases are not measurable on this machine**: the load"
                  + " generator's p99 schedule lag was over 10 %% of the p99 latency it reported."
                  + " Their latency verdicts say so instead of met or missed.%n%n",
              g.notMeasurablePhases(),
              g.fixedRatePhases()));
    }
    md.append("Load generator: ").append(g.engine()).append(". ");
    if (!Double.isNaN(g.cpuMicrosPerRequestAtPeak())) {
      md.append(
          String.format(
              Locale.ROOT,
              "Its CPU per request at the servers' peak: %s, the servers' %s (%.2f×). ",
              micros(g.cpuMicrosPerRequestAtPeak()),
              micros(g.serverCpuMicrosPerRequestAtPeak()),
              g.cpuMicrosPerRequestAtPeak() / g.serverCpuMicrosPerRequestAtPeak()));
    }
    if (g.fixedRatePhases() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "Fixed-rate phases not measurable (lag p99 > 10 %% of p99): %d of %d. ",
              g.notMeasurablePhases(),
              g.fixedRatePhases()));
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
    md.append(
        String.format(
            Locale.ROOT,
            "Hypervisor steal (CPU time the virtual machine's host took, /proc/stat): %s of the"
                + " machine's CPU over the run. A timed phase that saw more than %s is run again,"
                + " up to %d runs, keeping the least disturbed: %d of %d phases were run again"
                + " (after %.0f s in all spent waiting for bursts to pass).",
            Steal.percent(s.runPercent()),
            Steal.percent(s.maxPercent()),
            s.attempts(),
            s.rerun(),
            s.phases(),
            s.calmWaitSeconds()));
    if (s.disturbed() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "%n%n> **%d of the %d timed phases were still disturbed by the hypervisor** (up to"
                  + " %s steal in the run kept): their figures measure the host as much as the"
                  + " servers; the tables count them per peer.",
              s.disturbed(),
              s.phases(),
              Steal.percent(s.worstPercent())));
    }
    md.append("\n\n");
  }

  private void targets() {
    if (results.targets.isEmpty()) {
      return;
    }
    md.append("## Targets\n\n");
    md.append(
        "Timing figures are medians (min–max) of the interleaved rounds. A target is met when it"
            + " holds across the whole spread, missed when it fails across it, and *within noise*"
            + " when the spread covers the difference.\n\n");
    md.append("| Target | This run | Verdict |\n|---|---|---|\n");
    for (TargetRow row : results.targets) {
      md.append("| ")
          .append(row.target())
          .append(" | ")
          .append(row.figure())
          .append(" | ")
          .append(verdict(row.verdict()))
          .append(" |\n");
    }
    md.append('\n');
  }

  private static String verdict(String verdict) {
    return switch (verdict) {
      case "met" -> "met";
      case "missed" -> "**MISSED**";
      case "within noise" -> "*within noise*";
      default -> verdict;
    };
  }

  /**
   * The allocation per request of each server JVM a peer ran the echo in, lowest to highest: the
   * JIT compiler's choices differ between JVMs, and the 4 KiB target is judged on this spread.
   */
  private void echoSpread(List<Long> sizes, Function<Long, Map<String, List<EchoRow>>> bySize) {
    md.append("Per server JVM (each the median of its windows), lowest to highest:\n\n");
    t.header("Size", List.of());
    for (long size : sizes) {
      md.append("| ").append(size(size));
      Map<String, List<EchoRow>> byPeer = bySize.apply(size);
      for (Peer peer : t.peers) {
        List<EchoRow> jvms = byPeer.getOrDefault(peer.id, List.of());
        md.append(" | ")
            .append(
                jvms.isEmpty()
                    ? "–"
                    : jvms.stream()
                        .mapToDouble(EchoRow::allocatedBytesPerRequest)
                        .sorted()
                        .mapToObj(Report::bytes)
                        .collect(Collectors.joining(", ")));
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private void echo(String ee) throws IOException {
    List<EchoRow> rows = results.echo.stream().filter(r -> r.ee().equals(ee)).toList();
    if (rows.isEmpty()) {
      return;
    }
    List<Long> sizes = new ArrayList<>(new TreeSet<>(rows.stream().map(EchoRow::size).toList()));
    String eeName = ee.toUpperCase(Locale.ROOT);
    // One row per server JVM a peer ran the echo in: the tables show their median.
    Function<Long, Map<String, List<EchoRow>>> bySize =
        size ->
            rows.stream()
                .filter(r -> r.size() == size)
                .collect(Collectors.groupingBy(EchoRow::peer));

    md.append("## Echo: bytes allocated per request, whole server process (")
        .append(eeName)
        .append(")\n\n");
    md.append(
        "One request at a time, request body = response body; every live thread of the server"
            + " process, the stats request's own allocation taken off.");
    int jvms = rows.stream().mapToInt(EchoRow::round).max().orElse(1);
    if (jvms > 1) {
      md.append(" The median of the peer's server JVMs (up to ")
          .append(jvms)
          .append(", the peers interleaved; legacy mode's peers in one).");
    }
    md.append("\n\n");
    t.table(
        "Size",
        sizes.stream().map(Report::size).toList(),
        sizes.stream()
            .map(
                size ->
                    ReportTables.values(
                        bySize.apply(size),
                        r -> Targets.echoMedian(r, EchoRow::allocatedBytesPerRequest)))
            .toList(),
        Report::bytes);
    if (jvms > 1) {
      echoSpread(sizes, bySize);
    }
    md.append("## Echo: heap in use after a full GC inside the servlet (")
        .append(eeName)
        .append(")\n\n");
    md.append("Halfway through an echo, median of the samples.\n\n");
    t.table(
        "Size",
        sizes.stream().map(Report::size).toList(),
        sizes.stream()
            .map(
                size ->
                    ReportTables.values(
                        bySize.apply(size), r -> Targets.echoMedian(r, EchoRow::heapAfterGcBytes)))
            .toList(),
        Report::bytes);
    md.append("Of which held for the request: the same less the heap at rest (after a full GC at")
        .append(" the end of an empty echo sent right after). Differences of a few hundred KiB")
        .append(" are the noise of a full GC's result.\n\n");
    List<Map<String, Double>> held =
        sizes.stream()
            .map(
                size ->
                    ReportTables.values(
                        bySize.apply(size),
                        r ->
                            Targets.echoMedian(
                                r,
                                e ->
                                    e.heapAtRestBytes() < 0
                                        ? Double.NaN
                                        : (double) (e.heapAfterGcBytes() - e.heapAtRestBytes()))))
            .toList();
    t.table(
        "Size",
        sizes.stream().map(Report::size).toList(),
        held,
        held.stream().map(h -> (DoubleFunction<String>) Report::signedBytes).toList(),
        false);
    List<String> groups = sizes.stream().map(Report::size).toList();
    t.chart(
        "echo-allocation-" + ee + ".svg",
        "Allocated per echo request, whole server (" + eeName + ")",
        "bytes per request",
        groups,
        p ->
            sizes.stream()
                .mapToDouble(
                    s ->
                        ReportTables.value(
                            bySize.apply(s),
                            p,
                            r -> Targets.echoMedian(r, EchoRow::allocatedBytesPerRequest)))
                .toArray(),
        true,
        Report::bytes);
    t.chart(
        "echo-heap-" + ee + ".svg",
        "Heap after GC inside the servlet, mid-echo (" + eeName + ")",
        "heap in use",
        groups,
        p ->
            sizes.stream()
                .mapToDouble(
                    s ->
                        ReportTables.value(
                            bySize.apply(s),
                            p,
                            r -> Targets.echoMedian(r, EchoRow::heapAfterGcBytes)))
                .toArray(),
        false,
        Report::bytes);
  }

  private void coldStart() throws IOException {
    if (results.coldStart.isEmpty()) {
      return;
    }
    Map<String, ColdStartRow> rows =
        results.coldStart.stream()
            .collect(Collectors.toMap(ColdStartRow::peer, r -> r, (a, b) -> a));
    int samples = results.coldStart.get(0).startMillis().size();
    md.append("## Cold start: hello app (EE10)\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "From starting the server process to the first 200 of `GET /hello` on a new"
                + " connection, and the resident set size right after it; median of %d (starts"
                + " the hypervisor's steal disturbed left out when others were not).%n%n",
            samples));
    t.table(
        "Figure",
        List.of("Start to first 200", "RSS after the first request", "Highest steal in a start"),
        List.of(
            ReportTables.values(rows, ColdStartRow::medianStartMillis),
            ReportTables.values(rows, r -> (double) r.medianRssBytes()),
            ReportTables.values(
                rows, r -> r.stealPercent().stream().mapToDouble(d -> d).max().orElse(Double.NaN))),
        List.of(Report::millisCoarse, Report::bytes, Steal::percent));
    t.chart(
        "cold-start.svg",
        "Cold start: process start to first 200 (hello, EE10)",
        "milliseconds",
        List.of("start to first 200"),
        p -> new double[] {ReportTables.value(rows, p, ColdStartRow::medianStartMillis)},
        false,
        Report::millisCoarse);
  }

  private void processes() {
    if (results.processes.isEmpty()) {
      return;
    }
    md.append("## Server processes\n\n| Peer | EE | Peak RSS | Threads at the end | Log |\n");
    md.append("|---|---|---|---|---|\n");
    for (Results.ProcessRow row : results.processes) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %d | %s |%n",
              t.label(row.peer()),
              row.ee().toUpperCase(Locale.ROOT),
              bytes(row.peakRssBytes()),
              row.threads(),
              row.log()));
    }
    md.append('\n');
  }

  private void failures() {
    if (results.failures.isEmpty()) {
      return;
    }
    md.append("## Failures\n\n| Peer | EE | Step | What happened |\n|---|---|---|---|\n");
    for (Results.Failure failure : results.failures) {
      md.append(
          String.format(
              "| %s | %s | %s | %s |%n",
              failure.peer(),
              failure.ee(),
              failure.scenario(),
              failure.message().lines().findFirst().orElse("").replace("|", "\\|")));
    }
    md.append('\n');
  }

  // ---- Formats --------------------------------------------------------------------------------

  /** Bytes in B, KiB, MiB or GiB. */
  static String bytes(double b) {
    if (Double.isNaN(b) || b < 0) {
      return "–";
    }
    if (b >= 1024 && b == Math.rint(b) && Long.bitCount((long) b) == 1) {
      return size((long) b); // an axis tick: 1 KiB, 32 KiB, 1 MiB
    }
    if (b < 1024) {
      return String.format(Locale.ROOT, "%.0f B", b);
    }
    if (b < 1024 * 1024) {
      return String.format(Locale.ROOT, b < 10 * 1024 ? "%.2f KiB" : "%.1f KiB", b / 1024);
    }
    if (b < 1024.0 * 1024 * 1024) {
      return String.format(
          Locale.ROOT, b < 10 * 1024 * 1024 ? "%.2f MiB" : "%.1f MiB", b / 1024 / 1024);
    }
    return String.format(Locale.ROOT, "%.2f GiB", b / 1024 / 1024 / 1024);
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
    if (bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " B";
  }

  static String micros(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%.0f µs" : "%.1f µs", v);
  }

  static String millis(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%.0f ms" : v >= 1 ? "%.2f ms" : "%.3f ms", v);
  }

  static String millisCoarse(double v) {
    return String.format(Locale.ROOT, "%.0f ms", v);
  }

  static String rate(double v) {
    return String.format(Locale.ROOT, "%.0f", v);
  }

  static String count(double v) {
    return String.format(Locale.ROOT, "%.0f", v);
  }

  static Optional<Double> ratioOf(Double a, Double b) {
    return a == null || b == null || b == 0 ? Optional.empty() : Optional.of(a / b);
  }

  /** Other processes' CPU over the run above which its timing figures are not to be trusted. */
  static final double BUSY_OTHER_CPU_PERCENT = 10;

  /**
   * What else used the machine during the run, and whether that makes the timing figures
   * unreliable: other processes' share of the machine's CPU where it is known; otherwise the load
   * average before the run (the one after it counts the run's own processes).
   */
  static String machineNote(Results.Meta meta) {
    double others = meta.otherCpuPercent();
    String loads =
        String.format(
            Locale.ROOT,
            "load average %.2f before the run and %.2f after it on %d cores, the latter counting"
                + " the run's own processes",
            meta.loadAverageBefore(),
            meta.loadAverageAfter(),
            meta.cores());
    boolean busy =
        Double.isNaN(others)
            ? meta.loadAverageBefore() > meta.cores() * 0.5
            : others > BUSY_OTHER_CPU_PERCENT;
    String share =
        Double.isNaN(others)
            ? ""
            : String.format(
                Locale.ROOT,
                "other processes used %.1f %% of the machine's CPU during the run; ",
                others);
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
