package dev.aerun.bench;

import dev.aerun.bench.LoadGenerator.ClosedRun;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.Results.CalibrationRow;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code calibrate} scenario ({@code --calibrate}): the built-in load generator and {@code wrk
 * -t1 -c16} against the same server ({@code GET /hello}, closed loop), interleaved round by round,
 * each with the generator's and the server's CPU per request. Calibrated when the built-in median
 * peak is within 15 % of wrk's; "not calibrated" without {@code wrk} on the PATH.
 */
final class Calibration {
  private static final Pattern WRK_RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in");
  private static final Load HELLO = new Load("GET", "/hello", null);

  private Calibration() {}

  /** One round: the built-in closed loop, then wrk if it is on the PATH. */
  static String round(
      LoadGenerator client, ServerProcess server, Profile profile, int round, Results results)
      throws Exception {
    int port = server.awaitPort();
    int connections = LoadGenerator.CLOSED_LOOP_CONNECTIONS;
    Duration time = profile.peakTime();
    if (round == 1) {
      TimingScenarios.warmUp(client, server.pid(), port, HELLO, profile.warmupTime());
    }
    CpuClock.ProcessCpu before = CpuClock.of(server.pid());
    ClosedRun run = client.closedLoop(port, HELLO, connections, time);
    double serverCpu = perRequest(CpuClock.of(server.pid()).minus(before), run.ok() + run.errors());
    String peer = server.peer().id;
    CalibrationRow builtIn =
        new CalibrationRow(
            peer, round, "built-in", run.rate(), run.generatorCpuMicrosPerRequest(), serverCpu);
    results.calibration.add(builtIn);
    String wrk = findOnPath("wrk");
    if (wrk == null) {
      return line(builtIn);
    }
    long childrenBefore = childrenCpuNanos();
    before = CpuClock.of(server.pid());
    String seconds = "-d" + Math.max(1, time.toSeconds()) + "s";
    String url = "http://127.0.0.1:" + port + "/hello";
    Process process =
        new ProcessBuilder(wrk, "-t1", "-c" + connections, seconds, url)
            .redirectErrorStream(true)
            .start();
    String text = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(time.toSeconds() + 60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("wrk did not end");
    }
    CpuClock.ProcessCpu wrkServerCpu = CpuClock.of(server.pid()).minus(before);
    long wrkCpu = childrenCpuNanos() - childrenBefore; // wrk's, a reaped child of this JVM
    Matcher rate = WRK_RATE.matcher(text);
    Matcher requests = WRK_REQUESTS.matcher(text);
    if (process.exitValue() != 0 || !rate.find() || !requests.find()) {
      throw new IllegalStateException("wrk failed:\n" + text);
    }
    long n = Math.max(1, Long.parseLong(requests.group(1)));
    CalibrationRow byWrk =
        new CalibrationRow(
            peer,
            round,
            "wrk",
            Double.parseDouble(rate.group(1)),
            wrkCpu < 0 ? Double.NaN : wrkCpu / 1000.0 / n,
            perRequest(wrkServerCpu, n));
    results.calibration.add(byWrk);
    return line(builtIn) + "; wrk " + line(byWrk);
  }

  /** The verdict on a calibration's rows, with the ratio of the median peaks. */
  static String verdict(List<CalibrationRow> rows, boolean wrkOnPath) {
    double ratio = rate(rows, "built-in").median() / rate(rows, "wrk").median();
    if (!wrkOnPath) {
      return "not calibrated: wrk is not on the PATH (benchmarks/bin/install-wrk.sh installs it)";
    }
    String ratioText = String.format(Locale.ROOT, " (built-in / wrk median peak %.2f)", ratio);
    return ratio >= 0.85
        ? "calibrated: the built-in peak is within 15 % of wrk's" + ratioText
        : "NOT calibrated: the built-in peak is more than 15 % below wrk's" + ratioText;
  }

  static Stats.Spread rate(List<CalibrationRow> rows, String generator) {
    return Stats.spread(
        rows.stream().filter(r -> r.generator().equals(generator)).map(r -> r.rate()).toList());
  }

  /** The server's CPU microseconds per request over a window; NaN where not known. */
  private static double perRequest(CpuClock.ProcessCpu window, long requests) {
    return window.known() ? window.totalNanos() / 1000.0 / Math.max(1, requests) : Double.NaN;
  }

  /** CPU time of this JVM's children that ended and were waited for (cutime + cstime). */
  static long childrenCpuNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10_000_000L; // fields 16 and 17
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
    return String.format(
        Locale.ROOT,
        "%.0f/s, generator %.1f µs/request, server %.1f µs/request",
        row.rate(),
        row.generatorCpuMicrosPerRequest(),
        row.serverCpuMicrosPerRequest());
  }
}
