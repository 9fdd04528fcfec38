package dev.aerun.bench;

import dev.aerun.bench.Results.CapacityRound;
import dev.aerun.bench.Results.Failure;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One benchmark run: for each EE version and each peer, a server JVM started fresh and measured
 * scenario by scenario from this JVM (EE10's servers stay up through the timing rounds, which
 * interleave the peers), then stopped; then the report. A peer or a step that fails is recorded as
 * a failure and the run goes on.
 */
final class Bench {
  private static final Pattern JETTY_VERSION = Pattern.compile("on (?:bare )?Jetty (\\S+)");
  private static final Pattern JAVA_RUNTIME_VERSION =
      Pattern.compile("JAVA_RUNTIME_VERSION=\"([^\"]+)\"");
  private static final List<String> TIMED =
      List.of("cpu", "latency", "capacity", "calibrate", "h2c-peak");
  private static final long[] LATENCY_SIZES = {5 * 1024, 1024 * 1024};

  /** One start to the first 200: its time, the RSS then, and the steal over it. */
  private record Start(double millis, long rssBytes, double stealPercent) {}

  private final BenchOptions options;
  private final Profile profile;
  private final Results results = new Results();
  private final Map<String, List<Start>> coldStarts = new LinkedHashMap<>();
  private final Map<String, List<CapacityRound>> capacityRounds = new LinkedHashMap<>();
  private final List<Path> jfrRecordings = new ArrayList<>();
  private final EchoScenario echo;
  private final TimingScenarios timing;
  private final Steal steal;
  private final Path workDir;
  private final Progress progress;
  private String jettyVersion = "?";

  private Bench(BenchOptions options, PrintStream console) throws IOException {
    this.options = options;
    this.profile = options.profile();
    this.workDir = Files.createDirectories(options.out().resolve("logs")).toAbsolutePath();
    this.echo = new EchoScenario(profile);
    this.steal = options.steal();
    this.timing = new TimingScenarios(options, echo.body(1024), steal);
    this.progress = new Progress(console);
  }

  /** Runs the benchmarks of {@code options}; returns the results folder. */
  static Path run(BenchOptions options, String commandLine, PrintStream console) throws Exception {
    ServerProcess.checkBuilt(options.repo(), options.ees());
    if (options.runs(Scenario.H2C_PEAK)
        && (TimingScenarios.findOnPath("h2load") == null
            || TimingScenarios.findOnPath("wrk") == null)) {
      throw new IllegalStateException(
          "--h2c-peak needs h2load (Debian: nghttp2-client) and wrk on the PATH");
    }
    Bench bench = new Bench(options, console);
    long start = System.nanoTime();
    Instant startedAt = Instant.now();
    double loadBefore = loadAverage();
    Steal.Sample cpuBefore = Steal.Sample.now();
    List<String> peers = options.peers().stream().map(p -> p.id).toList();
    String profile = options.profile().name();
    bench.progress.note(
        "profile " + profile + ", peers " + peers + ", results in " + options.out());
    try (LoadGenerator client = new LoadGenerator()) {
      bench.measureAll(client);
    }
    double others = cpuBefore.othersPercentUntil(Steal.Sample.now());
    bench.results.meta =
        bench.meta(startedAt, (System.nanoTime() - start) / 1e9, commandLine, loadBefore, others);
    for (Path recording : bench.jfrRecordings) {
      try {
        Path summary = recording.resolveSibling(recording.getFileName() + ".txt");
        Files.writeString(summary, JfrSummary.summarise(recording, 25));
      } catch (Exception e) {
        bench.results.failures.add(
            new Failure("-", "-", "jfr summary", recording.getFileName() + ": " + e));
      }
    }
    Report.write(bench.results, options.peers(), options.out());
    bench.progress.note("done: " + options.out().resolve("summary.md"));
    return options.out();
  }

  /** Whether a scenario that runs in rounds, the peers interleaved, is on. */
  private boolean timing() {
    return options.scenarios().stream().anyMatch(s -> TIMED.contains(s.id));
  }

