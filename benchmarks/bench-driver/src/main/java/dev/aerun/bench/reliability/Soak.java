package dev.aerun.bench.reliability;

import dev.aerun.bench.LoadGenerator;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.ServerProcess;
import dev.aerun.bench.reliability.ReliabilityResults.SoakRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The soak: a steady rate for a long time, in intervals; after a warm-up and after each interval
 * the server's heap after a full collection, its threads and its file descriptors are sampled. What
 * leaks per request or per hour shows as a slope.
 */
final class Soak {
  private static final Duration MIN_INTERVAL = Duration.ofSeconds(10);
  private static final int INTERVALS = 30;

  /**
   * The generator's connections: enough for a steady rate, and few, so that the server's descriptor
   * count does not follow the generator opening connections when a collection stalls it.
   */
  private static final int CONNECTIONS = 32;

  private Soak() {}

  /** A fifteenth of the soak, between 10 s and 2 minutes. */
  static Duration warmup(Duration soak) {
    Duration warmup = soak.dividedBy(15);
    if (warmup.compareTo(MIN_INTERVAL) < 0) {
      return MIN_INTERVAL;
    }
    return warmup.compareTo(Duration.ofMinutes(2)) > 0 ? Duration.ofMinutes(2) : warmup;
  }

  static SoakRow run(
      ServerProcess server, ProcessProbe probe, double rate, Duration duration, Progress progress)
      throws Exception {
    int port = server.awaitPort();
    long pid = server.pid();
    Duration interval = duration.dividedBy(INTERVALS);
    if (interval.compareTo(MIN_INTERVAL) < 0) {
      interval = MIN_INTERVAL;
    }
    long intervals = Math.max(1, duration.toMillis() / interval.toMillis());
    Outcomes outcomes = new Outcomes();
    Histogram latency = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
    List<ProcessProbe.Sample> samples = new ArrayList<>();
    long sent = 0;
    try (LoadGenerator client = new LoadGenerator()) {
      // Warm-up: the JIT, the pools and the caches settle before the first sample.
      client.openLoop(port, Overload.HELLO, rate, warmup(duration), CONNECTIONS);
      long start = System.nanoTime();
      samples.add(probe.sample(pid, 0));
      for (long i = 0; i < intervals; i++) {
        RateRun run =
            client.openLoop(port, Overload.HELLO, rate, interval, CONNECTIONS, outcomes::add);
        latency.add(run.latency());
        sent += run.sent();
        ProcessProbe.Sample sample = probe.sample(pid, (System.nanoTime() - start) / 1e9);
        samples.add(sample);
        progress.say(
            String.format(
                "soak %s %d/%d: heap after GC %.1f MiB, %d threads, %d fds",
                server.peer().id,
                i + 1,
                intervals,
                sample.heapAfterGcBytes() / 1048576.0,
                sample.threads(),
                sample.fds()));
      }
    }
    ProcessProbe.Sample first = samples.get(0);
    ProcessProbe.Sample last = samples.get(samples.size() - 1);
    return new SoakRow(
        server.peer().id,
        rate,
        last.elapsedSeconds() / 60,
        sent,
        outcomes.snapshot(),
        latency.getValueAtPercentile(50) / 1000.0,
        latency.getValueAtPercentile(99) / 1000.0,
        latency.getMaxValue() / 1000.0,
        samples,
        first.heapAfterGcBytes(),
        last.heapAfterGcBytes(),
        slopePerMinute(samples, ProcessProbe.Sample::heapAfterGcBytes),
        first.threads(),
        last.threads(),
        slopePerMinute(samples, ProcessProbe.Sample::threads),
        first.fds(),
        last.fds(),
        slopePerMinute(samples, ProcessProbe.Sample::fds),
        ProcessProbe.logContains(server.log(), "OutOfMemoryError"),
        server.log().getFileName().toString());
  }

  /** The least-squares slope of {@code value} over the samples' elapsed time, per minute. */
  static double slopePerMinute(
      List<ProcessProbe.Sample> samples, ToDoubleFunction<ProcessProbe.Sample> value) {
    int n = samples.size();
    if (n < 2) {
      return 0;
    }
    double meanX = 0;
    double meanY = 0;
    for (ProcessProbe.Sample s : samples) {
      meanX += s.elapsedSeconds() / 60;
      meanY += value.applyAsDouble(s);
    }
    meanX /= n;
    meanY /= n;
    double sxy = 0;
    double sxx = 0;
    for (ProcessProbe.Sample s : samples) {
      double dx = s.elapsedSeconds() / 60 - meanX;
      sxy += dx * (value.applyAsDouble(s) - meanY);
      sxx += dx * dx;
    }
    return sxx == 0 ? 0 : sxy / sxx;
  }

  /** Where a running soak says how far it is. */
  interface Progress {
    void say(String line);
  }
}
