package dev.aerun.bench;

import dev.aerun.bench.Results.CapacityRow;
import dev.aerun.bench.Results.Failure;
import dev.aerun.bench.Results.ProcessRow;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One benchmark run: for each EE version and each peer, a server JVM started fresh, measured
 * scenario by scenario from this JVM, then stopped; then the report. A peer that fails is recorded
 * as a failure and the run goes on with the next one.
 */
final class Bench {
  private static final long KIB = 1024;
  private static final long MIB = 1024 * 1024;

  private final BenchOptions options;
  private final Profile profile;
  private final ServerProcess.Layout layout;
  private final Results results = new Results();
  private final ColdStarts coldStarts = new ColdStarts();
  private final Map<String, List<Results.CapacityRound>> capacityRounds = new LinkedHashMap<>();
  private final EchoScenario echo;
  private final TimingScenarios timing;
  private final JfrProfiles jfr;
  private final Steal steal;
  private final Path workDir;
  private Progress progress;
  private String jettyVersion = "?";

  private Bench(BenchOptions options) throws IOException {
    this.options = options;
    this.profile = options.profile();
    this.layout = ServerProcess.Layout.of(options.repo());
    this.workDir = Files.createDirectories(options.out().resolve("logs")).toAbsolutePath();
    this.echo = new EchoScenario(profile);
    this.jfr = new JfrProfiles(options);
    this.steal = options.steal();
    this.timing = new TimingScenarios(profile, options.p99BoundMillis(), echo.body(KIB), steal);
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
    OtherCpu.Sample cpuBefore = OtherCpu.Sample.now();
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
    double others = cpuBefore.othersPercentUntil(OtherCpu.Sample.now());
    bench.results.meta =
        bench.meta(startedAt, (System.nanoTime() - start) / 1e9, commandLine, loadBefore, others);
    bench.jfr.summarise(bench.results);
    Report.write(bench.results, options.peers(), options.out());
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
        int perRound = options.runs(Scenario.CPU) ? 1 : 0;
        perRound += options.runs(Scenario.LATENCY) ? 2 : 0;
        perRound += options.runs(Scenario.CAPACITY) ? 1 : 0;
        perPeer += perRound * profile.rounds();
        perPeer += options.jfr() ? 1 : 0;
      }
      steps += perPeer * options.peers().size();
    }
    if (options.runs(Scenario.ECHO)) {
      steps +=
          (profile.echoRounds() - 1)
              * options.ees().size()
              * echoRoundPeers().size()
              * (1 + options.echoSizes().size());
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
      // Every peer's server stays up through the timing rounds, which interleave the peers.
      Map<Peer, ServerProcess> live = new LinkedHashMap<>();
      try {
        for (Peer peer : options.peers()) {
          try {
            ServerProcess server = startAndEcho(client, peer, ee, 1);
            if (server != null) {
              live.put(peer, server);
              if (!ee10 || !(timing() || options.runs(Scenario.SOAK))) {
                finish(client, live.remove(peer));
              }
            }
          } catch (RuntimeException e) {
            results.failures.add(new Failure(peer.id, ee, "run", String.valueOf(e)));
            progress.note("FAILED: " + peer.id + " " + ee + ": " + e);
          }
        }
        if (ee10 && timing()) {
          rounds(client, live);
          for (ServerProcess server : live.values()) {
            if (options.jfr()) {
              step(
                  server.peer(),
                  ee,
                  "JFR profile, cpu load at 4x rate",
                  () -> jfr.record(client, server, timing.cpuLoad()));
            }
          }
        }
        if (ee10 && options.runs(Scenario.SOAK)) {
          soak(client, live.values());
        }
      } finally {
        for (ServerProcess server : live.values()) {
          finish(client, server);
        }
      }
    }
    moreEchoRounds(client);
    moreColdStarts();
    aggregateCapacity();
    results.generator = generatorSummary();
    results.steal = steal.summary();
  }

  private boolean timing() {
    return options.runs(Scenario.CPU)
        || options.runs(Scenario.LATENCY)
        || options.runs(Scenario.CAPACITY);
  }

  /**
   * The timing scenarios, round after round, the peers interleaved in each (A B C, A B C, …), so
   * that whatever else the machine does meanwhile falls on every peer alike.
   */
  private void rounds(LoadGenerator client, Map<Peer, ServerProcess> live) {
    for (int round = 1; round <= profile.rounds(); round++) {
      int r = round;
      String of = " [" + round + "/" + profile.rounds() + "]";
      for (ServerProcess server : live.values()) {
        Peer peer = server.peer();
        if (!server.isAlive()) {
          continue;
        }
        int port = server.awaitPort();
        if (options.runs(Scenario.CPU)) {
          step(
              peer,
              "ee10",
              "cpu 1 KiB in / 32 KiB out" + of,
              () -> timing.cpu(client, server, port, r, results));
        }
        if (options.runs(Scenario.LATENCY)) {
          step(
              peer,
              "ee10",
              "latency 5 KiB @ " + profile.latencyRate5k() + "/s" + of,
              () ->
                  timing.latency(client, peer, port, 5 * KIB, profile.latencyRate5k(), r, results));
          step(
              peer,
              "ee10",
              "latency 1 MiB @ " + profile.latencyRate1m() + "/s" + of,
              () -> timing.latency(client, peer, port, MIB, profile.latencyRate1m(), r, results));
        }
        if (options.runs(Scenario.CAPACITY)) {
          step(
              peer,
              "ee10",
              "capacity (hello)" + of,
              () -> {
                Results.CapacityRound found = timing.capacity(client, server, port, r);
                capacityRounds.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(found);
                String capacity =
                    Double.isNaN(found.capacityRate())
                        ? "capacity not resolved in the quick profile"
                        : String.format(
                            Locale.ROOT,
                            "%.0f/s with p99 ≤ %.0f ms (%d steps)",
                            found.capacityRate(),
                            options.p99BoundMillis(),
                            found.steps().size());
                return String.format(
                    Locale.ROOT,
                    "peak %.0f/s, %s, generator %.1f µs vs server %.1f µs/request",
                    found.peakRate(),
                    capacity,
                    found.generatorCpuMicrosPerRequestAtPeak(),
                    found.serverCpuMicrosPerRequestAtPeak());
              });
        }
      }
    }
  }

  /**
   * The soak, every peer's server at once: each is loaded at a steady rate, so that they do not
   * disturb each other's flatness, and the run takes one soak's time.
   */
  private void soak(LoadGenerator client, java.util.Collection<ServerProcess> servers) {
    progress.note(
        String.format(
            Locale.ROOT,
            "soak at %.0f/s for %.1f min, %d peers side by side",
            options.soakRate(),
            options.soak().toSeconds() / 60.0,
            servers.size()));
    List<java.util.concurrent.CompletableFuture<Void>> soaks = new ArrayList<>();
    for (ServerProcess server : servers) {
      soaks.add(
          java.util.concurrent.CompletableFuture.runAsync(
              () -> {
                try {
                  Results.SoakRow row =
                      SoakScenario.run(
                          client, server, options.soakRate(), options.soak(), progress);
                  synchronized (results) {
                    results.soak.add(row);
                  }
                } catch (Exception e) {
                  synchronized (results) {
                    results.failures.add(
                        new Failure(server.peer().id, "ee10", "soak", String.valueOf(e)));
                  }
                }
              }));
    }
    soaks.forEach(java.util.concurrent.CompletableFuture::join);
    List<String> order = options.peers().stream().map(p -> p.id).toList();
    results.soak.sort(java.util.Comparator.comparingInt(r -> order.indexOf(r.peer())));
  }

  /** The peers that run the echo scenario in more than one server JVM: all but legacy mode's. */
  private List<Peer> echoRoundPeers() {
    return options.peers().stream().filter(peer -> !peer.isLegacy()).toList();
  }

  /**
   * The echo scenario in new server JVMs, rounds 2 and on, the peers interleaved in each: which
   * allocations the JIT compiler removes is decided anew in every JVM and then stays, so the
   * windows of one JVM do not show it. Legacy mode's peers run one round: their target is a ratio
   * of ten, far outside that noise.
   */
  private void moreEchoRounds(LoadGenerator client) {
    if (!options.runs(Scenario.ECHO)) {
      return;
    }
    for (int round = 2; round <= profile.echoRounds(); round++) {
      for (String ee : options.ees()) {
        for (Peer peer : echoRoundPeers()) {
          ServerProcess server = startAndEcho(client, peer, ee, round);
          if (server != null) {
            server.close();
            trimLog(server.log());
          }
        }
      }
    }
  }

  private void moreColdStarts() {
    if (options.runs(Scenario.COLDSTART) && options.ees().contains("ee10")) {
      for (int round = 2; round <= profile.coldStarts(); round++) {
        for (Peer peer : options.peers()) {
          String name = "coldstart-" + round;
          progress.begin(peer.id + " ee10: cold start " + round + "/" + profile.coldStarts());
          try {
            Steal.Measured<long[]> start = steal.measure(() -> coldStart(peer, name));
            coldStarts.add(peer, start.value()[0], start.value()[1], start.stealPercent());
            progress.end(
                String.format(Locale.ROOT, "%.0f ms", start.value()[0] / 1e6) + start.note());
          } catch (Exception e) {
            fail(peer, "ee10", "coldstart", e);
          }
        }
      }
    }
    results.coldStart.addAll(coldStarts.rows(options.peers(), steal));
  }

  /** One more start of {@code peer}: nanoseconds to its first 200, and its RSS then. */
  private long[] coldStart(Peer peer, String what) throws IOException {
    try (ServerProcess server = start(peer, "ee10", what)) {
      long nanos = server.awaitFirstOk("/hello");
      return new long[] {nanos, server.rssBytes()};
    }
  }

  /** One capacity[] row per peer: the medians and spreads of its rounds. */
  private void aggregateCapacity() {
    for (Peer peer : options.peers()) {
      List<Results.CapacityRound> rounds = capacityRounds.get(peer.id);
      if (rounds == null || rounds.isEmpty()) {
        continue;
      }
      Stats.Spread capacity =
          Stats.spread(rounds.stream().map(Results.CapacityRound::capacityRate).toList());
      Stats.Spread peak =
          Stats.spread(rounds.stream().map(Results.CapacityRound::peakRate).toList());
      Stats.Spread serverCpu =
          Stats.spread(
              rounds.stream().map(Results.CapacityRound::serverCpuMicrosPerRequestAtPeak).toList());
      Stats.Spread serverCpuNetOfJit =
          Stats.spread(
              rounds.stream()
                  .map(Results.CapacityRound::serverCpuMicrosPerRequestAtPeakNetOfJit)
                  .toList());
      results.capacity.add(
          new CapacityRow(
              peer.id,
              capacity.median(),
              peak.median(),
              options.p99BoundMillis(),
              capacity,
              peak,
              serverCpu,
              serverCpuNetOfJit,
              rounds));
    }
  }

  /** What the load generator cost beside the servers, and how many phases it could not time. */
  private Results.Generator generatorSummary() {
    List<Double> generatorCpu = new ArrayList<>();
    List<Double> serverCpu = new ArrayList<>();
    for (List<Results.CapacityRound> rounds : capacityRounds.values()) {
      for (Results.CapacityRound round : rounds) {
        generatorCpu.add(round.generatorCpuMicrosPerRequestAtPeak());
        serverCpu.add(round.serverCpuMicrosPerRequestAtPeak());
      }
    }
    List<Results.PhaseLag> phases = new ArrayList<>();
    results.cpu.forEach(r -> phases.add(r.lag()));
    results.latency.forEach(r -> phases.add(r.lag()));
    int unmeasurable = (int) phases.stream().filter(p -> !p.measurable()).count();
    String wrk = Calibration.findOnPath("wrk");
    return new Results.Generator(
        "built-in (Java NIO, one selector thread, keep-alive connections)",
        Stats.spread(generatorCpu).median(),
        Stats.spread(serverCpu).median(),
        phases.size(),
        unmeasurable,
        wrk == null
            ? "not calibrated: wrk is not on the PATH (benchmarks/bin/install-wrk.sh, then --calibrate)"
            : "calibrate against wrk with --calibrate");
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

  /**
   * Starts one peer on one EE in its server JVM {@code round} (the first's cold start recorded for
   * EE10) and runs the echo scenario on it; the running server, or {@code null} if it did not
   * start.
   */
  private ServerProcess startAndEcho(LoadGenerator client, Peer peer, String ee, int round) {
    boolean first = round == 1;
    String of = first ? "" : " [" + round + "/" + profile.echoRounds() + "]";
    String starting = first ? "start" : "start for echo round " + round;
    progress.begin(peer.id + " " + ee + ": " + starting);
    ServerProcess server;
    int port;
    Steal.Sample before = Steal.Sample.now();
    try {
      server = start(peer, ee, first ? "main" : "echo-" + round);
    } catch (Exception e) {
      fail(peer, ee, starting, e);
      return null;
    }
    try {
      long nanos = server.awaitFirstOk("/hello");
      double stolen = before.percentUntil(Steal.Sample.now());
      port = server.awaitPort();
      jettyVersion = jettyVersion(server.output(), jettyVersion);
      if (first && ee.equals("ee10") && options.runs(Scenario.COLDSTART)) {
        coldStarts.add(peer, nanos, server.rssBytes(), stolen);
      }
      progress.end(
          String.format(
              Locale.ROOT,
              "first 200 after %.0f ms, RSS %s",
              nanos / 1e6,
              Report.bytes(server.rssBytes())));
    } catch (Exception e) {
      fail(peer, ee, starting, e);
      server.close();
      return null;
    }
    if (options.runs(Scenario.ECHO)) {
      for (long size : options.echoSizes()) {
        step(
            peer,
            ee,
            "echo " + Report.size(size) + of,
            () -> echo.run(client, peer, ee, round, port, size, results));
      }
    }
    return server;
  }

  /** Records the server's process figures, stops it and trims its log. */
  private void finish(LoadGenerator client, ServerProcess server) {
    if (server == null) {
      return;
    }
    try {
      int threads = -1;
      try {
        threads = (int) ServerStats.fetch(client, server.awaitPort()).threads();
      } catch (Exception ignored) {
        // Reported as -1.
      }
      results.processes.add(
          new ProcessRow(
              server.peer().id,
              server.ee(),
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
      Instant startedAt,
      double seconds,
      String commandLine,
      double loadBefore,
      double otherCpuPercent) {
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
            / 100.0,
        Double.isNaN(otherCpuPercent) ? Double.NaN : Math.round(otherCpuPercent * 10) / 10.0);
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