  private void measureAll(LoadGenerator client) throws Exception {
    options.peers().forEach(p -> results.peers.add(new Results.PeerInfo(p.id, p.label)));
    for (String ee : options.ees()) {
      boolean ee10 = ee.equals("ee10");
      if (!ee10 && !options.runs(Scenario.ECHO)) {
        continue;
      }
      boolean stayUp = ee10 && (timing() || options.runs(Scenario.SOAK));
      Map<Peer, ServerProcess> live = new LinkedHashMap<>();
      try {
        for (Peer peer : options.peers()) {
          ServerProcess server = startAndEcho(client, peer, ee, 1);
          if (server != null) {
            live.put(peer, server);
            if (!stayUp) {
              finish(client, live.remove(peer));
            }
          }
        }
        if (ee10 && timing()) {
          rounds(client, live.values());
          for (ServerProcess server : options.jfr() ? live.values() : List.<ServerProcess>of()) {
            step(server.peer(), ee, "JFR profile, cpu load at 4x rate", () -> jfr(client, server));
          }
        }
        if (ee10 && options.runs(Scenario.SOAK)) {
          soak(client, live.values());
        }
      } finally {
        live.values().forEach(server -> finish(client, server));
      }
    }
    moreEchoRounds(client);
    moreColdStarts();
    aggregateCapacity();
    results.generator = generatorSummary();
    results.steal = steal.summary();
  }

  /**
   * The timing scenarios, round after round, the peers interleaved in each (A B C, A B C, …), so
   * that whatever else the machine does meanwhile falls on every peer alike.
   */
  private void rounds(LoadGenerator client, Collection<ServerProcess> live) {
    Profile.Timed timed = profile.timed();
    for (int round = 1; round <= timed.rounds(); round++) {
      int r = round;
      String of = " [" + round + "/" + timed.rounds() + "]";
      for (ServerProcess server : live) {
        if (!server.isAlive()) {
          continue;
        }
        Peer peer = server.peer();
        int port = server.awaitPort();
        Map<String, Callable<String>> steps = new LinkedHashMap<>();
        if (options.runs(Scenario.CALIBRATE)) {
          steps.put("calibrate: built-in, wrk", () -> timing.calibrate(client, server, r, results));
        }
        if (options.runs(Scenario.H2C_PEAK)) {
          steps.put(
              "h2c-peak: h2load h2c, wrk HTTP/1.1",
              () -> timing.h2cPeak(client, server, r, results));
        }
        if (options.runs(Scenario.CPU)) {
          steps.put(
              "cpu 1 KiB in / 32 KiB out", () -> timing.cpu(client, server, port, r, results));
        }
        for (long size : options.runs(Scenario.LATENCY) ? LATENCY_SIZES : new long[0]) {
          int rate = size == 1024 * 1024 ? timed.latencyRate1m() : timed.latencyRate5k();
          steps.put(
              "latency " + Report.size(size) + " @ " + rate + "/s",
              () -> timing.latency(client, peer, port, size, rate, r, results));
        }
        if (options.runs(Scenario.CAPACITY)) {
          steps.put("capacity (hello)", () -> capacity(client, server, port, r));
        }
        steps.forEach((what, step) -> step(peer, "ee10", what + of, step));
      }
    }
  }

  private String capacity(LoadGenerator client, ServerProcess server, int port, int round)
      throws Exception {
    CapacityRound found = timing.capacity(client, server, port, round);
    capacityRounds.computeIfAbsent(server.peer().id, k -> new ArrayList<>()).add(found);
    String capacity =
        Double.isNaN(found.capacityRate())
            ? "capacity not resolved in the quick profile"
            : Report.fmt(
                "%.0f/s with p99 ≤ %.0f ms (%d steps)",
                found.capacityRate(), options.p99BoundMillis(), found.steps().size());
    return Report.fmt(
        "peak %.0f/s, %s, generator %.1f µs vs server %.1f µs/request",
        found.peakRate(),
        capacity,
        found.generatorCpuMicrosPerRequestAtPeak(),
        found.serverCpuMicrosPerRequestAtPeak());
  }

