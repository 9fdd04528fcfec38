package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.CapacityStep;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.Percentiles;
import dev.aerun.bench.Results.PhaseLag;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The scenarios that time the server, one round at a time (the caller interleaves the peers):
 * server CPU per request at a fixed rate, latency at a fixed rate, and capacity (closed-loop peak
 * throughput, then the highest fixed rate whose p99 stays under the bound). A peer's first round
 * warms it up first; later rounds find it warm. Each timed phase goes through {@link Steal}.
 */
final class TimingScenarios {
  static final Duration ONE_SECOND = Duration.ofSeconds(1);

  private final Profile profile;
  private final double p99BoundMillis;
  private final Load cpuLoad;
  private final Steal steal;
  private final Map<String, Double> idleCpuMillisPerSecond = new HashMap<>();

  TimingScenarios(BenchOptions options, byte[] cpuBody, Steal steal) {
    this.profile = options.profile();
    this.p99BoundMillis = options.p99BoundMillis();
    this.cpuLoad = new Load("POST", "/bytes?size=" + 32 * 1024, cpuBody, options.acceptEncoding());
    this.steal = steal;
  }

  /** 1 KiB in, 32 KiB out, compressed if the options ask for it. */
  Load cpuLoad() {
    return cpuLoad;
  }

  /** The CPU scenario's measured window: the run and the server's figures around it. */
  private record CpuWindow(
      RateRun run,
      CpuClock.ProcessCpu cpu,
      ServerStats before,
      ServerStats after,
      double seconds) {}

  /** 1 KiB in, 32 KiB out at a fixed rate: server CPU per request. */
  String cpu(LoadGenerator client, ServerProcess server, int port, int round, Results results)
      throws Exception {
    Load load = cpuLoad();
    String peer = server.peer().id;
    if (round == 1) {
      client.openLoop(port, load, profile.cpuRate(), profile.warmup());
      // Idle after the warm-up, when the JIT compilers have mostly settled.
      ServerStats idleStart = ServerStats.fetch(client, port);
      long idleNanos = System.nanoTime();
      Thread.sleep(profile.idle().toMillis());
      ServerStats idleEnd = ServerStats.fetch(client, port);
      double idleCpu = (idleEnd.processCpuNanos() - idleStart.processCpuNanos()) / 1e6;
      idleCpuMillisPerSecond.put(peer, idleCpu / ((System.nanoTime() - idleNanos) / 1e9));
    }
    double idle = idleCpuMillisPerSecond.getOrDefault(peer, 0.0);
    Steal.Measured<CpuWindow> measured =
        steal.measure(
            () -> {
              ServerStats before = ServerStats.fetch(client, port);
              CpuClock.ProcessCpu cpu = CpuClock.of(server.pid());
              long start = System.nanoTime();
              RateRun run = client.openLoop(port, load, profile.cpuRate(), profile.measure());
              cpu = CpuClock.of(server.pid()).minus(cpu);
              ServerStats after = ServerStats.fetch(client, port);
              return new CpuWindow(run, cpu, before, after, (System.nanoTime() - start) / 1e9);
            });
    CpuWindow w = measured.value();
    RateRun run = w.run();
    long answered = Math.max(1, run.ok());
    double cpuNanos =
        w.cpu().known()
            ? w.cpu().totalNanos()
            : w.after().processCpuNanos() - w.before().processCpuNanos();
    // The JIT compiler threads' CPU time: taken off, what is left is the steady-state cost, which
    // a long run converges to.
    double jitNanos = w.cpu().known() ? w.cpu().compilerNanos() : 0;
    double perRequest = cpuNanos / 1000.0 / answered;
    double netOfJit = (cpuNanos - jitNanos) / 1000.0 / answered;
    double allocated =
        (w.after().allocatedBytes() - w.before().allocatedBytes()) / (double) answered;
    PhaseLag lag = PhaseLag.of(run);
    results.cpu.add(
        new CpuRow(
            peer,
            round,
            profile.cpuRate(),
            run.achievedRate(),
            run.ok(),
            run.errors(),
            perRequest,
            netOfJit,
            idle,
            (cpuNanos - idle * 1e6 * w.seconds()) / 1000.0 / answered,
            allocated,
            Math.round(jitNanos / 1e6),
            w.after().gcPauseMillis() - w.before().gcPauseMillis(),
            lag,
            measured.stealPercent()));
    return Report.fmt(
        "%.0f µs CPU/request (%.0f without JIT), %s/request, lag p99 %s%s%s",
        perRequest,
        netOfJit,
        Report.bytes(allocated),
        Report.millis(lag.p99Millis()),
        measured.note(),
        run.errors() > 0 ? ", " + run.errors() + " errors" : "");
  }

