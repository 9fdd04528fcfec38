package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.aerun.bench.Charts.Series;
import dev.aerun.bench.Results.CapacityRow;
import dev.aerun.bench.Results.ColdStartRow;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.LatencyRow;
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
 * HttpConnector, and the issue's targets met or missed) and {@code charts/*.svg}.
 */
final class Report {
  private static final String BARE = Peer.BARE.id;
  private static final String HTTP = Peer.HTTP.id;
  private static final String LEGACY = Peer.LEGACY.id;
  private static final String LEGACY_TCP = Peer.LEGACY_TCP.id;
  private static final Map<String, String> COLORS =
      Map.of(BARE, "#8c8c8c", HTTP, "#1f77b4", LEGACY, "#ff7f0e", LEGACY_TCP, "#d62728");

  private final Results results;
  private final List<Peer> peers;
  private final StringBuilder md = new StringBuilder();
  private final List<String> charts = new ArrayList<>();
  private final Path chartDir;

  private Report(Results results, List<Peer> peers, Path out) {
    this.results = results;
    this.peers = peers;
    this.chartDir = out.resolve("charts");
  }

  static void write(Results results, BenchOptions options, Path out) throws IOException {
    Files.createDirectories(out.resolve("charts"));
    Report report = new Report(results, options.peers(), out);
    results.targets.clear();
    results.targets.addAll(Targets.evaluate(results));
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
    double busiest = Math.max(meta.loadAverageBefore(), meta.loadAverageAfter());
    if (busiest > meta.cores() * 0.5) {
      md.append(
          String.format(
              Locale.ROOT,
              "> **The machine was busy**: load average %.2f before the run and %.2f after it, on"
                  + " %d cores, counting this run's own processes at the end. Timing figures (CPU,"
                  + " latency, capacity, cold start) are unreliable; allocation and heap figures"
                  + " are not affected.%n%n",
              meta.loadAverageBefore(),
              meta.loadAverageAfter(),
              meta.cores()));
    }
    md.append(
        "Peers, each its own server JVM with the same flags and the same WAR: **bare Jetty**"
            + " (a plain WebAppContext, no runtime code), **HttpConnector** (the runtime's"
            + " HttpConnector mode), **legacy** (legacy RPC mode, in-process gRPC: the"
            + " launcher's default) and **legacy (tcp)** (legacy RPC mode, gRPC over loopback"
            + " TCP). Ratios: *HttpConnector / bare* (1.00 means as cheap as bare Jetty) and"
            + " *legacy / HttpConnector* (what legacy mode costs over HttpConnector mode). What"
            + " each figure means: docs/BENCHMARKS.md.\n\n");
    if (meta.profile().equals("quick")) {
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
    processes();
    failures();
    if (!charts.isEmpty()) {
      md.append("## Charts\n\n");
      for (String chart : charts) {
        md.append("![").append(chart).append("](charts/").append(chart).append(")\n\n");
      }
    }
  }

  private void targets() {
    if (results.targets.isEmpty()) {
      return;
    }
    md.append("## Targets\n\n| Target | This run | Verdict |\n|---|---|---|\n");
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
      default -> verdict;
    };
  }

