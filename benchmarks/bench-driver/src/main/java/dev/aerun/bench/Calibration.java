package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.Results.CalibrationRow;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scenarios that load {@code GET /hello} closed loop with 16 connections from other load
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
final class Calibration {
  private static final Pattern WRK_RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in");
  private static final Pattern H2LOAD_DONE =
      Pattern.compile("requests: \\d+ total, \\d+ started, (\\d+) done, (\\d+) succeeded");
  private static final Pattern H2LOAD_TIME = Pattern.compile("finished in ([0-9.]+)(ms|s),");
  private static final Load HELLO = new Load("GET", "/hello", null);
  static final String H2C = "h2load (h2c)";
  static final String HTTP1 = "wrk (HTTP/1.1)";

  private Calibration() {}

  /** One calibration round: the built-in closed loop, then wrk if it is on the PATH. */
  static String round(
      LoadGenerator client, ServerProcess server, Profile profile, int round, Results results)
      throws Exception {
    int port = server.awaitPort();
    Duration time = profile.peakTime();
    if (round == 1) {
      TimingScenarios.warmUp(client, server.pid(), port, HELLO, profile.warmupTime());
    }
    TimingScenarios.PeakRun peak =
        TimingScenarios.PeakRun.of(client, server.pid(), port, HELLO, time);
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
  static String h2cRound(
      LoadGenerator client, ServerProcess server, Profile profile, int round, Results results)
      throws Exception {
    Duration time = profile.peakTime();
    if (round == 1) {
      TimingScenarios.warmUp(client, server.pid(), server.awaitPort(), HELLO, profile.warmupTime());
      // A peer with more code on its request path (the runtime's handlers) is warmed up over h2c
      // too: one peak-length run left it half compiled, looking slower than it is.
      Duration second = TimingScenarios.ONE_SECOND;
      TimingScenarios.warmUp(
          server.pid(), profile.warmupTime(), () -> external(H2C, server, second, round).rate());
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
