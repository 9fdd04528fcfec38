package dev.aerun.bench.reliability;

import dev.aerun.bench.LoadGenerator;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.ServerProcess;
import dev.aerun.bench.Steal;
import dev.aerun.bench.reliability.ReliabilityResults.CapacityStep;
import dev.aerun.bench.reliability.ReliabilityResults.OverloadRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The overload part: a rate several times the server's capacity, then how soon a moderate rate is
 * served within the latency bound again. Also the capacity search it needs.
 */
final class Overload {
  /** What every part sends: the smallest response, so that the server's own cost dominates. */
  static final Load HELLO = new Load("GET", "/hello", null);

  private static final double CAPACITY_START = 500;
  private static final double CAPACITY_FACTOR = 1.5;
  private static final int CAPACITY_MAX_STEPS = 12;
  private static final Duration STEP_WARMUP = Duration.ofSeconds(1);
  private static final Duration STEP = Duration.ofSeconds(3);
  private static final Duration WINDOW = Duration.ofMillis(500);
  private static final long RECOVERY_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);

  /**
   * A step run while the hypervisor took more than 3 % of the machine's CPU measures the host, not
   * the server (see {@link Steal}): it is run again, up to three runs.
   */
  private static final Steal STEAL = new Steal(3, 3);

  /** More connections than the server admits (running plus queued), as many clients would open. */
  private static final int OVERLOAD_CONNECTIONS = 2048;

  private Overload() {}

  /**
   * The highest rate of GET /hello, rising by half each step, served with no error, p99 within the
   * bound and 95 % of the rate achieved; a failing step is tried once more. At least the first
   * step's rate, so that the overload always has a rate to multiply.
   */
  static double capacity(
      LoadGenerator client, int port, double boundMillis, List<CapacityStep> steps)
      throws Exception {
    double passed = 0;
    double rate = CAPACITY_START;
    for (int i = 0; i < CAPACITY_MAX_STEPS; i++) {
      if (!step(client, port, rate, boundMillis, steps)
          && !step(client, port, rate, boundMillis, steps)) {
        break;
      }
      passed = rate;
      rate = Math.round(rate * CAPACITY_FACTOR);
    }
    return Math.max(passed, CAPACITY_START);
  }

  private static boolean step(
      LoadGenerator client, int port, double rate, double boundMillis, List<CapacityStep> steps)
      throws Exception {
    Steal.Measured<RateRun> measured =
        STEAL.measure(
            () -> {
              client.openLoop(port, HELLO, rate, STEP_WARMUP);
              return client.openLoop(port, HELLO, rate, STEP);
            });
    RateRun run = measured.value();
    double p99 = p99Millis(run.latency());
    steps.add(
        new CapacityStep(rate, run.achievedRate(), p99, run.errors(), measured.stealPercent()));
    return run.errors() == 0 && p99 <= boundMillis && run.achievedRate() >= 0.95 * rate;
  }

  /**
   * Sends {@code factor} × {@code capacity} for {@code duration} from a generator with more
   * connections than the server admits, while another generator sends a quarter of the capacity in
   * half-second windows. Recovery is the time from the overload's last request to the start of the
   * first window with no error and p99 within the recovery bound: the capacity's bound, or twice
   * the p99 the same windows had before the overload if that was already higher (a busy machine).
   */
  static OverloadRow run(
      ServerProcess server, double capacity, double factor, Duration duration, double boundMillis)
      throws Exception {
    int port = server.awaitPort();
    double rate = factor * capacity;
    double moderate = capacity / 4;
    Outcomes outcomes = new Outcomes();
    AtomicLong lastSent = new AtomicLong();
    try (LoadGenerator loader = new LoadGenerator();
        LoadGenerator prober = new LoadGenerator()) {
      prober.openLoop(port, HELLO, moderate, STEP_WARMUP);
      double baseline = p99Millis(prober.openLoop(port, HELLO, moderate, STEP).latency());
      double recoveryBound = Math.max(boundMillis, 2 * baseline);
      loader.openLoop(port, HELLO, capacity / 4, STEP_WARMUP);
      CompletableFuture<RateRun> load = new CompletableFuture<>();
      Thread thread =
          new Thread(
              () -> {
                try {
                  load.complete(
                      loader.openLoop(
                          port,
                          HELLO,
                          rate,
                          duration,
                          OVERLOAD_CONNECTIONS,
                          outcome -> {
                            lastSent.accumulateAndGet(outcome.sentNanos(), Math::max);
                            outcomes.add(outcome);
                          }));
                } catch (Throwable t) {
                  load.completeExceptionally(t);
                }
              },
              "reliability-overload");
      thread.setDaemon(true);
      long start = System.nanoTime();
      thread.start();
      TimeUnit.NANOSECONDS.sleep(duration.toNanos());
      // Probe until the overload is over (its last answer is in) and a window after its last
      // request was good, within a limit.
      List<long[]> windows = new ArrayList<>();
      long limit = start + duration.toNanos() + RECOVERY_LIMIT_NANOS;
      while (System.nanoTime() < limit) {
        long windowStart = System.nanoTime();
        RateRun window = prober.openLoop(port, HELLO, moderate, WINDOW);
        boolean good = window.errors() == 0 && p99Millis(window.latency()) <= recoveryBound;
        windows.add(new long[] {windowStart, good ? 1 : 0});
        if (load.isDone() && firstGood(windows, lastSent.get()) >= 0) {
          break;
        }
      }
      RateRun run = load.get(2, TimeUnit.MINUTES);
      long end = lastSent.get();
      long good = firstGood(windows, end);
      Histogram rejected = outcomes.rejectedLatency();
      boolean hasRejected = rejected.getTotalCount() > 0;
      return new OverloadRow(
          server.peer().id,
          capacity,
          rate,
          duration.toNanos() / 1e9,
          (end - start) / 1e9,
          run.sent(),
          outcomes.snapshot(),
          hasRejected ? rejected.getValueAtPercentile(99) / 1000.0 : 0,
          hasRejected ? rejected.getMaxValue() / 1000.0 : 0,
          run.maxSendLagMicros(),
          moderate,
          baseline,
          recoveryBound,
          good < 0 ? -1 : Math.max(0, (good - end) / 1e9),
          windows.size(),
          ProcessProbe.logContains(server.log(), "OutOfMemoryError"),
          server.isAlive(),
          server.log().getFileName().toString());
    }
  }

  /** The start of the first good window that began at most one window before {@code end}, or -1. */
  private static long firstGood(List<long[]> windows, long end) {
    for (long[] window : windows) {
      if (window[1] == 1 && window[0] >= end - WINDOW.toNanos()) {
        return window[0];
      }
    }
    return -1;
  }

  static double p99Millis(Histogram latency) {
    return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(99) / 1000.0;
  }
}
