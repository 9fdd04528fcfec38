package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.aerun.bench.LoadGenerator.ClosedRun;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.Stats.Spread;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --calibrate}: the built-in load generator and {@code wrk} against the same bare Jetty
 * (EE10 bench app, {@code GET /hello}), in one run, interleaved, with the same connections and
 * duration, each with the generator's and the server's CPU per request. Calibrated when the
 * built-in median peak is within 15 % of wrk's; "not calibrated" without {@code wrk} on the PATH.
 * Never part of {@code mvn verify}.
 */
final class Calibration {
  private static final Pattern WRK_RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in");

  private Calibration() {}

  /** One measured run of one generator ({@code built-in} or {@code wrk}); rate in responses/s. */
  record Sample(
      String generator,
      int round,
      double rate,
      double generatorCpuMicrosPerRequest,
      double serverCpuMicrosPerRequest) {}

  /** What {@code calibration.json} holds. */
  record Outcome(
      String verdict,
      String wrk,
      int connections,
      double seconds,
      double builtInMedianRate,
      double wrkMedianRate,
      double ratio,
      Spread builtInRate,
      Spread wrkRate,
      Spread builtInCpuMicrosPerRequest,
      Spread wrkCpuMicrosPerRequest,
      Spread serverCpuMicrosPerRequest,
      double loadAverageBefore,
      double loadAverageAfter,
      List<Sample> samples) {}

  /** Runs the calibration; writes {@code calibration.md} and {@code calibration.json}. */
  static Outcome run(BenchOptions options, PrintStream console) throws Exception {
    int connections = LoadGenerator.CLOSED_LOOP_CONNECTIONS;
    int rounds = options.profile().rounds();
    Duration time = options.profile().peakTime();
    Path out = Files.createDirectories(options.out());
    double loadBefore = loadAverage();
    String wrk = findOnPath("wrk");
    Progress progress = new Progress(console, 2 + rounds * (wrk == null ? 1 : 2));
    List<Sample> samples = new ArrayList<>();
    ServerProcess.Layout layout = ServerProcess.Layout.of(options.repo());
    layout.check(List.of("ee10"));
    Load hello = new Load("GET", "/hello", null);
    Path logs = Files.createDirectories(out.resolve("logs"));
    try (LoadGenerator client = new LoadGenerator();
        ServerProcess server =
            ServerProcess.start(
                Peer.BARE,
                "ee10",
                layout,
                options.java(),
                options.jvmFlags(),
                logs,
                "calibrate-bare")) {
      progress.begin("bare ee10: start");
      server.awaitFirstOk("/hello");
      int port = server.awaitPort();
      progress.end("port " + port);
      progress.begin("warm-up (built-in, closed loop)");
      Duration warmup = options.profile().warmupTime();
      double warm = TimingScenarios.warmUp(client, server.pid(), port, hello, warmup);
      progress.end(String.format(Locale.ROOT, "%.0f/s", warm));
      for (int round = 1; round <= rounds; round++) {
        progress.begin("round " + round + ": built-in");
        CpuClock.ProcessCpu before = CpuClock.of(server.pid());
        ClosedRun run = client.closedLoop(port, hello, connections, time);
        double serverCpu =
            perRequest(CpuClock.of(server.pid()).minus(before), run.ok() + run.errors());
        samples.add(
            new Sample(
                "built-in", round, run.rate(), run.generatorCpuMicrosPerRequest(), serverCpu));
        progress.end(line(samples.get(samples.size() - 1)));
        if (wrk != null) {
          progress.begin("round " + round + ": wrk");
          samples.add(wrk(wrk, server, port, connections, time, round));
          progress.end(line(samples.get(samples.size() - 1)));
        }
      }
    }
    Outcome outcome = outcome(samples, wrk, connections, time, loadBefore, loadAverage());
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(out.resolve("calibration.json").toFile(), outcome);
    String md = markdown(outcome);
    Files.writeString(out.resolve("calibration.md"), md);
    console.print(md);
    return outcome;
  }

  /** The server's CPU microseconds per request over a window; NaN where not known. */
  private static double perRequest(CpuClock.ProcessCpu window, long requests) {
    return window.known() ? window.totalNanos() / 1000.0 / Math.max(1, requests) : Double.NaN;
  }

