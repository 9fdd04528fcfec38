package dev.aerun.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.bench.LoadGenerator.Exchange;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import dev.aerun.bench.Results.CapacityRow;
import dev.aerun.bench.Results.CapacityStep;
import dev.aerun.bench.Results.ColdStartRow;
import dev.aerun.bench.Results.CpuRow;
import dev.aerun.bench.Results.EchoRow;
import dev.aerun.bench.Results.Failure;
import dev.aerun.bench.Results.LatencyRow;
import dev.aerun.bench.Results.Percentiles;
import dev.aerun.bench.Results.ProcessRow;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * One benchmark run: for each EE version and each peer, a server JVM started fresh, measured
 * scenario by scenario from this JVM, then stopped; then the report. A peer that fails is recorded
 * as a failure and the run goes on with the next one.
 */
final class Bench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long KIB = 1024;
  private static final long MIB = 1024 * 1024;

  private final BenchOptions options;
  private final Profile profile;
  private final ServerProcess.Layout layout;
  private final Results results = new Results();
  private final Map<String, List<Double>> coldStartMillis = new LinkedHashMap<>();
  private final Map<String, List<Long>> coldStartRss = new LinkedHashMap<>();
  private final Map<Long, byte[]> bodies = new LinkedHashMap<>();
  private final List<Path> jfrRecordings = new ArrayList<>();
  private final Path workDir;
  private Progress progress;
  private String jettyVersion = "?";

  private Bench(BenchOptions options) throws IOException {
    this.options = options;
    this.profile = options.profile();
    this.layout = ServerProcess.Layout.of(options.repo());
    this.workDir = Files.createDirectories(options.out().resolve("logs")).toAbsolutePath();
  }

  /** Runs the benchmarks of {@code options}; returns the results folder. */
  static Path run(BenchOptions options, String commandLine, PrintStream console) throws Exception {
    Bench bench = new Bench(options);
    bench.layout.check(options.ees());
    Files.createDirectories(options.out());
    bench.progress = new Progress(console, bench.countSteps());
    long start = System.nanoTime();
    Instant startedAt = Instant.now();
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    bench.progress.note(
        "profile "
            + options.profile().name()
            + ", peers "
            + options.peers().stream().map(p -> p.id).toList()
            + ", results in "
            + options.out().toAbsolutePath());
    try (LoadGenerator client = new LoadGenerator()) {
      bench.measureAll(client);
    }
    bench.results.meta =
        bench.meta(startedAt, (System.nanoTime() - start) / 1e9, commandLine, loadBefore);
    bench.summariseJfr();
    Report.write(bench.results, options, options.out());
    bench.progress.note("done: " + options.out().resolve("summary.md"));
    return options.out();
  }

  private int countSteps() {
    int steps = 0;
    for (String ee : options.ees()) {
      boolean ee10 = ee.equals("ee10");
      if (!ee10 && !options.runs(Scenario.ECHO)) {
        continue;
      }
      int perPeer = 1;
      if (options.runs(Scenario.ECHO)) {
        perPeer += options.echoSizes().size();
      }
      if (ee10) {
        perPeer += options.runs(Scenario.CPU) ? 1 : 0;
        perPeer += options.runs(Scenario.LATENCY) ? 2 : 0;
        perPeer += options.runs(Scenario.CAPACITY) ? 1 : 0;
        perPeer += options.jfr() ? 1 : 0;
      }
      steps += perPeer * options.peers().size();
    }
    if (options.runs(Scenario.COLDSTART) && options.ees().contains("ee10")) {
      steps += (profile.coldStarts() - 1) * options.peers().size();
    }
    return steps;
  }

  private void measureAll(LoadGenerator client) throws Exception {
    for (Peer peer : options.peers()) {
      results.peers.add(new Results.PeerInfo(peer.id, peer.label));
    }
    for (String ee : options.ees()) {
      boolean ee10 = ee.equals("ee10");
      if (!ee10 && !options.runs(Scenario.ECHO)) {
        continue;
      }
      for (Peer peer : options.peers()) {
        try {
          measurePeer(client, peer, ee);
        } catch (RuntimeException e) {
          results.failures.add(new Failure(peer.id, ee, "run", String.valueOf(e)));
          progress.note("FAILED: " + peer.id + " " + ee + ": " + e);
        }
      }
    }
    if (options.runs(Scenario.COLDSTART) && options.ees().contains("ee10")) {
      for (int round = 2; round <= profile.coldStarts(); round++) {
        for (Peer peer : options.peers()) {
          progress.begin(peer.id + " ee10: cold start " + round + "/" + profile.coldStarts());
          try (ServerProcess server = start(peer, "ee10", "coldstart-" + round)) {
            long nanos = server.awaitFirstOk("/hello");
            coldStartMillis.get(peer.id).add(nanos / 1e6);
            coldStartRss.get(peer.id).add(server.rssBytes());
            progress.end(String.format(Locale.ROOT, "%.0f ms", nanos / 1e6));
          } catch (Exception e) {
            fail(peer, "ee10", "coldstart", e);
          }
        }
      }
    }
    for (Peer peer : options.peers()) {
      List<Double> millis = coldStartMillis.get(peer.id);
      if (millis != null && !millis.isEmpty()) {
        List<Long> rss = coldStartRss.get(peer.id);
        results.coldStart.add(
            new ColdStartRow(peer.id, millis, median(millis), rss, medianLong(rss)));
      }
    }
  }

  private ServerProcess start(Peer peer, String ee, String what) throws IOException {
    return ServerProcess.start(
        peer,
        ee,
        layout,
        options.java(),
        options.jvmFlags(),
        workDir,
        peer.id + "-" + ee + "-" + what);
  }

  /** One peer on one EE: a fresh server JVM for every scenario that EE runs. */
  private void measurePeer(LoadGenerator client, Peer peer, String ee) {
    boolean ee10 = ee.equals("ee10");
    progress.begin(peer.id + " " + ee + ": start");
    ServerProcess server;
    int port;
    try {
      server = start(peer, ee, "main");
    } catch (Exception e) {
      fail(peer, ee, "start", e);
      return;
    }
    try {
      long nanos = server.awaitFirstOk("/hello");
      port = server.awaitPort();
      jettyVersion = jettyVersion(server.output(), jettyVersion);
      if (ee10 && options.runs(Scenario.COLDSTART)) {
        coldStartMillis.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(nanos / 1e6);
        coldStartRss.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(server.rssBytes());
      }
      progress.end(
          String.format(
              Locale.ROOT,
              "first 200 after %.0f ms, RSS %s",
              nanos / 1e6,
              Report.bytes(server.rssBytes())));
    } catch (Exception e) {
      fail(peer, ee, "start", e);
      server.close();
      return;
    }
    try {
      if (options.runs(Scenario.ECHO)) {
        for (long size : options.echoSizes()) {
          step(peer, ee, "echo " + Report.size(size), () -> echo(client, peer, ee, port, size));
        }
      }
      if (ee10 && options.runs(Scenario.CPU)) {
        step(peer, ee, "cpu 1 KiB in / 32 KiB out", () -> cpu(client, peer, port));
      }
      if (ee10 && options.runs(Scenario.LATENCY)) {
        step(
            peer,
            ee,
            "latency 5 KiB @ " + profile.latencyRate5k() + "/s",
            () -> latency(client, peer, port, 5 * KIB, profile.latencyRate5k()));
        step(
            peer,
            ee,
            "latency 1 MiB @ " + profile.latencyRate1m() + "/s",
            () -> latency(client, peer, port, MIB, profile.latencyRate1m()));
      }
      if (ee10 && options.runs(Scenario.CAPACITY)) {
        step(peer, ee, "capacity (hello, rising rate)", () -> capacity(client, peer, port));
      }
      if (ee10 && options.jfr()) {
        step(peer, ee, "JFR profile, cpu load at 4x rate", () -> jfr(client, server, port));
      }
      int threads = -1;
      try {
        threads = (int) stats(client, port).threads();
      } catch (Exception ignored) {
        // Reported as -1.
      }
      results.processes.add(
          new ProcessRow(
              peer.id,
              ee,
              server.peakRssBytes(),
              threads,
              workDir.getParent().relativize(server.log()).toString()));
    } finally {
      server.close();
      trimLog(server.log());
    }
  }

  /** A scenario step: on failure, recorded, and the peer goes on with the next one. */
  private interface Step {
    String run() throws Exception;
  }

  private void step(Peer peer, String ee, String what, Step step) {
    progress.begin(peer.id + " " + ee + ": " + what);
    try {
      progress.end(step.run());
    } catch (Exception | AssertionError e) {
      fail(peer, ee, what, e);
    }
  }

  private void fail(Peer peer, String ee, String what, Throwable e) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    results.failures.add(new Failure(peer.id, ee, what, message));
    progress.end("FAILED: " + message.lines().findFirst().orElse(""));
  }

  // ---- Scenarios ------------------------------------------------------------------------------

  /** Echo, one request at a time: allocation per request, and the heap after GC mid-request. */
  private String echo(LoadGenerator client, Peer peer, String ee, int port, long size)
      throws Exception {
    byte[] body = bodies.computeIfAbsent(size, Bench::pattern);
    Load load = new Load("POST", "/echo", body);
    for (int i = 0; i < profile.echoWarmup(size); i++) {
      check(client.send(port, load), size);
    }
    int n = profile.echoRequests(size);
    Histogram latency = new Histogram(LoadGenerator.HIGHEST_MICROS, 3);
    // The first stats requests of a server allocate a megabyte of one-time set-up: warm them too,
    // so that the next two readings measure what one stats request costs from then on.
    for (int i = 0; i < 3; i++) {
      stats(client, port);
    }
    ServerStats s0 = stats(client, port);
    ServerStats s1 = stats(client, port);
    for (int i = 0; i < n; i++) {
      Exchange exchange = client.send(port, load);
      check(exchange, size);
      latency.recordValue(Math.min(LoadGenerator.HIGHEST_MICROS, exchange.nanos() / 1000));
    }
    ServerStats s2 = stats(client, port);
    double overhead = s1.allocatedBytes() - s0.allocatedBytes();
    double allocated = (s2.allocatedBytes() - s1.allocatedBytes() - overhead) / n;
    double gcAllocated =
        ((s2.gcFreedBytes() + s2.heapUsed()) - (s1.gcFreedBytes() + s1.heapUsed())) / (double) n;
    double cpuMicros = (s2.processCpuNanos() - s1.processCpuNanos()) / 1000.0 / n;

    List<Long> heap = new ArrayList<>();
    Load measureHeap = new Load("POST", "/echo?heap", body);
    for (int i = 0; i < profile.heapSamples(); i++) {
      check(client.send(port, measureHeap), size);
      heap.add(stats(client, port).heapAfterGc());
    }
    long heapMedian = medianLong(heap);
    // After the same warm-up and requests, so that whatever the server keeps between requests
    // (pooled buffers, caches) is in both figures and only the request's own part differs.
    long heapAtRest = heapAtRest(client, port);
    results.echo.add(
        new EchoRow(
            ee,
            peer.id,
            size,
            n,
            allocated,
            gcAllocated,
            overhead,
            heapMedian,
            heapAtRest,
            heap,
            cpuMicros,
            latency.getValueAtPercentile(50) / 1000.0));
    return String.format(
        Locale.ROOT,
        "%s/request (GC check %s), heap %s",
        Report.bytes(allocated),
        Report.bytes(gcAllocated),
        Report.bytes(heapMedian));
  }

  /** The heap after a full GC at the end of an empty echo: the server's live data at rest. */
  private static long heapAtRest(LoadGenerator client, int port) {
    try {
      Exchange exchange = client.send(port, new Load("POST", "/echo?heap", new byte[0]));
      if (exchange.status() != 200) {
        return -1;
      }
      return stats(client, port).heapAfterGc();
    } catch (Exception e) {
      return -1;
    }
  }

  private static void check(Exchange exchange, long size) {
    if (exchange.status() != 200 || exchange.bytes() != size) {
      throw new IllegalStateException(
          "echo of " + size + " bytes answered " + exchange.status() + " with " + exchange.bytes());
    }
  }

  /** 1 KiB in, 32 KiB out at a fixed rate: server CPU per request. */
  private String cpu(LoadGenerator client, Peer peer, int port) throws Exception {
    Load load = cpuLoad();
    client.openLoop(port, load, profile.cpuRate(), profile.warmup());
    // Idle after the warm-up, when the JIT compilers have mostly settled.
    ServerStats idleStart = stats(client, port);
    long idleNanos = System.nanoTime();
    ServerProcess.sleepMillis(profile.idle().toMillis());
    ServerStats idleEnd = stats(client, port);
    double idleSeconds = (System.nanoTime() - idleNanos) / 1e9;
    double idleCpuMillisPerSecond =
        (idleEnd.processCpuNanos() - idleStart.processCpuNanos()) / 1e6 / idleSeconds;

    ServerStats s1 = stats(client, port);
    long t1 = System.nanoTime();
    RateRun run = client.openLoop(port, load, profile.cpuRate(), profile.measure());
    ServerStats s2 = stats(client, port);
    double seconds = (System.nanoTime() - t1) / 1e9;
    long answered = Math.max(1, run.ok());
    double cpuNanos = s2.processCpuNanos() - s1.processCpuNanos();
    double perRequest = cpuNanos / 1000.0 / answered;
    double net = (cpuNanos - idleCpuMillisPerSecond * 1e6 * seconds) / 1000.0 / answered;
    long jitMillis = s2.jitMillis() - s1.jitMillis();
    // The compilers' time is CPU time of their threads: taken off, what is left is the
    // steady-state cost, which a long run (the reference ran for an hour) converges to.
    double netOfJit = (cpuNanos - jitMillis * 1e6) / 1000.0 / answered;
    double allocated = (s2.allocatedBytes() - s1.allocatedBytes()) / (double) answered;
    results.cpu.add(
        new CpuRow(
            peer.id,
            profile.cpuRate(),
            run.achievedRate(),
            run.ok(),
            run.errors(),
            perRequest,
            netOfJit,
            idleCpuMillisPerSecond,
            net,
            allocated,
            jitMillis,
            s2.gcPauseMillis() - s1.gcPauseMillis()));
    return String.format(
        Locale.ROOT,
        "%.0f µs CPU/request (%.0f without JIT), %s/request%s",
        perRequest,
        netOfJit,
        Report.bytes(allocated),
        run.errors() > 0 ? ", " + run.errors() + " errors" : "");
  }

  private Load cpuLoad() {
    return new Load("POST", "/bytes?size=" + 32 * KIB, bodies.computeIfAbsent(KIB, Bench::pattern));
  }

  /** Open loop at a fixed rate: latency percentiles, corrected for coordinated omission. */
  private String latency(LoadGenerator client, Peer peer, int port, long size, int rate) {
    Load load = new Load("GET", "/bytes?size=" + size, null);
    client.openLoop(port, load, rate, profile.warmup());
    RateRun run = client.openLoop(port, load, rate, profile.measure());
    Percentiles p = Percentiles.of(run.latency());
    results.latency.add(
        new LatencyRow(
            peer.id,
            size,
            rate,
            run.achievedRate(),
            run.sent(),
            run.ok(),
            run.errors(),
            p,
            run.maxSendLagMicros()));
    return String.format(
        Locale.ROOT,
        "p50 %.2f / p99 %.2f / max %.1f ms, %.0f/s%s",
        p.p50(),
        p.p99(),
        p.max(),
        run.achievedRate(),
        run.errors() > 0 ? ", " + run.errors() + " errors" : "");
  }

  /** Small responses at a rising rate: the highest rate whose p99 stays under the bound. */
  private String capacity(LoadGenerator client, Peer peer, int port) {
    Load load = new Load("GET", "/hello", null);
    double bound = options.p99BoundMillis();
    List<CapacityStep> steps = new ArrayList<>();
    double rate = profile.capacityStart();
    double passed = 0;
    double failed = 0;
    for (int tried = 0; tried < profile.capacityMaxSteps(); tried++) {
      CapacityStep step = confirmedStep(steps, client, port, load, rate, bound);
      if (step.passed()) {
        passed = rate;
        if (failed > 0) {
          break;
        }
        rate = Math.round(rate * profile.capacityFactor() / 100) * 100.0;
        if (rate > 200_000) {
          break;
        }
      } else {
        failed = rate;
        if (passed > 0) {
          break;
        }
        rate = Math.round(rate / 2 / 100) * 100.0;
        if (rate < 100) {
          break;
        }
      }
    }
    for (int i = 0; i < profile.capacityRefinements() && passed > 0 && failed > passed; i++) {
      double mid = Math.round((passed + failed) / 2 / 100) * 100.0;
      if (mid <= passed || mid >= failed) {
        break;
      }
      CapacityStep step = confirmedStep(steps, client, port, load, mid, bound);
      if (step.passed()) {
        passed = mid;
      } else {
        failed = mid;
      }
    }
    results.capacity.add(new CapacityRow(peer.id, passed, bound, steps));
    return String.format(
        Locale.ROOT, "%.0f/s with p99 ≤ %.0f ms (%d steps)", passed, bound, steps.size());
  }

  /**
   * A step, run a second time if it fails, recording both: a rate fails only when it fails twice in
   * a row, so that one hiccup (a GC pause, a JIT deoptimisation, the load generator's own) does not
   * end the search below what the server sustains.
   */
  private CapacityStep confirmedStep(
      List<CapacityStep> steps,
      LoadGenerator client,
      int port,
      Load load,
      double rate,
      double boundMillis) {
    CapacityStep step = capacityStep(client, port, load, rate, boundMillis);
    steps.add(step);
    if (!step.passed()) {
      step = capacityStep(client, port, load, rate, boundMillis);
      steps.add(step);
    }
    return step;
  }

  private CapacityStep capacityStep(
      LoadGenerator client, int port, Load load, double rate, double boundMillis) {
    client.openLoop(port, load, rate, profile.capacityWarmup());
    RateRun run = client.openLoop(port, load, rate, profile.capacityStep());
    double p99 = run.latency().getValueAtPercentile(99) / 1000.0;
    boolean passed = run.errors() == 0 && p99 <= boundMillis && run.achievedRate() >= 0.95 * rate;
    // Let whatever queued drain before the next step.
    ServerProcess.sleepMillis(300);
    return new CapacityStep(rate, run.achievedRate(), p99, run.errors(), passed);
  }

  /** A JFR recording of the server under the CPU scenario's load, for the profile summary. */
  private String jfr(LoadGenerator client, ServerProcess server, int port) throws Exception {
    Path dir = Files.createDirectories(options.out().resolve("profiles"));
    Path recording = dir.resolve(server.peer().id + "-" + server.ee() + ".jfr").toAbsolutePath();
    Load load = cpuLoad();
    jcmd(server.pid(), "JFR.start", "name=bench", "settings=profile", "filename=" + recording);
    try {
      // Four times the CPU scenario's rate: JFR samples running threads only, so a busier
      // server gives more samples in the same time.
      client.openLoop(port, load, 4.0 * profile.cpuRate(), profile.measure());
    } finally {
      jcmd(server.pid(), "JFR.stop", "name=bench");
    }
    jfrRecordings.add(recording);
    return "recorded profiles/" + recording.getFileName();
  }

  private void jcmd(long pid, String... command) throws Exception {
    Path jcmd = options.java().resolveSibling("jcmd");
    List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    line.addAll(Arrays.asList(command));
    Process process =
        new ProcessBuilder(line)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("jcmd " + String.join(" ", command) + " hung");
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed");
    }
  }

  private void summariseJfr() {
    for (Path recording : jfrRecordings) {
      try {
        JfrSummary.write(recording, recording.resolveSibling(recording.getFileName() + ".txt"), 25);
      } catch (Exception e) {
        results.failures.add(
            new Failure("-", "-", "jfr summary", recording.getFileName() + ": " + e));
      }
    }
  }

  // ---- Helpers --------------------------------------------------------------------------------

  /** The server's counters (see the app's ProcessStats). */
  record ServerStats(
      long threads,
      long allocatedBytes,
      long processCpuNanos,
      long heapUsed,
      long gcFreedBytes,
      long heapAfterGc,
      long jitMillis,
      long gcPauseMillis) {}

  private static ServerStats stats(LoadGenerator client, int port) throws Exception {
    JsonNode node = JSON.readTree(client.getString(port, "/stats"));
    return new ServerStats(
        node.path("threads").asLong(),
        node.path("allocatedBytes").asLong(),
        node.path("processCpuNanos").asLong(),
        node.path("heapUsed").asLong(),
        node.path("gcFreedBytes").asLong(),
        node.path("heapAfterGc").asLong(),
        node.path("jitMillis").asLong(),
        node.path("gcPauseMillis").asLong());
  }

  private static byte[] pattern(long size) {
    byte[] bytes = new byte[(int) size];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) ('A' + i % 26);
    }
    return bytes;
  }

  private static final Pattern JETTY_VERSION = Pattern.compile("on (?:bare )?Jetty (\\S+)");

  private static String jettyVersion(String output, String fallback) {
    Matcher m = JETTY_VERSION.matcher(output);
    return m.find() ? m.group(1) : fallback;
  }

  /**
   * Keeps the head and the tail of a server's log: the runtime logs a line per request, which would
   * make a results folder hundreds of megabytes.
   */
  private static void trimLog(Path log) {
    try {
      if (Files.size(log) < 256 * 1024) {
        return;
      }
      List<String> lines = Files.readAllLines(log);
      List<String> kept = new ArrayList<>(lines.subList(0, Math.min(100, lines.size())));
      kept.add("[... " + (lines.size() - 200) + " lines left out by the benchmark driver ...]");
      kept.addAll(lines.subList(Math.max(100, lines.size() - 100), lines.size()));
      Files.write(log, kept);
    } catch (IOException | RuntimeException ignored) {
      // A long log is no failure.
    }
  }

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  static long medianLong(List<Long> values) {
    if (values.isEmpty()) {
      return -1;
    }
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  private Results.Meta meta(
      Instant startedAt, double seconds, String commandLine, double loadBefore) {
    String serverJavaVersion = javaVersion(options.java());
    long memory = -1;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      memory = os.getTotalMemorySize();
    }
    return new Results.Meta(
        profile.name(),
        startedAt.toString(),
        Math.round(seconds * 10) / 10.0,
        commandLine,
        Runtime.getRuntime().availableProcessors(),
        memory,
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        options.java().toString(),
        serverJavaVersion,
        jettyVersion,
        options.jvmFlags(),
        System.getProperty("java.version"),
        options.scenarios().stream().map(s -> s.id).toList(),
        options.ees(),
        Math.round(loadBefore * 100) / 100.0,
        Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100)
            / 100.0);
  }

  private static String javaVersion(Path java) {
    try {
      Process process =
          new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version")
              .redirectErrorStream(true)
              .start();
      String text = new String(process.getInputStream().readAllBytes());
      process.waitFor();
      Matcher m = Pattern.compile("java\\.runtime\\.version = (\\S+)").matcher(text);
      return m.find() ? m.group(1) : "?";
    } catch (IOException | InterruptedException e) {
      return "?";
    }
  }

  static Duration seconds(double s) {
    return Duration.ofMillis((long) (s * 1000));
  }
}
