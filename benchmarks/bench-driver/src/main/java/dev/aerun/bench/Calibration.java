package dev.aerun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.aerun.bench.LoadGenerator.ClosedRun;
import dev.aerun.bench.LoadGenerator.Load;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --calibrate}: the built-in load generator and {@code wrk} against the same bare Jetty
 * (EE10 bench app, {@code GET /hello}), in one run, interleaved (built-in, wrk, built-in, wrk, …),
 * with the same connections and duration. The built-in peak passes when its median is within 15 %
 * of wrk's. Also measured: the CPU per request of each generator and of the server, so that the
 * generator's cost can be read beside the server's. Without {@code wrk} on the PATH the report says
 * "not calibrated". Never part of {@code mvn verify}.
 */
final class Calibration {
  /** The largest shortfall of the built-in peak against wrk's that still calibrates. */
  static final double TOLERANCE = 0.15;

  private static final Pattern WRK_RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in");

  private Calibration() {}

  /**
   * One measured run of one generator.
   *
   * @param generator {@code built-in} or {@code wrk}
   * @param rate responses per second
   * @param generatorCpuMicrosPerRequest the generator process's CPU per request
   * @param serverCpuMicrosPerRequest the server process's CPU per request
   */
  record Sample(
      String generator,
      int round,
      double rate,
      double generatorCpuMicrosPerRequest,
      double serverCpuMicrosPerRequest) {}

  /** What {@code results/calibration.json} holds. */
  record Outcome(
      String verdict,
      String wrk,
      int connections,
      double seconds,
      double builtInMedianRate,
      double wrkMedianRate,
      double ratio,
      Stats.Spread builtInRate,
      Stats.Spread wrkRate,
      Stats.Spread builtInCpuMicrosPerRequest,
      Stats.Spread wrkCpuMicrosPerRequest,
      Stats.Spread serverCpuMicrosPerRequest,
      double loadAverageBefore,
      double loadAverageAfter,
      List<Sample> samples) {}