  /** The verdict and medians of a set of samples. */
  static Outcome outcome(
      List<Sample> samples,
      String wrk,
      int connections,
      Duration time,
      double loadBefore,
      double loadAfter) {
    Spread b = figure(samples, "built-in", Sample::rate);
    Spread w = figure(samples, "wrk", Sample::rate);
    double ratio = w.known() ? b.median() / w.median() : Double.NaN;
    String verdict =
        wrk == null
            ? "not calibrated: wrk is not on the PATH (benchmarks/bin/install-wrk.sh installs it)"
            : ratio >= 0.85
                ? "calibrated: the built-in peak is within 15 % of wrk's"
                : "NOT calibrated: the built-in peak is more than 15 % below wrk's";
    return new Outcome(
        verdict,
        wrk,
        connections,
        time.toMillis() / 1000.0,
        b.median(),
        w.median(),
        ratio,
        b,
        w,
        figure(samples, "built-in", Sample::generatorCpuMicrosPerRequest),
        figure(samples, "wrk", Sample::generatorCpuMicrosPerRequest),
        figure(samples, null, Sample::serverCpuMicrosPerRequest),
        loadBefore,
        loadAfter,
        samples);
  }

  /** A figure of one generator's samples (of all, for {@code null}). */
  private static Spread figure(List<Sample> samples, String generator, ToDoubleFunction<Sample> f) {
    return Stats.spread(
        samples.stream()
            .filter(s -> generator == null || s.generator().equals(generator))
            .map(f::applyAsDouble)
            .toList());
  }

  /** {@code wrk -t1 -cN -dT} against the server; its CPU from this JVM's reaped children. */
  private static Sample wrk(
      String wrk, ServerProcess server, int port, int connections, Duration time, int round)
      throws IOException, InterruptedException {
    long childrenBefore = childrenCpuNanos();
    CpuClock.ProcessCpu before = CpuClock.of(server.pid());
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
    CpuClock.ProcessCpu serverCpu = CpuClock.of(server.pid()).minus(before);
    long wrkCpu = childrenCpuNanos() - childrenBefore;
    Matcher rate = WRK_RATE.matcher(text);
    Matcher requests = WRK_REQUESTS.matcher(text);
    if (process.exitValue() != 0 || !rate.find() || !requests.find()) {
      throw new IllegalStateException("wrk failed:\n" + text);
    }
    long n = Math.max(1, Long.parseLong(requests.group(1)));
    double generatorCpu = wrkCpu < 0 ? Double.NaN : wrkCpu / 1000.0 / n;
    return new Sample(
        "wrk", round, Double.parseDouble(rate.group(1)), generatorCpu, perRequest(serverCpu, n));
  }

  /** CPU time of this JVM's children that ended and were waited for (cutime + cstime). */
  private static long childrenCpuNanos() {
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

  private static String line(Sample s) {
    return String.format(
        Locale.ROOT,
        "%.0f/s, generator %.1f µs/request, server %.1f µs/request",
        s.rate(),
        s.generatorCpuMicrosPerRequest(),
        s.serverCpuMicrosPerRequest());
  }

  static String markdown(Outcome o) {
    return String.format(
        Locale.ROOT,
        "# Load generator calibration%n%n**%s**%n%nBare Jetty, EE10 bench app, `GET /hello`,"
            + " closed loop, %d keep-alive connections, %.0f s per run, built-in and wrk"
            + " interleaved; load average %.2f before, %.2f after.%n%n"
            + "| Figure | built-in | wrk |%n|---|---:|---:|%n"
            + "| Peak (req/s), median (min–max) | %s | %s |%n"
            + "| Generator CPU per request (µs) | %s | %s |%n%n"
            + "Server CPU per request (all runs): %s µs. Built-in / wrk peak: %s.%n",
        o.verdict(),
        o.connections(),
        o.seconds(),
        o.loadAverageBefore(),
        o.loadAverageAfter(),
        o.builtInRate().format("%.0f"),
        o.wrkRate().format("%.0f"),
        o.builtInCpuMicrosPerRequest().format("%.1f"),
        o.wrkCpuMicrosPerRequest().format("%.1f"),
        o.serverCpuMicrosPerRequest().format("%.1f"),
        Double.isNaN(o.ratio()) ? "–" : String.format(Locale.ROOT, "%.2f", o.ratio()));
  }

  private static double loadAverage() {
    return Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100)
        / 100.0;
  }
}
