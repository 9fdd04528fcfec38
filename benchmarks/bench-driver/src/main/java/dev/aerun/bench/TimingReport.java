package dev.aerun.bench;

import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.CapacityRow;
import dev.aerun.bench.Results.CapacityStep;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.LatencyRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The report's timing sections (CPU, latency, capacity): each figure the median and spread of the
 * interleaved rounds, with the load generator's lag and cost beside it.
 */
final class TimingReport {
  private final Results results;
  private final ReportTables t;
  private final StringBuilder md;

  TimingReport(Results results, ReportTables t) {
    this.results = results;
    this.t = t;
    this.md = t.md;
  }

  /** Per peer, the spread of {@code figure} over that peer's rows. */
  private static <T> Map<String, Stats.Spread> spreads(
      List<T> rows, Function<T, String> peer, ToDoubleFunction<T> figure) {
    Map<String, List<Double>> values = new LinkedHashMap<>();
    for (T row : rows) {
      values
          .computeIfAbsent(peer.apply(row), k -> new ArrayList<>())
          .add(figure.applyAsDouble(row));
    }
    Map<String, Stats.Spread> spreads = new LinkedHashMap<>();
    values.forEach((p, v) -> spreads.put(p, Stats.spread(v)));
    return spreads;
  }

  private static <T> Map<String, Double> medians(
      List<T> rows, Function<T, String> peer, ToDoubleFunction<T> figure) {
    Map<String, Double> medians = new LinkedHashMap<>();
    spreads(rows, peer, figure).forEach((p, s) -> medians.put(p, s.median()));
    return medians;
  }

  private static <T> Map<String, Double> sums(
      List<T> rows, Function<T, String> peer, ToDoubleFunction<T> figure) {
    return rows.stream().collect(Collectors.groupingBy(peer, Collectors.summingDouble(figure)));
  }

  private static int rounds(List<?> rows, int peers) {
    return peers == 0 ? 0 : Math.max(1, rows.size() / peers);
  }

  /** 1 for a phase the hypervisor still disturbed after its re-runs, else 0. */
  private double disturbed(double stealPercent) {
    return results.steal != null && stealPercent > results.steal.maxPercent() ? 1 : 0;
  }

  private static String tenths(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.1f", value);
  }

  void cpu() throws IOException {
    List<CpuRow> rows = results.cpu;
    if (rows.isEmpty()) {
      return;
    }
    double rate = rows.get(0).targetRate();
    long peers = rows.stream().map(CpuRow::peer).distinct().count();
    md.append(
        String.format(Locale.ROOT, "## CPU: 1 KiB request, 32 KiB response at %.0f/s%n%n", rate));
    md.append(
        String.format(
            Locale.ROOT,
            "Server process CPU time (all threads, JIT and GC included) over the measured window,"
                + " per answered request; median (min–max) of %d interleaved rounds. *Without"
                + " JIT* takes off the CPU time of the JIT compiler threads in the window (the"
                + " steady state; the targets use it); *net of idle* takes off what the same"
                + " server used idle. ≈ marks a ratio within noise.%n%n",
            rounds(rows, (int) peers)));
    t.spreadTable(
        "Figure",
        List.of(
            "CPU per request",
            "CPU per request, without JIT",
            "CPU per request, net of idle",
            "Allocated per request"),
        List.of(
            spreads(rows, CpuRow::peer, CpuRow::cpuMicrosPerRequest),
            spreads(rows, CpuRow::peer, CpuRow::cpuMicrosPerRequestNetOfJit),
            spreads(rows, CpuRow::peer, CpuRow::cpuMicrosPerRequestNetOfIdle),
            spreads(rows, CpuRow::peer, r -> r.allocatedBytesPerRequest() / 1024)),
        List.of("%.0f µs", "%.0f µs", "%.0f µs", "%.2f KiB"));
    t.table(
        "Figure (median of the rounds)",
        List.of(
            "Achieved rate (req/s)",
            "Errors (all rounds)",
            "Idle CPU (ms/s)",
            "JIT compiler threads' CPU in the window (ms)",
            "GC pauses in the window (ms)",
            "Generator lag p99 (ms)",
            "Generator CPU per request",
            "Rounds not measurable (lag)",
            "Hypervisor steal (%)",
            "Rounds disturbed (steal)"),
        List.of(
            medians(rows, CpuRow::peer, CpuRow::achievedRate),
            sums(rows, CpuRow::peer, r -> r.errors()),
            medians(rows, CpuRow::peer, CpuRow::idleCpuMillisPerSecond),
            medians(rows, CpuRow::peer, r -> r.jitMillis()),
            medians(rows, CpuRow::peer, r -> r.gcPauseMillis()),
            medians(rows, CpuRow::peer, r -> r.lag().p99Millis()),
            medians(rows, CpuRow::peer, r -> r.lag().cpuMicrosPerRequest()),
            sums(rows, CpuRow::peer, r -> r.lag().measurable() ? 0 : 1),
            medians(rows, CpuRow::peer, CpuRow::stealPercent),
            sums(rows, CpuRow::peer, r -> disturbed(r.stealPercent()))),
        List.of(
            Report::rate,
            Report::count,
            TimingReport::tenths,
            Report::count,
            Report::count,
            Report::millis,
            Report::micros,
            Report::count,
            TimingReport::tenths,
            Report::count),
        false);
    Map<String, Double> gross = medians(rows, CpuRow::peer, CpuRow::cpuMicrosPerRequest);
    Map<String, Double> net = medians(rows, CpuRow::peer, CpuRow::cpuMicrosPerRequestNetOfJit);
    t.chart(
        "cpu-per-request.svg",
        String.format(Locale.ROOT, "Server CPU per request (1 KiB in, 32 KiB out, %.0f/s)", rate),
        "CPU µs per request",
        List.of("gross", "without JIT"),
        p ->
            new double[] {ReportTables.value(gross, p, v -> v), ReportTables.value(net, p, v -> v)},
        false,
        Report::micros);
  }

