package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.Results.CalibrationRow;
import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.CapacityStep;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.Percentiles;
import dev.aerun.bench.Results.PhaseLag;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scenarios that time the server, one round at a time (the caller interleaves the peers):
 * server CPU per request at a fixed rate, latency at a fixed rate, and capacity (closed-loop peak
 * throughput, then the highest fixed rate whose p99 stays under the bound). A peer's first round
 * warms it up first; later rounds find it warm. Each timed phase goes through {@link Steal}.
 *
 * <p>And the scenarios that load {@code GET /hello} closed loop with 16 connections from other load
 * generators, interleaved round by round, each run with the generator's and the server's CPU per
 * request:
 *
 * <ul>
 *   <li>{@code calibrate} ({@code --calibrate}): the built-in generator and {@code wrk -t1 -c16}
 *       against the same server. Calibrated when the built-in median peak is within 15 % of wrk's;
 *       "not calibrated" without {@code wrk} on the PATH.
 *   <li>{@code h2c-peak} ({@code --h2c-peak}): the built-in generator speaks HTTP/1.1 only, so
 *       {@code h2load} (nghttp2: h2c with prior knowledge, one stream per connection) measures the
 *       peak over HTTP/2 cleartext and {@code wrk} the same peer's over HTTP/1.1.
 * </ul>
 */
final class TimingScenarios {
  static final Duration ONE_SECOND = Duration.ofSeconds(1);
  static final String H2C = "h2load (h2c)";
  static final String HTTP1 = "wrk (HTTP/1.1)";
  private static final Pattern WRK_RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in");
  private static final Pattern H2LOAD_DONE =
      Pattern.compile("requests: \\d+ total, \\d+ started, (\\d+) done, (\\d+) succeeded");
  private static final Pattern H2LOAD_TIME = Pattern.compile("finished in ([0-9.]+)(ms|s),");
  private static final Load HELLO = new Load("GET", "/hello", null);

  private final Profile.Timed timed;
  private final Profile.Capacity capacity;
  private final double p99BoundMillis;

  /** 1 KiB in, 32 KiB out, compressed if the options ask for it. */
  final Load cpuLoad;

  private final Steal steal;
  private final Map<String, Double> idleCpuMillisPerSecond = new HashMap<>();

