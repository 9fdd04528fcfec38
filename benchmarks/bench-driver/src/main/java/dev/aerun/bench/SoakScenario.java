package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.Results.SoakRow;
import dev.aerun.bench.Results.SoakSample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The soak: {@code GET /hello} at a steady rate for a long time, in intervals; after a warm-up and
 * after each interval, the server's heap right after a full collection (run by the bench app), its
 * threads and its open file descriptors. What leaks per request or per hour shows as growth.
 */
final class SoakScenario {
  /** Flat heap: the last third's median within this much of the first third's (or 10 %). */
  static final long HEAP_TOLERANCE_BYTES = 4L * 1024 * 1024;

  /** No thread growth: the last third's median within this many threads of the first third's. */
  static final long THREAD_TOLERANCE = 4;

  /** No descriptor growth: the same for open file descriptors. */
  static final long FD_TOLERANCE = 8;

  private static final long MIN_INTERVAL_MILLIS = 10_000;
  private static final int INTERVALS = 30;

  private SoakScenario() {}

  /**
   * Soaks {@code server} at {@code rate} for {@code duration} (30 intervals of at least 10 s),
   * after a warm-up of a fifteenth of it (10 s to 2 minutes).
   */
  static SoakRow run(
      LoadGenerator client, ServerProcess server, double rate, Duration duration, Progress progress)
      throws Exception {
    int port = server.awaitPort();
    Load hello = new Load("GET", "/hello", null);
    long millis = duration.toMillis();
    Duration interval = Duration.ofMillis(Math.max(millis / INTERVALS, MIN_INTERVAL_MILLIS));
    long intervals = Math.max(1, millis / interval.toMillis());
    // The JIT, the pools and the caches settle before the first sample.
    long warmup = Math.min(Math.max(millis / 15, MIN_INTERVAL_MILLIS), 120_000);
    // The open loop's 32 connections: few, so that the descriptors counted are the server's.
    client.openLoop(port, hello, rate, Duration.ofMillis(warmup));
    long start = System.nanoTime();
    List<SoakSample> samples = new ArrayList<>(List.of(sample(client, server, 0)));
    Histogram latency = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
    long sent = 0;
    long failed = 0;
    Map<Integer, Long> statuses = new TreeMap<>();
    for (long i = 1; i <= intervals; i++) {
      RateRun run = client.openLoop(port, hello, rate, interval);
      latency.add(run.latency());
      sent += run.sent();
      failed += run.sent() - run.ok();
      run.statuses().forEach((status, n) -> statuses.merge(status, n, Long::sum));
      SoakSample s = sample(client, server, (System.nanoTime() - start) / 1e9);
      samples.add(s);
      progress.note(
          Report.fmt(
              "%s soak %d/%d: heap after GC %s, %d threads, %d descriptors",
              server.peer().id,
              i,
              intervals,
              Report.bytes(s.heapAfterGcBytes()),
              s.threads(),
              s.fds()));
    }
    return new SoakRow(
        server.peer().id,
        rate,
        samples.get(samples.size() - 1).elapsedSeconds() / 60,
        sent,
        failed,
        statuses,
        latency.getValueAtPercentile(50) / 1000.0,
        latency.getValueAtPercentile(99) / 1000.0,
        latency.getMaxValue() / 1000.0,
        samples,
        slopePerMinute(samples, SoakSample::heapAfterGcBytes),
        slopePerMinute(samples, SoakSample::threads),
        slopePerMinute(samples, SoakSample::fds),
        server.process().output().contains("OutOfMemoryError"));
  }

  /** The server now: heap after a full GC (the bench app runs it), threads and descriptors. */
  private static SoakSample sample(LoadGenerator client, ServerProcess server, double elapsed)
      throws IOException {
    long heap = EchoScenario.heapAtRest(client, server.awaitPort());
    Path proc = Path.of("/proc", Long.toString(server.pid()));
    return new SoakSample(elapsed, heap, count(proc.resolve("task")), count(proc.resolve("fd")));
  }

  private static int count(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return (int) entries.count();
    }
  }

  /** The least-squares slope of {@code value} over the samples' elapsed time, per minute. */
  static double slopePerMinute(List<SoakSample> samples, ToDoubleFunction<SoakSample> value) {
    double n = samples.size();
    double meanX = samples.stream().mapToDouble(s -> s.elapsedSeconds() / 60).sum() / n;
    double meanY = samples.stream().mapToDouble(value).sum() / n;
    double sxy = 0;
    double sxx = 0;
    for (SoakSample s : samples) {
      double dx = s.elapsedSeconds() / 60 - meanX;
      sxy += dx * (value.applyAsDouble(s) - meanY);
      sxx += dx * dx;
    }
    return sxx == 0 ? 0 : sxy / sxx;
  }

  /** The last third's median less the first third's: growth that one odd sample cannot fake. */
  static double growth(List<SoakSample> samples, ToDoubleFunction<SoakSample> value) {
    return third(samples, value, true) - third(samples, value, false);
  }

  private static double third(
      List<SoakSample> samples, ToDoubleFunction<SoakSample> value, boolean last) {
    int n = samples.size();
    int third = Math.max(1, n / 3);
    List<SoakSample> part = last ? samples.subList(n - third, n) : samples.subList(0, third);
    return Stats.median(part.stream().map(value::applyAsDouble).toList());
  }

  /**
   * What a soak fell short of, empty when it met every criterion: every request 200, no
   * OutOfMemoryError, heap after GC, threads and descriptors flat.
   */
  static List<String> shortfalls(SoakRow row) {
    List<String> missed = new ArrayList<>();
    if (row.failed() > 0 || row.outOfMemory()) {
      missed.add(row.failed() + " not 200" + (row.outOfMemory() ? ", OutOfMemoryError" : ""));
    }
    double heap = growth(row.samples(), SoakSample::heapAfterGcBytes);
    double heapBase = third(row.samples(), SoakSample::heapAfterGcBytes, false);
    if (heap > Math.max(HEAP_TOLERANCE_BYTES, heapBase / 10)) {
      missed.add("heap +" + Report.bytes(heap));
    }
    double threads = growth(row.samples(), SoakSample::threads);
    if (threads > THREAD_TOLERANCE) {
      missed.add(Report.fmt("threads %+.0f", threads));
    }
    double fds = growth(row.samples(), SoakSample::fds);
    if (fds > FD_TOLERANCE) {
      missed.add(Report.fmt("descriptors %+.0f", fds));
    }
    return missed;
  }
}