  private void echo(String ee) throws IOException {
    List<EchoRow> rows = results.echo.stream().filter(r -> r.ee().equals(ee)).toList();
    if (rows.isEmpty()) {
      return;
    }
    List<Long> sizes = new ArrayList<>(new TreeSet<>(rows.stream().map(EchoRow::size).toList()));
    String eeName = ee.toUpperCase(Locale.ROOT);
    Function<Long, Map<String, EchoRow>> bySize =
        size ->
            rows.stream()
                .filter(r -> r.size() == size)
                .collect(Collectors.toMap(EchoRow::peer, r -> r, (a, b) -> a));

    md.append("## Echo: bytes allocated per request, whole server process (")
        .append(eeName)
        .append(")\n\n");
    md.append(
        "One request at a time, request body = response body; every live thread of the server"
            + " process, the stats request's own allocation taken off.\n\n");
    table(
        "Size",
        sizes.stream().map(Report::size).toList(),
        sizes.stream()
            .map(size -> values(bySize.apply(size), EchoRow::allocatedBytesPerRequest))
            .toList(),
        Report::bytes);
    md.append("## Echo: heap in use after a full GC inside the servlet (")
        .append(eeName)
        .append(")\n\n");
    md.append("Halfway through an echo, median of the samples.\n\n");
    table(
        "Size",
        sizes.stream().map(Report::size).toList(),
        sizes.stream()
            .map(size -> values(bySize.apply(size), r -> (double) r.heapAfterGcBytes()))
            .toList(),
        Report::bytes);
    md.append("Of which held for the request: the same less the heap at rest (after a full GC at")
        .append(" the end of an empty echo sent right after). Differences of a few hundred KiB")
        .append(" are the noise of a full GC's result.\n\n");
    List<Map<String, Double>> held =
        sizes.stream()
            .map(
                size ->
                    values(
                        bySize.apply(size),
                        r ->
                            r.heapAtRestBytes() < 0
                                ? Double.NaN
                                : (double) (r.heapAfterGcBytes() - r.heapAtRestBytes())))
            .toList();
    table(
        "Size",
        sizes.stream().map(Report::size).toList(),
        held,
        held.stream().map(h -> (DoubleFunction<String>) Report::signedBytes).toList(),
        false);
    List<String> groups = sizes.stream().map(Report::size).toList();
    chart(
        "echo-allocation-" + ee + ".svg",
        "Allocated per echo request, whole server (" + eeName + ")",
        "bytes per request",
        groups,
        p ->
            sizes.stream()
                .mapToDouble(s -> value(bySize.apply(s), p, EchoRow::allocatedBytesPerRequest))
                .toArray(),
        true,
        Report::bytes);
    chart(
        "echo-heap-" + ee + ".svg",
        "Heap after GC inside the servlet, mid-echo (" + eeName + ")",
        "heap in use",
        groups,
        p ->
            sizes.stream()
                .mapToDouble(s -> value(bySize.apply(s), p, r -> (double) r.heapAfterGcBytes()))
                .toArray(),
        false,
        Report::bytes);
  }

  private void cpu() throws IOException {
    if (results.cpu.isEmpty()) {
      return;
    }
    Map<String, CpuRow> rows =
        results.cpu.stream().collect(Collectors.toMap(CpuRow::peer, r -> r, (a, b) -> a));
    double rate = results.cpu.get(0).targetRate();
    md.append(
        String.format(Locale.ROOT, "## CPU: 1 KiB request, 32 KiB response at %.0f/s%n%n", rate));
    md.append(
        "Server process CPU time (all threads, JIT and GC included) over the measured window,"
            + " per answered request. *Without JIT* takes off the JIT compilers' time in the"
            + " window (the steady state; the targets use it); *net of idle* takes off what the"
            + " same server used idle.\n\n");
    table(
        "Figure",
        List.of(
            "CPU per request",
            "CPU per request, without JIT",
            "CPU per request, net of idle",
            "Allocated per request"),
        List.of(
            values(rows, CpuRow::cpuMicrosPerRequest),
            values(rows, CpuRow::cpuMicrosPerRequestNetOfJit),
            values(rows, CpuRow::cpuMicrosPerRequestNetOfIdle),
            values(rows, CpuRow::allocatedBytesPerRequest)),
        List.of(Report::micros, Report::micros, Report::micros, Report::bytes));
    table(
        "Figure",
        List.of(
            "Achieved rate (req/s)",
            "Errors",
            "Idle CPU (ms/s)",
            "JIT compiling in the window (ms)",
            "GC pauses in the window (ms)"),
        List.of(
            values(rows, CpuRow::achievedRate),
            values(rows, r -> (double) r.errors()),
            values(rows, CpuRow::idleCpuMillisPerSecond),
            values(rows, r -> (double) r.jitMillis()),
            values(rows, r -> (double) r.gcPauseMillis())),
        List.of(
            Report::rate,
            Report::count,
            v -> String.format(Locale.ROOT, "%.1f", v),
            Report::count,
            Report::count),
        false);
    chart(
        "cpu-per-request.svg",
        String.format(Locale.ROOT, "Server CPU per request (1 KiB in, 32 KiB out, %.0f/s)", rate),
        "CPU µs per request",
        List.of("gross", "without JIT"),
        p ->
            new double[] {
              value(rows, p, CpuRow::cpuMicrosPerRequest),
              value(rows, p, CpuRow::cpuMicrosPerRequestNetOfJit)
            },
        false,
        Report::micros);
  }