  TimingScenarios(BenchOptions options, byte[] cpuBody, Steal steal) {
    this.timed = options.profile().timed();
    this.capacity = options.profile().capacity();
    this.p99BoundMillis = options.p99BoundMillis();
    this.cpuLoad = new Load("POST", "/bytes?size=" + 32 * 1024, cpuBody, options.acceptEncoding());
    this.steal = steal;
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
    Load load = cpuLoad;
    String peer = server.peer().id;
    if (round == 1) {
      client.openLoop(port, load, timed.cpuRate(), timed.warmup());
      // Idle after the warm-up, when the JIT compilers have mostly settled.
      ServerStats idleStart = ServerStats.fetch(client, port);
      long idleNanos = System.nanoTime();
      Thread.sleep(timed.idle().toMillis());
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
              RateRun run = client.openLoop(port, load, timed.cpuRate(), timed.measure());
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
            timed.cpuRate(),
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
      client.openLoop(port, load, rate, timed.warmup());
    }
    Steal.Measured<RateRun> measured =
        steal.measure(() -> client.openLoop(port, load, rate, timed.measure()));
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
    Load load = HELLO;
    if (round == 1) {
      warmUp(client, server.pid(), port, load, capacity.warmupTime());
    }
    Steal.Measured<PeakRun> measured =
        steal.measure(() -> PeakRun.of(client, server.pid(), port, load, capacity.peakTime()));
    RateRun peak = measured.value().run();
    CpuClock.ProcessCpu cpu = measured.value().serverCpu();
    double answered = peak.ok() + peak.errors();
    CapacitySearch.Found found =
        CapacitySearch.search(
            peak.achievedRate(),
            capacity.fractions(),
            capacity.refinements(),
            rate -> capacityStep(client, port, load, rate));
    return new CapacityRound(
        round,
        peak.achievedRate(),
        peak.latency().getValueAtPercentile(99) / 1000.0,
        capacity.resolved() ? found.capacityRate() : Double.NaN,
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
              client.openLoop(port, load, rate, capacity.warmup());
              RateRun run = client.openLoop(port, load, rate, capacity.step());
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

  // ---- Other load generators: --calibrate, --h2c-peak -------------------------------------------

  /** One calibration round: the built-in closed loop, then wrk if it is on the PATH. */
  String calibrate(LoadGenerator client, ServerProcess server, int round, Results results)
      throws Exception {
    int port = server.awaitPort();
    Duration time = capacity.peakTime();
    if (round == 1) {
      warmUp(client, server.pid(), port, HELLO, capacity.warmupTime());
    }
    PeakRun peak = PeakRun.of(client, server.pid(), port, HELLO, time);
    RateRun run = peak.run();
    double serverCpu = peak.serverCpu().microsPerRequest(run.ok() + run.errors(), true);
    String peer = server.peer().id;
    double generatorCpu = run.generatorCpuMicrosPerRequest();
    CalibrationRow builtIn =
        new CalibrationRow(peer, round, "built-in", run.achievedRate(), generatorCpu, serverCpu);
    results.calibration.add(builtIn);
    if (findOnPath("wrk") == null) {
      return line(builtIn);
    }
    CalibrationRow byWrk = external("wrk", server, time, round);
    results.calibration.add(byWrk);
    return line(builtIn) + "; wrk " + line(byWrk);
  }

  /**
   * One h2c-peak round: h2load over h2c, then wrk over HTTP/1.1; the first round is preceded by a
   * warm-up of both protocols' code paths.
   */
  String h2cPeak(LoadGenerator client, ServerProcess server, int round, Results results)
      throws Exception {
    Duration time = capacity.peakTime();
    if (round == 1) {
      warmUp(client, server.pid(), server.awaitPort(), HELLO, capacity.warmupTime());
      // A peer with more code on its request path (the runtime's handlers) is warmed up over h2c
      // too: one peak-length run left it half compiled, looking slower than it is.
      Duration second = ONE_SECOND;
      warmUp(
          server.pid(), capacity.warmupTime(), () -> external(H2C, server, second, round).rate());
    }
    CalibrationRow h2c = external(H2C, server, time, round);
    CalibrationRow http1 = external(HTTP1, server, time, round);
    results.h2cPeak.addAll(List.of(h2c, http1));
    return "h2c " + line(h2c) + "; HTTP/1.1 " + line(http1);
  }

  /**
   * One closed-loop run of {@code generator} ({@code wrk}, {@link #H2C} or {@link #HTTP1}) on
   * {@code GET /hello} for {@code time}, with its CPU per request (a reaped child of this JVM) and
   * the server's.
   */
  private static CalibrationRow external(
      String generator, ServerProcess server, Duration time, int round) throws Exception {
    boolean h2load = generator.equals(H2C);
    String tool = findOnPath(h2load ? "h2load" : "wrk");
    if (tool == null) {
      throw new IllegalStateException(
          (h2load ? "h2load (Debian: nghttp2-client)" : "wrk") + " is not on the PATH");
    }
    String url = "http://127.0.0.1:" + server.awaitPort() + "/hello";
    String seconds = String.valueOf(Math.max(1, time.toSeconds()));
    String connections = "-c" + LoadGenerator.CLOSED_LOOP_CONNECTIONS;
    List<String> command =
        h2load
            ? List.of(tool, "-t1", connections, "-m1", "-D" + seconds, url)
            : List.of(tool, "-t1", connections, "-d" + seconds + "s", url);
    long childrenBefore = childrenCpuNanos();
    CpuClock.ProcessCpu before = CpuClock.of(server.pid());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(time.toSeconds() + 60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(tool + " did not end");
    }
    CpuClock.ProcessCpu serverCpu = CpuClock.of(server.pid()).minus(before);
    long generatorCpu = childrenCpuNanos() - childrenBefore;
    Matcher requests = (h2load ? H2LOAD_DONE : WRK_REQUESTS).matcher(text);
    Matcher rate = (h2load ? H2LOAD_TIME : WRK_RATE).matcher(text);
    if (process.exitValue() != 0 || !requests.find() || !rate.find()) {
      throw new IllegalStateException(tool + " failed:\n" + text);
    }
    if (h2load && !requests.group(1).equals(requests.group(2))) {
      throw new IllegalStateException("h2load: not every request succeeded:\n" + text);
    }
    long n = Math.max(1, Long.parseLong(requests.group(h2load ? 2 : 1)));
    double perSecond = Double.parseDouble(rate.group(1));
    if (h2load) { // h2load says how long it took, wrk the rate
      perSecond = n / (perSecond / (rate.group(2).equals("ms") ? 1000 : 1));
    }
    return new CalibrationRow(
        server.peer().id,
        round,
        generator,
        perSecond,
        generatorCpu < 0 ? Double.NaN : generatorCpu / 1000.0 / n,
        serverCpu.microsPerRequest(n, true));
  }

  /** The verdict on a calibration's rows (none: not run), with the ratio of the median peaks. */
  static String verdict(List<CalibrationRow> rows, boolean wrkOnPath) {
    double ratio = rate(rows, "built-in").median() / rate(rows, "wrk").median();
    if (!wrkOnPath) {
      return "not calibrated: wrk is not on the PATH (benchmarks/bin/install-wrk.sh"
          + (rows.isEmpty() ? ", then --calibrate)" : " installs it)");
    }
    if (rows.isEmpty()) {
      return "calibrate against wrk with --calibrate";
    }
    String ratioText = Report.fmt(" (built-in / wrk median peak %.2f)", ratio);
    return ratio >= 0.85
        ? "calibrated: the built-in peak is within 15 % of wrk's" + ratioText
        : "NOT calibrated: the built-in peak is more than 15 % below wrk's" + ratioText;
  }

  static Stats.Spread rate(List<CalibrationRow> rows, String generator) {
    return Stats.spread(
        rows.stream().filter(r -> r.generator().equals(generator)).map(r -> r.rate()).toList());
  }

  /** CPU time of this JVM's children that ended and were waited for (cutime + cstime). */
  static long childrenCpuNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      return (CpuClock.statField(stat, 16) + CpuClock.statField(stat, 17))
          * CpuClock.NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static String findOnPath(String name) {
    String path = System.getenv("PATH");
    for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(candidate) && Files.isRegularFile(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  private static String line(CalibrationRow row) {
    return Report.fmt(
        "%.0f/s, generator %.1f µs/request, server %.1f µs/request",
        row.rate(), row.generatorCpuMicrosPerRequest(), row.serverCpuMicrosPerRequest());
  }
}