  /**
   * A JFR recording of the server under four times the CPU scenario's rate (JFR samples running
   * threads only: a busier server gives more samples in the same time), summarised at the end.
   */
  private String jfr(LoadGenerator client, ServerProcess server) throws Exception {
    Path dir = Files.createDirectories(options.out().resolve("profiles"));
    Path recording = dir.resolve(server.peer().id + "-" + server.ee() + ".jfr").toAbsolutePath();
    String[] start = {"JFR.start", "name=bench", "settings=profile", "filename=" + recording};
    RuntimeProcess.jcmd(options.java(), server.pid(), start);
    try {
      double rate = 4.0 * profile.timed().cpuRate();
      client.openLoop(server.awaitPort(), timing.cpuLoad, rate, profile.timed().measure());
    } finally {
      RuntimeProcess.jcmd(options.java(), server.pid(), "JFR.stop", "name=bench");
    }
    jfrRecordings.add(recording);
    return "recorded profiles/" + recording.getFileName();
  }

  /**
   * The soak, every peer's server at once: each is loaded at a steady rate, so that they do not
   * disturb each other's flatness, and the run takes one soak's time.
   */
  private void soak(LoadGenerator client, Collection<ServerProcess> servers) {
    progress.note(
        Report.fmt(
            "soak at %.0f/s for %.1f min, %d peers side by side",
            options.soakRate(), options.soak().toSeconds() / 60.0, servers.size()));
    // A thread each: the common pool may have fewer threads than there are peers.
    Executor newThread = task -> new Thread(task, "bench-soak").start();
    servers.stream()
        .map(server -> CompletableFuture.runAsync(() -> soak(client, server), newThread))
        .toList()
        .forEach(CompletableFuture::join);
    List<String> order = options.peers().stream().map(p -> p.id).toList();
    results.soak.sort(Comparator.comparingInt(r -> order.indexOf(r.peer())));
  }

  private void soak(LoadGenerator client, ServerProcess server) {
    try {
      Results.SoakRow row =
          SoakScenario.run(client, server, options.soakRate(), options.soak(), progress);
      synchronized (results) {
        results.soak.add(row);
      }
    } catch (Exception e) {
      synchronized (results) {
        results.failures.add(new Failure(server.peer().id, "ee10", "soak", String.valueOf(e)));
      }
    }
  }

  /**
   * The echo scenario in new server JVMs, rounds 2 and on, the peers interleaved in each: which
   * allocations the JIT compiler removes is decided anew in every JVM and then stays, so the
   * windows of one JVM do not show it. Legacy mode's peers run one round: their target is a ratio
   * of ten, far outside that noise.
   */
  private void moreEchoRounds(LoadGenerator client) {
    for (int round = 2; options.runs(Scenario.ECHO) && round <= options.echoRounds(); round++) {
      for (String ee : options.ees()) {
        for (Peer peer : options.peers().stream().filter(p -> !p.isLegacy()).toList()) {
          ServerProcess server = startAndEcho(client, peer, ee, round);
          if (server != null) {
            server.close();
            trimLog(server.process().log());
          }
        }
      }
    }
  }