  void latency(long size) throws IOException {
    List<LatencyRow> rows = results.latency.stream().filter(r -> r.responseSize() == size).toList();
    if (rows.isEmpty()) {
      return;
    }
    double rate = rows.get(0).targetRate();
    long peers = rows.stream().map(LatencyRow::peer).distinct().count();
    md.append(
        String.format(
            Locale.ROOT,
            "## Latency: %s responses at %.0f/s, open loop%n%n",
            Report.size(size),
            rate));
    md.append(
        String.format(
            Locale.ROOT,
            "Milliseconds from each request's scheduled send time to its complete response"
                + " (corrected for coordinated omission); median (min–max) of %d interleaved"
                + " rounds. The generator's lag is how late it got round to each request: a round"
                + " whose p99 lag is over 10 %% of its p99 is not measurable on this machine.%n%n",
            rounds(rows, (int) peers)));
    t.spreadTable(
        "Figure",
        List.of("p50", "p90", "p99", "p99.9", "max"),
        List.of(
            spreads(rows, LatencyRow::peer, r -> r.latencyMillis().p50()),
            spreads(rows, LatencyRow::peer, r -> r.latencyMillis().p90()),
            spreads(rows, LatencyRow::peer, r -> r.latencyMillis().p99()),
            spreads(rows, LatencyRow::peer, r -> r.latencyMillis().p999()),
            spreads(rows, LatencyRow::peer, r -> r.latencyMillis().max())),
        List.of("%.2f ms", "%.2f ms", "%.2f ms", "%.2f ms", "%.1f ms"));
    t.table(
        "Figure (median of the rounds)",
        List.of(
            "Target rate (req/s)",
            "Achieved rate (req/s)",
            "Errors (all rounds)",
            "Generator lag p99 (ms)",
            "Generator CPU per request",
            "Rounds not measurable (lag)",
            "Hypervisor steal (%)",
            "Rounds disturbed (steal)"),
        List.of(
            medians(rows, LatencyRow::peer, LatencyRow::targetRate),
            medians(rows, LatencyRow::peer, LatencyRow::achievedRate),
            sums(rows, LatencyRow::peer, r -> r.errors()),
            medians(rows, LatencyRow::peer, r -> r.lag().p99Millis()),
            medians(rows, LatencyRow::peer, r -> r.lag().cpuMicrosPerRequest()),
            sums(rows, LatencyRow::peer, r -> r.lag().measurable() ? 0 : 1),
            medians(rows, LatencyRow::peer, LatencyRow::stealPercent),
            sums(rows, LatencyRow::peer, r -> disturbed(r.stealPercent()))),
        List.of(
            Report::rate,
            Report::rate,
            Report::count,
            Report::millis,
            Report::micros,
            Report::count,
            TimingReport::tenths,
            Report::count),
        false);
    List<Map<String, Double>> percentiles =
        List.<ToDoubleFunction<LatencyRow>>of(
                r -> r.latencyMillis().p50(),
                r -> r.latencyMillis().p90(),
                r -> r.latencyMillis().p99(),
                r -> r.latencyMillis().p999(),
                r -> r.latencyMillis().max())
            .stream()
            .map(f -> medians(rows, LatencyRow::peer, f))
            .toList();
    String name = size == 1024 * 1024 ? "1mib" : (size / 1024) + "kib";
    t.chart(
        "latency-" + name + ".svg",
        String.format(
            Locale.ROOT, "Latency, %s responses at %.0f/s (open loop)", Report.size(size), rate),
        "milliseconds",
        List.of("p50", "p90", "p99", "p99.9", "max"),
        p -> percentiles.stream().mapToDouble(m -> ReportTables.value(m, p, v -> v)).toArray(),
        true,
        Report::millis);
  }

