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

/**
 * The targets, checked against one run's figures. A target whose figures the run did not
 * measure says so; none is ever turned into a test.
 */
final class Targets {
  private static final String MET = "met";
  private static final String MISSED = "missed";
  private static final String NOT_MEASURED = "not measured";

  private Targets() {}

  static List<TargetRow> evaluate(Results results) {
    List<TargetRow> rows = new ArrayList<>();
    rows.add(allocationVsBare(results));
    rows.add(allocationVsLegacy(results));
    rows.add(heapVsBare(results));
    rows.add(
        cpu(results, "bare", 1.05, "Server CPU per request: HttpConnector ≤ 1.05 × bare Jetty"));
    rows.add(cpuVsLegacy(results));
    rows.add(latency(results));
    rows.add(capacity(results));
    rows.add(coldStart(results));
    return rows;
  }

  private static Optional<EchoRow> echo(Results r, String ee, String peer, long size) {
    return r.echo.stream()
        .filter(e -> e.ee().equals(ee) && e.peer().equals(peer) && e.size() == size)
        .findFirst();
  }

  private static TargetRow allocationVsBare(Results r) {
    String target =
        "Allocation per request: HttpConnector within 4 KiB of bare Jetty at every size";
    List<String> figures = new ArrayList<>();
    boolean measured = false;
    boolean met = true;
    for (String ee : BenchOptions.EES) {
      for (long size : sizes(r, ee)) {
        Optional<EchoRow> http = echo(r, ee, "http", size);
        Optional<EchoRow> bare = echo(r, ee, "bare", size);
        if (http.isPresent() && bare.isPresent()) {
          measured = true;
          double diff =
              http.get().allocatedBytesPerRequest() - bare.get().allocatedBytesPerRequest();
          met &= diff <= 4096;
          figures.add(ee.toUpperCase(Locale.ROOT) + " " + Report.size(size) + ": " + signed(diff));
        }
      }
    }
    return row(target, figures, measured, met);
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
        Optional<EchoRow> http = echo(r, ee, "http", size);
        Optional<EchoRow> legacy = echo(r, ee, "legacy", size);
        if (http.isPresent() && legacy.isPresent()) {
          measured = true;
          double ratio =
              legacy.get().allocatedBytesPerRequest()
                  / Math.max(1, http.get().allocatedBytesPerRequest());
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
      Optional<EchoRow> http = echo(r, ee, "http", size);
      Optional<EchoRow> bare = echo(r, ee, "bare", size);
      if (http.isPresent() && bare.isPresent()) {
        measured = true;
        double diff = http.get().heapAfterGcBytes() - bare.get().heapAfterGcBytes();
        met &= diff <= 2 * 1024 * 1024;
        figures.add(ee.toUpperCase(Locale.ROOT) + ": " + signed(diff));
      }
    }
    return row(target, figures, measured, met);
  }

  private static Optional<CpuRow> cpuRow(Results r, String peer) {
    return r.cpu.stream().filter(c -> c.peer().equals(peer)).findFirst();
  }

  private static TargetRow cpu(Results r, String other, double bound, String target) {
    Optional<CpuRow> http = cpuRow(r, "http");
    Optional<CpuRow> base = cpuRow(r, other);
    if (http.isEmpty() || base.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    double ratio =
        http.get().cpuMicrosPerRequestNetOfJit() / base.get().cpuMicrosPerRequestNetOfJit();
    return new TargetRow(
        target,
        String.format(
            Locale.ROOT,
            "%.2f× (%.0f vs %.0f µs, without JIT; gross %.0f vs %.0f µs)",
            ratio,
            http.get().cpuMicrosPerRequestNetOfJit(),
            base.get().cpuMicrosPerRequestNetOfJit(),
            http.get().cpuMicrosPerRequest(),
            base.get().cpuMicrosPerRequest()),
        ratio <= bound ? MET : MISSED);
  }

  private static TargetRow cpuVsLegacy(Results r) {
    return cpu(r, "legacy", 0.85, "Server CPU per request: HttpConnector ≤ 0.85 × legacy");
  }

  private static TargetRow latency(Results r) {
    String target = "Latency at the same rate: HttpConnector p99 ≤ 1.2 × bare Jetty p99";
    List<String> figures = new ArrayList<>();
    boolean measured = false;
    boolean met = true;
    for (long size : new TreeSet<>(r.latency.stream().map(LatencyRow::responseSize).toList())) {
      Optional<LatencyRow> http = latencyRow(r, "http", size);
      Optional<LatencyRow> bare = latencyRow(r, "bare", size);
      Optional<LatencyRow> legacy = latencyRow(r, "legacy", size);
      if (http.isPresent() && bare.isPresent()) {
        measured = true;
        double ratio = http.get().latencyMillis().p99() / bare.get().latencyMillis().p99();
        met &= ratio <= 1.2;
        figures.add(
            String.format(
                Locale.ROOT,
                "%s: %.2f× (%s vs %s%s)",
                Report.size(size),
                ratio,
                Report.millis(http.get().latencyMillis().p99()),
                Report.millis(bare.get().latencyMillis().p99()),
                legacy.map(l -> "; legacy " + Report.millis(l.latencyMillis().p99())).orElse("")));
      }
    }
    return row(target, figures, measured, met);
  }

  private static Optional<LatencyRow> latencyRow(Results r, String peer, long size) {
    return r.latency.stream()
        .filter(l -> l.peer().equals(peer) && l.responseSize() == size)
        .findFirst();
  }

  private static TargetRow capacity(Results r) {
    String target = "Capacity (small responses): HttpConnector ≥ 0.95 × bare Jetty";
    Optional<CapacityRow> http =
        r.capacity.stream().filter(c -> c.peer().equals("http")).findFirst();
    Optional<CapacityRow> bare =
        r.capacity.stream().filter(c -> c.peer().equals("bare")).findFirst();
    if (http.isEmpty() || bare.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    if (bare.get().capacityRate() == 0) {
      return new TargetRow(
          target,
          String.format(
              Locale.ROOT,
              "bare Jetty passed no step (HttpConnector %.0f req/s): too noisy to compare",
              http.get().capacityRate()),
          NOT_MEASURED);
    }
    double ratio = http.get().capacityRate() / bare.get().capacityRate();
    return new TargetRow(
        target,
        String.format(
            Locale.ROOT,
            "%.2f× (%.0f vs %.0f req/s)",
            ratio,
            http.get().capacityRate(),
            bare.get().capacityRate()),
        ratio >= 0.95 ? MET : MISSED);
  }

  private static TargetRow coldStart(Results r) {
    String target = "Cold start to the first 200 (hello): HttpConnector ≤ 1.15 × bare Jetty";
    Optional<ColdStartRow> http =
        r.coldStart.stream().filter(c -> c.peer().equals("http")).findFirst();
    Optional<ColdStartRow> bare =
        r.coldStart.stream().filter(c -> c.peer().equals("bare")).findFirst();
    if (http.isEmpty() || bare.isEmpty()) {
      return new TargetRow(target, "–", NOT_MEASURED);
    }
    double ratio = http.get().medianStartMillis() / bare.get().medianStartMillis();
    return new TargetRow(
        target,
        String.format(
            Locale.ROOT,
            "%.2f× (%.0f vs %.0f ms)",
            ratio,
            http.get().medianStartMillis(),
            bare.get().medianStartMillis()),
        ratio <= 1.15 ? MET : MISSED);
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