  /**
   * Cold starts 2 and on, then one row per peer, whose median leaves out the starts the steal
   * disturbed when there are others.
   */
  private void moreColdStarts() {
    if (!options.runs(Scenario.COLDSTART) || !options.ees().contains("ee10")) {
      return;
    }
    for (int round = 2; round <= profile.timed().coldStarts(); round++) {
      for (Peer peer : options.peers()) {
        String name = "coldstart-" + round;
        String what = "cold start " + round + "/" + profile.timed().coldStarts();
        step(peer, "ee10", what, () -> coldStart(peer, name));
      }
    }
    coldStarts.forEach(
        (peer, starts) -> {
          List<Double> millis = starts.stream().map(Start::millis).toList();
          List<Double> undisturbed =
              starts.stream()
                  .filter(s -> !steal.isDisturbed(s.stealPercent()))
                  .map(Start::millis)
                  .toList();
          List<Long> rss = starts.stream().map(Start::rssBytes).toList();
          results.coldStart.add(
              new Results.ColdStartRow(
                  peer,
                  millis,
                  starts.stream().map(Start::stealPercent).toList(),
                  Stats.median(undisturbed.isEmpty() ? millis : undisturbed),
                  rss,
                  (long) Stats.median(rss.stream().map(Long::doubleValue).toList())));
        });
  }

  /** One more start of {@code peer}, to its first 200, and its RSS then; recorded. */
  private String coldStart(Peer peer, String what) throws Exception {
    Steal.Measured<Start> start =
        steal.measure(
            () -> {
              try (ServerProcess server = start(peer, "ee10", what)) {
                return new Start(
                    server.awaitFirstOk("/hello") / 1e6, server.rssBytes(), Double.NaN);
              }
            });
    Start s = start.value();
    addColdStart(peer, new Start(s.millis(), s.rssBytes(), start.stealPercent()));
    return Report.fmt("%.0f ms", s.millis()) + start.note();
  }

  private void addColdStart(Peer peer, Start start) {
    coldStarts.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(start);
  }

  /** One capacity[] row per peer: the medians and spreads of its rounds. */
  private void aggregateCapacity() {
    capacityRounds.forEach(
        (peer, rounds) -> {
          Stats.Spread capacity = spread(rounds, CapacityRound::capacityRate);
          Stats.Spread peak = spread(rounds, CapacityRound::peakRate);
          results.capacity.add(
              new Results.CapacityRow(
                  peer,
                  capacity.median(),
                  peak.median(),
                  options.p99BoundMillis(),
                  capacity,
                  peak,
                  spread(rounds, CapacityRound::serverCpuMicrosPerRequestAtPeak),
                  spread(rounds, CapacityRound::serverCpuMicrosPerRequestAtPeakNetOfJit),
                  rounds));
        });
  }

  private static Stats.Spread spread(
      List<CapacityRound> rounds, java.util.function.ToDoubleFunction<CapacityRound> figure) {
    return Stats.spread(rounds.stream().map(figure::applyAsDouble).toList());
  }

  /** What the load generator cost beside the servers, and how many phases it could not time. */
  private Results.Generator generatorSummary() {
    List<CapacityRound> rounds = capacityRounds.values().stream().flatMap(List::stream).toList();
    List<Results.PhaseLag> phases =
        Stream.concat(
                results.cpu.stream().map(r -> r.lag()), results.latency.stream().map(r -> r.lag()))
            .toList();
    return new Results.Generator(
        "built-in (Java NIO, one selector thread, keep-alive connections)",
        spread(rounds, CapacityRound::generatorCpuMicrosPerRequestAtPeak).median(),
        spread(rounds, CapacityRound::serverCpuMicrosPerRequestAtPeak).median(),
        phases.size(),
        (int) phases.stream().filter(p -> !p.measurable()).count(),
        TimingScenarios.verdict(results.calibration, TimingScenarios.findOnPath("wrk") != null));
  }

  private ServerProcess start(Peer peer, String ee, String what) throws IOException {
    String name = peer.id + "-" + ee + "-" + what;
    return ServerProcess.start(options, peer, ee, workDir, name);
  }