  void capacity() throws IOException {
    List<CapacityRow> rows = results.capacity;
    if (rows.isEmpty()) {
      return;
    }
    double bound = rows.get(0).p99BoundMillis();
    md.append(
        String.format(
            Locale.ROOT,
            "## Capacity: small responses (hello), peak and highest rate with p99 ≤ %.0f ms%n%n",
            bound));
    md.append(
        "Each round: the peak, closed loop (16 keep-alive connections, each sending its next"
            + " request when the previous answer is in), then fixed open-loop rates searched down"
            + " from that peak (95 %, 90 %, 80 %, … of it, then bisection); a rate passes with no"
            + " error, p99 under the bound and at least 95 % of it achieved, and is run until two"
            + " runs agree. A peak or a step run while the hypervisor took more than the allowed"
            + " steal is run again; *s* is the steal over the run kept and *×n* how many runs it"
            + " took. Median (min–max) of the rounds; ≈ marks a ratio within noise.\n\n");
    Map<String, CapacityRow> byPeer =
        rows.stream().collect(Collectors.toMap(CapacityRow::peer, r -> r, (a, b) -> a));
    Map<String, Stats.Spread> generatorCpu = new LinkedHashMap<>();
    Map<String, Stats.Spread> jit = new LinkedHashMap<>();
    for (CapacityRow row : rows) {
      generatorCpu.put(
          row.peer(),
          Stats.spread(
              row.rounds().stream()
                  .map(CapacityRound::generatorCpuMicrosPerRequestAtPeak)
                  .toList()));
      jit.put(
          row.peer(),
          Stats.spread(
              row.rounds().stream().map(CapacityRound::serverJitCpuMillisAtPeak).toList()));
    }
    t.spreadTable(
        "Figure",
        List.of(
            "Capacity, p99 ≤ bound (req/s)",
            "Peak, closed loop (req/s)",
            "Server CPU per request at the peak",
            "Server CPU per request at the peak, without JIT",
            "Server JIT threads' CPU in the peak run (ms)",
            "Generator CPU per request at the peak"),
        List.of(
            spread(byPeer, CapacityRow::capacity),
            spread(byPeer, CapacityRow::peak),
            spread(byPeer, CapacityRow::serverCpuMicrosPerRequestAtPeak),
            spread(byPeer, CapacityRow::serverCpuMicrosPerRequestAtPeakNetOfJit),
            jit,
            generatorCpu),
        List.of("%.0f", "%.0f", "%.1f µs", "%.1f µs", "%.0f", "%.1f µs"));
    md.append(
        "| Peer | Round: peak (steal) → capacity; steps (rate: p99 / generator lag p99, steal,"
            + " pass) |\n");
    md.append("|---|---|\n");
    for (Peer peer : t.peers) {
      CapacityRow row = byPeer.get(peer.id);
      if (row == null) {
        continue;
      }
      List<String> cells = new ArrayList<>();
      for (CapacityRound round : row.rounds()) {
        cells.add(
            String.format(
                    Locale.ROOT,
                    "%d: %.0f (s %s) → %.0f; ",
                    round.round(),
                    round.peakRate(),
                    tenths(round.peakStealPercent()),
                    round.capacityRate())
                + round.steps().stream().map(TimingReport::step).collect(Collectors.joining(", ")));
      }
      md.append("| ").append(peer.label).append(" | ").append(String.join("<br>", cells));
      md.append(" |\n");
    }
    md.append('\n');
    t.chart(
        "capacity.svg",
        String.format(Locale.ROOT, "Peak and capacity with p99 ≤ %.0f ms (hello)", bound),
        "requests per second",
        List.of("capacity", "peak"),
        p -> {
          CapacityRow r = byPeer.get(p);
          return r == null
              ? new double[] {Double.NaN, Double.NaN}
              : new double[] {r.capacityRate(), r.peakRate()};
        },
        false,
        Report::rate);
  }

  private static String step(CapacityStep s) {
    return String.format(
        Locale.ROOT,
        "%.0f: %.2f / %.2f ms, s %s%s %s",
        s.targetRate(),
        s.p99Millis(),
        s.lagP99Millis(),
        tenths(s.stealPercent()),
        s.attempts() > 1 ? " ×" + s.attempts() : "",
        s.passed() ? "✓" : "✗");
  }

  private static Map<String, Stats.Spread> spread(
      Map<String, CapacityRow> rows, Function<CapacityRow, Stats.Spread> figure) {
    Map<String, Stats.Spread> spreads = new LinkedHashMap<>();
    rows.forEach((p, r) -> spreads.put(p, figure.apply(r)));
    return spreads;
  }
}