  private void latency(long size) throws IOException {
    List<LatencyRow> list = results.latency.stream().filter(r -> r.responseSize() == size).toList();
    if (list.isEmpty()) {
      return;
    }
    Map<String, LatencyRow> rows =
        list.stream().collect(Collectors.toMap(LatencyRow::peer, r -> r, (a, b) -> a));
    double rate = list.get(0).targetRate();
    md.append(
        String.format(
            Locale.ROOT, "## Latency: %s responses at %.0f/s, open loop%n%n", size(size), rate));
    md.append(
        "Milliseconds from each request's scheduled send time to its complete response"
            + " (corrected for coordinated omission).\n\n");
    table(
        "Figure",
        List.of("p50", "p90", "p99", "p99.9", "max"),
        List.of(
            values(rows, r -> r.latencyMillis().p50()),
            values(rows, r -> r.latencyMillis().p90()),
            values(rows, r -> r.latencyMillis().p99()),
            values(rows, r -> r.latencyMillis().p999()),
            values(rows, r -> r.latencyMillis().max())),
        Report::millis);
    table(
        "Figure",
        List.of("Target rate (req/s)", "Achieved rate (req/s)", "Errors"),
        List.of(
            values(rows, LatencyRow::targetRate),
            values(rows, LatencyRow::achievedRate),
            values(rows, r -> (double) r.errors())),
        List.of(Report::rate, Report::rate, Report::count),
        false);
    String name = size == 1024 * 1024 ? "1mib" : (size / 1024) + "kib";
    chart(
        "latency-" + name + ".svg",
        String.format(Locale.ROOT, "Latency, %s responses at %.0f/s (open loop)", size(size), rate),
        "milliseconds",
        List.of("p50", "p90", "p99", "p99.9", "max"),
        p -> {
          LatencyRow r = rows.get(p);
          return r == null
              ? new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN}
              : new double[] {
                r.latencyMillis().p50(),
                r.latencyMillis().p90(),
                r.latencyMillis().p99(),
                r.latencyMillis().p999(),
                r.latencyMillis().max()
              };
        },
        true,
        Report::millis);
  }

  private void capacity() throws IOException {
    if (results.capacity.isEmpty()) {
      return;
    }
    Map<String, CapacityRow> rows =
        results.capacity.stream().collect(Collectors.toMap(CapacityRow::peer, r -> r, (a, b) -> a));
    double bound = results.capacity.get(0).p99BoundMillis();
    md.append(
        String.format(
            Locale.ROOT,
            "## Capacity: small responses (hello), highest rate with p99 ≤ %.0f ms%n%n",
            bound));
    md.append(
        "Open-loop steps of rising rate; a step passes with no error, p99 under the bound and"
            + " at least 95% of its rate achieved; a rate that fails is run once more and fails"
            + " only if it fails again (both runs are listed). The load generator shares the"
            + " machine's cores with the server.\n\n");
    table(
        "Figure",
        List.of("Capacity (req/s)"),
        List.of(values(rows, CapacityRow::capacityRate)),
        Report::rate);
    md.append("| Peer | Steps (rate: p99, pass) |\n|---|---|\n");
    for (Peer peer : peers) {
      CapacityRow row = rows.get(peer.id);
      if (row == null) {
        continue;
      }
      md.append("| ").append(peer.label).append(" | ");
      md.append(
          row.rounds().stream().flatMap(r -> r.steps().stream())
              .map(
                  s ->
                      String.format(
                          Locale.ROOT,
                          "%.0f: %.2f ms %s",
                          s.targetRate(),
                          s.p99Millis(),
                          s.passed() ? "✓" : "✗"))
              .collect(Collectors.joining(", ")));
      md.append(" |\n");
    }
    md.append('\n');
    chart(
        "capacity.svg",
        String.format(Locale.ROOT, "Capacity: highest rate with p99 ≤ %.0f ms (hello)", bound),
        "requests per second",
        List.of("capacity"),
        p -> new double[] {value(rows, p, CapacityRow::capacityRate)},
        false,
        Report::rate);
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
                + " connection, and the resident set size right after it; median of %d.%n%n",
            samples));
    table(
        "Figure",
        List.of("Start to first 200", "RSS after the first request"),
        List.of(
            values(rows, ColdStartRow::medianStartMillis),
            values(rows, r -> (double) r.medianRssBytes())),
        List.of(Report::millisCoarse, Report::bytes));
    chart(
        "cold-start.svg",
        "Cold start: process start to first 200 (hello, EE10)",
        "milliseconds",
        List.of("start to first 200"),
        p -> new double[] {value(rows, p, ColdStartRow::medianStartMillis)},
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
              label(row.peer()),
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

  // ---- Tables and charts ----------------------------------------------------------------------

  /** A table: one row per figure, one column per peer, then the ratios. */
  private void table(
      String first,
      List<String> rowNames,
      List<Map<String, Double>> rows,
      DoubleFunction<String> f) {
    table(first, rowNames, rows, rowNames.stream().map(n -> f).toList(), true);
  }

  private void table(
      String first,
      List<String> rowNames,
      List<Map<String, Double>> rows,
      List<DoubleFunction<String>> formats) {
    table(first, rowNames, rows, formats, true);
  }

  private void table(
      String first,
      List<String> rowNames,
      List<Map<String, Double>> rows,
      List<DoubleFunction<String>> formats,
      boolean ratios) {
    List<String[]> ratioColumns = new ArrayList<>();
    if (ratios) {
      if (has(HTTP) && has(BARE)) {
        ratioColumns.add(new String[] {HTTP, BARE, "HttpConnector / bare"});
      }
      if (has(LEGACY) && has(HTTP)) {
        ratioColumns.add(new String[] {LEGACY, HTTP, "legacy / HttpConnector"});
      }
      if (has(LEGACY_TCP) && has(HTTP)) {
        ratioColumns.add(new String[] {LEGACY_TCP, HTTP, "legacy (tcp) / HttpConnector"});
      }
    }
    md.append("| ").append(first);
    for (Peer peer : peers) {
      md.append(" | ").append(peer.label);
    }
    for (String[] ratio : ratioColumns) {
      md.append(" | ").append(ratio[2]);
    }
    md.append(" |\n|---");
    md.append("|---:".repeat(peers.size() + ratioColumns.size()));
    md.append("|\n");
    for (int i = 0; i < rowNames.size(); i++) {
      Map<String, Double> row = rows.get(i);
      md.append("| ").append(rowNames.get(i));
      for (Peer peer : peers) {
        Double v = row.get(peer.id);
        md.append(" | ").append(v == null || v.isNaN() ? "–" : formats.get(i).apply(v));
      }
      for (String[] ratio : ratioColumns) {
        md.append(" | ").append(ratio(row.get(ratio[0]), row.get(ratio[1])));
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private boolean has(String peer) {
    return peers.stream().anyMatch(p -> p.id.equals(peer));
  }

  private static String ratio(Double a, Double b) {
    if (a == null || b == null || a.isNaN() || b.isNaN() || b == 0) {
      return "–";
    }
    double r = a / b;
    return String.format(Locale.ROOT, r >= 100 ? "%.0f×" : r >= 10 ? "%.1f×" : "%.2f×", r);
  }

  private static <T> Map<String, Double> values(
      Map<String, T> rows, java.util.function.ToDoubleFunction<T> figure) {
    Map<String, Double> values = new java.util.HashMap<>();
    rows.forEach((peer, row) -> values.put(peer, figure.applyAsDouble(row)));
    return values;
  }

  private static <T> double value(
      Map<String, T> rows, String peer, java.util.function.ToDoubleFunction<T> figure) {
    T row = rows.get(peer);
    return row == null ? Double.NaN : figure.applyAsDouble(row);
  }

  private void chart(
      String file,
      String title,
      String axis,
      List<String> groups,
      Function<String, double[]> valuesOfPeer,
      boolean log,
      DoubleFunction<String> format)
      throws IOException {
    List<Series> series = new ArrayList<>();
    for (Peer peer : peers) {
      series.add(new Series(peer.label, COLORS.get(peer.id), valuesOfPeer.apply(peer.id)));
    }
    // Byte axes tick at 1 KiB, 32 KiB, 1 MiB…; the others at powers of ten.
    double logBase = axis.contains("bytes") || axis.contains("heap") ? 32 : 10;
    Charts.groupedBars(chartDir.resolve(file), title, axis, groups, series, log, logBase, format);
    charts.add(file);
  }

  private String label(String peerId) {
    return peers.stream()
        .filter(p -> p.id.equals(peerId))
        .map(p -> p.label)
        .findFirst()
        .orElse(peerId);
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
}
