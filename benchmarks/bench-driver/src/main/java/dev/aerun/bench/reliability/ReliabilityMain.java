package dev.aerun.bench.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.aerun.bench.LoadGenerator;
import dev.aerun.bench.OtherCpu;
import dev.aerun.bench.Peer;
import dev.aerun.bench.ServerProcess;
import dev.aerun.bench.reliability.ReliabilityResults.CapacityRow;
import dev.aerun.bench.reliability.ReliabilityResults.CapacityStep;
import dev.aerun.bench.reliability.ReliabilityResults.Failure;
import dev.aerun.bench.reliability.ReliabilityResults.Meta;
import dev.aerun.bench.reliability.ReliabilityResults.SoakRow;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench-driver.jar --reliability [options]}: the reliability profile of the benchmarks. For
 * each mode, on the EE10 bench app: an overload (several times the measured capacity), SIGTERM
 * under load, and a soak at a steady rate (the modes' soaks run at the same time, each server on
 * its own); then {@code summary.md} and {@code results.json} with a verdict per criterion.
 */
public final class ReliabilityMain {
  private static final String EE = "ee10";

  private final ReliabilityOptions options;
  private final PrintStream out;
  private final ServerProcess.Layout layout;
  private final ProcessProbe probe;
  private final Path logs;
  private final ReliabilityResults results = new ReliabilityResults();
  private final Map<Peer, Double> capacities = new HashMap<>();
  private final long startNanos = System.nanoTime();

  private ReliabilityMain(ReliabilityOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
    this.layout = ServerProcess.Layout.of(options.repo());
    this.probe = new ProcessProbe(options.java());
    this.logs = options.out().resolve("logs");
  }

  /**
   * Runs the profile with {@code args} (those after {@code --reliability}); the exit code: 0 every
   * criterion met, 1 a criterion missed or a part failed, 2 a wrong command line.
   */
  public static int run(String[] args, Path defaultRepo, PrintStream out) {
    for (String arg : args) {
      if (arg.equals("-h") || arg.equals("--help")) {
        out.print(ReliabilityOptions.USAGE);
        return 0;
      }
    }
    ReliabilityOptions options;
    try {
      options = ReliabilityOptions.parse(args, defaultRepo);
    } catch (ReliabilityOptions.UsageException e) {
      System.err.println("error: " + e.getMessage());
      System.err.print(ReliabilityOptions.USAGE);
      return 2;
    }
    try {
      ReliabilityMain main = new ReliabilityMain(options, out);
      boolean met =
          main.runAll("java -jar bench-driver.jar --reliability " + String.join(" ", args));
      return met ? 0 : 1;
    } catch (Exception e) {
      System.err.println("error: " + e.getMessage());
      return 1;
    }
  }

  private boolean runAll(String command) throws Exception {
    layout.check(List.of(EE));
    Files.createDirectories(logs);
    double loadBefore = loadAverage();
    OtherCpu.Sample cpuBefore = OtherCpu.Sample.now();
    String startedAt = Instant.now().toString();
    for (Peer peer : options.peers()) {
      if (options.runs("overload")) {
        guarded(peer, "overload", () -> overload(peer));
      }
      if (options.runs("sigterm")) {
        guarded(peer, "sigterm", () -> sigterm(peer));
      }
    }
    if (options.runs("soak")) {
      soaks();
    }
    results.meta =
        new Meta(
            startedAt,
            (System.nanoTime() - startNanos) / 1e9,
            command,
            Runtime.getRuntime().availableProcessors(),
            options.java().toString(),
            options.jvmFlags(),
            options.parts(),
            loadBefore,
            loadAverage(),
            cpuBefore.othersPercentUntil(OtherCpu.Sample.now()));
    ReliabilityReport.judge(results, options);
    write();
    boolean met = results.failures.isEmpty() && results.criteria.stream().allMatch(c -> c.pass());
    say(
        "done: "
            + (met ? "every criterion met" : "a criterion missed or a part failed")
            + "; report in "
            + options.out());
    return met;
  }