  /** Open loop at a fixed rate: latency percentiles, corrected for coordinated omission. */
  String latency(
      LoadGenerator client, Peer peer, int port, long size, int rate, int round, Results results)
      throws Exception {
    Load load = new Load("GET", "/bytes?size=" + size, null);
    if (round == 1) {
      client.openLoop(port, load, rate, profile.warmup());
    }
    Steal.Measured<RateRun> measured =
        steal.measure(() -> client.openLoop(port, load, rate, profile.measure()));
    RateRun run = measured.value();
    Percentiles p = Percentiles.of(run.latency());
    PhaseLag lag = PhaseLag.of(run);
    results.latency.add(
        new LatencyRow(
            peer.id,
            round,
            size,
            rate,
            run.achievedRate(),
            run.sent(),
            run.ok(),
            run.errors(),
            p,
            run.maxSendLagMicros(),
            lag,
            measured.stealPercent()));
    return Report.fmt(
        "p50 %.2f / p99 %.2f / max %.1f ms, %.0f/s, lag p99 %s%s%s%s",
        p.p50(),
        p.p99(),
        p.max(),
        run.achievedRate(),
        Report.millis(lag.p99Millis()),
        lag.measurable() ? "" : " (not measurable)",
        measured.note(),
        run.errors() > 0 ? ", " + run.errors() + " errors" : "");
  }

  /** A closed-loop peak run and the server's CPU over it. */
  record PeakRun(RateRun run, CpuClock.ProcessCpu serverCpu) {
    /**
     * {@code load} closed loop for {@code time}, the server {@code pid}'s CPU measured around it.
     */
    static PeakRun of(LoadGenerator client, long pid, int port, Load load, Duration time) {
      CpuClock.ProcessCpu before = CpuClock.of(pid);
      RateRun run = client.closedLoop(port, load, LoadGenerator.CLOSED_LOOP_CONNECTIONS, time);
      return new PeakRun(run, CpuClock.of(pid).minus(before));
    }
  }

  /**
   * Small responses: the closed-loop peak, then the highest fixed rate with p99 under the bound,
   * searched down from the peak (not in the quick profile: capacity NaN).
   */
  CapacityRound capacity(LoadGenerator client, ServerProcess server, int port, int round)
      throws Exception {
    Load load = new Load("GET", "/hello", null);
    if (round == 1) {
      warmUp(client, server.pid(), port, load, profile.warmupTime());
    }
    Steal.Measured<PeakRun> measured =
        steal.measure(() -> PeakRun.of(client, server.pid(), port, load, profile.peakTime()));
    RateRun peak = measured.value().run();
    CpuClock.ProcessCpu cpu = measured.value().serverCpu();
    double answered = peak.ok() + peak.errors();
    CapacitySearch.Found found =
        CapacitySearch.search(
            peak.achievedRate(),
            profile.capacityFractions(),
            profile.capacityRefinements(),
            rate -> capacityStep(client, port, load, rate));
    return new CapacityRound(
        round,
        peak.achievedRate(),
        peak.latency().getValueAtPercentile(99) / 1000.0,
        profile.resolvesCapacity() ? found.capacityRate() : Double.NaN,
        cpu.microsPerRequest(answered, true),
        cpu.microsPerRequest(answered, false),
        cpu.known() ? cpu.compilerNanos() / 1e6 : Double.NaN,
        peak.generatorCpuMicrosPerRequest(),
        measured.stealPercent(),
        found.steps());
  }

  /**
   * Closed-loop load, unrecorded, in one-second slices until the server has settled: two slices in
   * a row agree within 10 % and, where its threads can be read, its JIT compiler threads used less
   * than a tenth of its CPU in the last slice; at least {@code least}, at most five times that (the
   * compilers settle at very different speeds on a quiet and a busy machine). Returns the last
   * slice's rate.
   */
  static double warmUp(LoadGenerator client, long pid, int port, Load load, Duration least)
      throws Exception {
    int connections = LoadGenerator.CLOSED_LOOP_CONNECTIONS;
    return warmUp(
        pid, least, () -> client.closedLoop(port, load, connections, ONE_SECOND).achievedRate());
  }

  /** {@link #warmUp} with {@code slice}, a one-second run that returns its rate. */
  static double warmUp(long pid, Duration least, Callable<Double> slice) throws Exception {
    long start = System.nanoTime();
    double previous = -1;
    while (true) {
      CpuClock.ProcessCpu before = CpuClock.of(pid);
      double rate = slice.call();
      CpuClock.ProcessCpu cpu = CpuClock.of(pid).minus(before);
      long elapsed = System.nanoTime() - start;
      boolean jitSettled =
          !cpu.known() || cpu.compilerNanos() < 0.1 * Math.max(1, cpu.totalNanos());
      boolean settled = jitSettled && previous > 0 && Math.abs(rate - previous) <= 0.1 * previous;
      if ((settled && elapsed >= least.toNanos()) || elapsed >= 5 * least.toNanos()) {
        return rate;
      }
      previous = rate;
    }
  }

  private CapacityStep capacityStep(LoadGenerator client, int port, Load load, double rate)
      throws Exception {
    Steal.Measured<RateRun> measured =
        steal.measure(
            () -> {
              client.openLoop(port, load, rate, profile.capacityWarmup());
              RateRun run = client.openLoop(port, load, rate, profile.capacityStep());
              Thread.sleep(100); // let whatever queued drain before the next run
              return run;
            });
    RateRun run = measured.value();
    double p99 = run.p99Millis();
    return new CapacityStep(
        rate,
        run.achievedRate(),
        p99,
        run.lagP99Millis(),
        run.errors(),
        CapacitySearch.passes(rate, run.achievedRate(), p99, run.errors(), p99BoundMillis),
        measured.stealPercent(),
        measured.attempts());
  }
}