  /**
   * Starts one peer on one EE in its server JVM {@code round} (the first's cold start recorded for
   * EE10) and runs the echo scenario on it; the running server, or {@code null} if it did not
   * start.
   */
  private ServerProcess startAndEcho(LoadGenerator client, Peer peer, String ee, int round) {
    boolean first = round == 1;
    String starting = first ? "start" : "start for echo round " + round;
    progress.begin(peer.id + " " + ee + ": " + starting);
    ServerProcess server = null;
    Steal.Sample before = Steal.Sample.now();
    try {
      server = start(peer, ee, first ? "main" : "echo-" + round);
      long nanos = server.awaitFirstOk("/hello");
      double stolen = before.percentUntil(Steal.Sample.now());
      Matcher version = JETTY_VERSION.matcher(server.process().output());
      jettyVersion = version.find() ? version.group(1) : jettyVersion;
      if (first && ee.equals("ee10") && options.runs(Scenario.COLDSTART)) {
        addColdStart(peer, new Start(nanos / 1e6, server.rssBytes(), stolen));
      }
      progress.end(
          Report.fmt(
              "first 200 after %.0f ms, RSS %s", nanos / 1e6, Report.bytes(server.rssBytes())));
    } catch (Exception e) {
      fail(peer, ee, starting, e);
      if (server != null) {
        server.close();
      }
      return null;
    }
    int port = server.awaitPort();
    String of = first ? "" : " [" + round + "/" + options.echoRounds() + "]";
    for (long size : options.runs(Scenario.ECHO) ? options.echoSizes() : List.<Long>of()) {
      String what = "echo " + Report.size(size) + of;
      step(peer, ee, what, () -> echo.run(client, peer, ee, round, port, size, results));
    }
    return server;
  }

  /** Records the server's process figures, stops it and trims its log. */
  private void finish(LoadGenerator client, ServerProcess server) {
    try {
      int threads = -1;
      try {
        threads = (int) ServerStats.fetch(client, server.awaitPort()).threads();
      } catch (Exception ignored) {
        // Reported as -1.
      }
      String log = workDir.getParent().relativize(server.process().log()).toString();
      results.processes.add(
          new Results.ProcessRow(
              server.peer().id, server.ee(), server.peakRssBytes(), threads, log));
    } finally {
      server.close();
      trimLog(server.process().log());
    }
  }

  /**
   * A scenario step, which answers its progress line: on failure, recorded, and the peer goes on.
   */
  private void step(Peer peer, String ee, String what, Callable<String> step) {
    progress.begin(peer.id + " " + ee + ": " + what);
    try {
      progress.end(step.call());
    } catch (Exception | AssertionError e) {
      fail(peer, ee, what, e);
    }
  }

  private void fail(Peer peer, String ee, String what, Throwable e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt(); // the run is being stopped: later steps see it too
    }
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    results.failures.add(new Failure(peer.id, ee, what, message));
    progress.end("FAILED: " + message.lines().findFirst().orElse(""));
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

  static double loadAverage() {
    return Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100)
        / 100.0;
  }

  private Results.Meta meta(
      Instant startedAt, double seconds, String command, double loadBefore, double others) {
    String serverJavaVersion = "?";
    try { // the release file of the JDK whose launcher the servers run (a bare name: on PATH)
      Path java = options.java();
      String onPath = java.getParent() == null ? TimingScenarios.findOnPath(java.toString()) : null;
      java = onPath == null ? java : Path.of(onPath);
      Path release = java.toRealPath().getParent().getParent().resolve("release");
      Matcher m = JAVA_RUNTIME_VERSION.matcher(Files.readString(release));
      serverJavaVersion = m.find() ? m.group(1) : "?";
    } catch (IOException | RuntimeException e) {
      // Said as "?".
    }
    return new Results.Meta(
        profile.name(),
        startedAt.toString(),
        Math.round(seconds * 10) / 10.0,
        command,
        Runtime.getRuntime().availableProcessors(),
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize(),
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        options.java().toString(),
        serverJavaVersion,
        jettyVersion,
        options.jvmFlags(),
        System.getProperty("java.version"),
        options.scenarios().stream().map(s -> s.id).toList(),
        options.ees(),
        Math.round(loadBefore * 100) / 100.0,
        loadAverage(),
        Double.isNaN(others) ? Double.NaN : Math.round(others * 10) / 10.0);
  }
}