  private void overload(Peer peer) throws Exception {
    try (ServerProcess server = start(peer, "overload")) {
      double capacity = capacity(peer, server);
      say(
          String.format(
              "%s: overload at %.0f/s for %ds",
              peer.id, capacity * options.overloadFactor(), options.overload().toSeconds()));
      var row =
          Overload.run(
              server,
              capacity,
              options.overloadFactor(),
              options.overload(),
              options.p99BoundMillis());
      results.overload.add(row);
      say(
          String.format(
              "%s: overload outcomes %s, 503 p99 %.1f ms, recovery %.2f s",
              peer.id, row.outcomes(), row.rejectedP99Millis(), row.recoverySeconds()));
    }
  }

  private void sigterm(Peer peer) throws Exception {
    try (ServerProcess server = start(peer, "sigterm")) {
      double rate = capacity(peer, server);
      say(String.format("%s: SIGTERM under %.0f/s", peer.id, rate));
      var row = Sigterm.run(server, rate);
      results.sigterm.add(row);
      say(
          String.format(
              "%s: SIGTERM in flight %s, after %s, exit %d in %.2f s",
              peer.id, row.inFlight(), row.after(), row.exitCode(), row.exitSeconds()));
    }
  }

  /**
   * The modes' soaks side by side: each is steady-rate, so they do not disturb each other's
   * flatness.
   */
  private void soaks() {
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (Peer peer : options.peers()) {
      say(
          String.format(
              "%s: soak at %.0f/s for %.1f min",
              peer.id, options.soakRate(), options.soak().toSeconds() / 60.0));
      running.add(
          CompletableFuture.runAsync(
              () ->
                  guarded(
                      peer,
                      "soak",
                      () -> {
                        try (ServerProcess server = start(peer, "soak")) {
                          SoakRow row =
                              Soak.run(
                                  server, probe, options.soakRate(), options.soak(), this::say);
                          synchronized (results) {
                            results.soak.add(row);
                          }
                        }
                      })));
    }
    running.forEach(CompletableFuture::join);
  }

  private double capacity(Peer peer, ServerProcess server) throws Exception {
    Double known = capacities.get(peer);
    if (known != null) {
      return known;
    }
    if (options.capacity() > 0) {
      capacities.put(peer, options.capacity());
      results.capacity.add(new CapacityRow(peer.id, options.capacity(), false, List.of()));
      return options.capacity();
    }
    List<CapacityStep> steps = new ArrayList<>();
    double capacity;
    try (LoadGenerator client = new LoadGenerator()) {
      capacity = Overload.capacity(client, server.awaitPort(), options.p99BoundMillis(), steps);
    }
    capacities.put(peer, capacity);
    results.capacity.add(new CapacityRow(peer.id, capacity, true, steps));
    say(
        String.format(
            "%s: capacity %.0f/s (p99 <= %.0f ms)", peer.id, capacity, options.p99BoundMillis()));
    return capacity;
  }

  private ServerProcess start(Peer peer, String part) throws Exception {
    ServerProcess server =
        ServerProcess.start(
            peer, EE, layout, options.java(), options.jvmFlags(), logs, peer.id + "-" + part);
    server.awaitPort();
    return server;
  }

  private interface Part {
    void run() throws Exception;
  }

  private void guarded(Peer peer, String part, Part body) {
    try {
      body.run();
    } catch (Exception e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      synchronized (results) {
        results.failures.add(new Failure(peer.id, part, message));
      }
      say(peer.id + ": " + part + " failed: " + message);
    }
  }

  private void write() throws Exception {
    Files.createDirectories(options.out());
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(options.out().resolve("results.json").toFile(), results);
    Files.writeString(
        options.out().resolve("summary.md"),
        ReliabilityReport.markdown(results, options),
        StandardCharsets.UTF_8);
  }

  private synchronized void say(String line) {
    long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
    out.printf("[%02d:%02d]  %s%n", s / 60, s % 60, line);
    out.flush();
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