  /** Runs the calibration; writes {@code calibration.md} and {@code calibration.json}. */
  static Outcome run(BenchOptions options, PrintStream console) throws Exception {
    int connections = LoadGenerator.CLOSED_LOOP_CONNECTIONS;
    int rounds = options.profile().rounds();
    Duration time = options.profile().peakTime();
    Path out = Files.createDirectories(options.out());
    Path logs = Files.createDirectories(out.resolve("logs"));
    double loadBefore = loadAverage();
    String wrk = findOnPath("wrk");
    Progress progress = new Progress(console, 2 + rounds * (wrk == null ? 1 : 2));
    List<Sample> samples = new ArrayList<>();
    ServerProcess.Layout layout = ServerProcess.Layout.of(options.repo());
    layout.check(List.of("ee10"));
    Load hello = new Load("GET", "/hello", null);
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
      double warm =
          TimingScenarios.warmUp(client, server.pid(), port, hello, options.profile().warmupTime());
      progress.end(String.format(Locale.ROOT, "%.0f/s", warm));
      for (int round = 1; round <= rounds; round++) {
        progress.begin("round " + round + ": built-in");
        CpuClock.ProcessCpu before = CpuClock.of(server.pid());
        ClosedRun run = client.closedLoop(port, hello, connections, time);
        CpuClock.ProcessCpu server1 = CpuClock.of(server.pid()).minus(before);
        long answered = Math.max(1, run.ok() + run.errors());
        Sample s =
            new Sample(
                "built-in",
                round,
                run.rate(),
                run.generatorCpuMicrosPerRequest(),
                server1.known() ? server1.totalNanos() / 1000.0 / answered : Double.NaN);
        samples.add(s);
        progress.end(line(s));
        if (wrk != null) {
          progress.begin("round " + round + ": wrk");
          Sample w = wrk(wrk, server, port, connections, time, round);
          samples.add(w);
          progress.end(line(w));
        }
      }
    }
    Outcome outcome = outcome(samples, wrk, connections, time, loadBefore, loadAverage());
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    json.writeValue(out.resolve("calibration.json").toFile(), outcome);
    String md = markdown(outcome);
    Files.writeString(out.resolve("calibration.md"), md);
    console.print(md);
    return outcome;
  }

  /** The verdict and medians of a set of samples. */
  static Outcome outcome(
      List<Sample> samples,
      String wrk,
      int connections,
      Duration time,
      double loadBefore,
      double loadAfter) {
    List<Double> builtIn = rates(samples, "built-in");
    List<Double> wrkRates = rates(samples, "wrk");
    Stats.Spread b = Stats.spread(builtIn);
    Stats.Spread w = Stats.spread(wrkRates);
    double ratio = wrkRates.isEmpty() ? Double.NaN : b.median() / w.median();
    String verdict;
    if (wrk == null) {
      verdict =
          "not calibrated: wrk is not on the PATH (benchmarks/bin/install-wrk.sh installs it)";
    } else if (ratio >= 1 - TOLERANCE) {
      verdict = "calibrated: the built-in peak is within 15 % of wrk's";
    } else {
      verdict = "NOT calibrated: the built-in peak is more than 15 % below wrk's";
    }
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
        Stats.spread(figure(samples, "built-in", Sample::generatorCpuMicrosPerRequest)),
        Stats.spread(figure(samples, "wrk", Sample::generatorCpuMicrosPerRequest)),
        Stats.spread(
            samples.stream()
                .map(Sample::serverCpuMicrosPerRequest)
                .filter(v -> !v.isNaN())
                .toList()),
        loadBefore,
        loadAfter,
        samples);
  }

  private static List<Double> rates(List<Sample> samples, String generator) {
    return figure(samples, generator, Sample::rate);
  }

  private static List<Double> figure(
      List<Sample> samples, String generator, java.util.function.ToDoubleFunction<Sample> f) {
    return samples.stream()
        .filter(s -> s.generator().equals(generator))
        .map(s -> f.applyAsDouble(s))
        .filter(v -> !v.isNaN())
        .toList();
  }

  /** {@code wrk -t1 -cN -dT} against the server; its CPU from this JVM's reaped children. */
  private static Sample wrk(
      String wrk, ServerProcess server, int port, int connections, Duration time, int round)
      throws IOException, InterruptedException {
    long childrenBefore = childrenCpuNanos();
    CpuClock.ProcessCpu before = CpuClock.of(server.pid());
    Process process =
        new ProcessBuilder(
                wrk,
                "-t1",
                "-c" + connections,
                "-d" + Math.max(1, time.toSeconds()) + "s",
                "http://127.0.0.1:" + port + "/hello")
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
    return new Sample(
        "wrk",
        round,
        Double.parseDouble(rate.group(1)),
        wrkCpu < 0 ? Double.NaN : wrkCpu / 1000.0 / n,
        serverCpu.known() ? serverCpu.totalNanos() / 1000.0 / n : Double.NaN);
  }

  /** CPU time of this JVM's children that ended and were waited for (cutime + cstime). */
  static long childrenCpuNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      // fields[0] is field 3: cutime is field 16, cstime field 17.
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static String findOnPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
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
    StringBuilder md = new StringBuilder("# Load generator calibration\n\n");
    md.append("**").append(o.verdict()).append("**\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Bare Jetty, EE10 bench app, `GET /hello`, closed loop, %d keep-alive connections, %.0f"
                + " s per run, built-in and wrk interleaved; load average %.2f before, %.2f"
                + " after.%n%n",
            o.connections(),
            o.seconds(),
            o.loadAverageBefore(),
            o.loadAverageAfter()));
    md.append("| Figure | built-in | wrk |\n|---|---:|---:|\n");
    md.append(
        String.format(
            Locale.ROOT,
            "| Peak (req/s), median (min–max) | %s | %s |%n",
            o.builtInRate().format("%.0f"),
            o.wrkRate().format("%.0f")));
    md.append(
        String.format(
            Locale.ROOT,
            "| Generator CPU per request (µs) | %s | %s |%n",
            o.builtInCpuMicrosPerRequest().format("%.1f"),
            o.wrkCpuMicrosPerRequest().format("%.1f")));
    md.append(
        String.format(
            Locale.ROOT,
            "%nServer CPU per request (all runs): %s µs. Built-in / wrk peak: %s.%n",
            o.serverCpuMicrosPerRequest().format("%.1f"),
            Double.isNaN(o.ratio()) ? "–" : String.format(Locale.ROOT, "%.2f", o.ratio())));
    return md.toString();
  }

  static double loadAverage() {
    return Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100)
        / 100.0;
  }
}
