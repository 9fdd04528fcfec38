package dev.aerun.bench.reliability;

import dev.aerun.bench.BenchOptions;
import dev.aerun.bench.Peer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;

/**
 * The reliability profile's command line ({@code bench-driver.jar --reliability [options]}).
 *
 * @param parts which parts run: overload, soak, sigterm
 * @param peers the modes, each its own server JVM serving the EE10 bench app
 * @param capacity requests per second the overload multiplies, or 0 to measure it first
 * @param overloadFactor how many times the capacity the overload sends
 * @param overload how long the overload lasts
 * @param soak how long the soak lasts
 * @param soakRate the soak's steady rate, requests per second
 * @param p99BoundMillis the latency bound of the capacity search and of recovery
 * @param java the server JVMs' {@code java}
 * @param jvmFlags the server JVMs' flags
 * @param out the results folder
 * @param repo the built repository
 */
public record ReliabilityOptions(
    List<String> parts,
    List<Peer> peers,
    double capacity,
    double overloadFactor,
    Duration overload,
    Duration soak,
    double soakRate,
    double p99BoundMillis,
    Path java,
    List<String> jvmFlags,
    Path out,
    Path repo) {

  static final List<String> PARTS = List.of("overload", "soak", "sigterm");

  public static final String USAGE =
      """
      usage: java -jar benchmarks/bench-driver/target/bench-driver.jar --reliability [options]

        --parts LIST            overload,soak,sigterm (default: all)
        --peers LIST            http,legacy (default); legacy-tcp also works
        --capacity N            the capacity (requests/s of GET /hello) the overload multiplies
                                (default: measured first, a rising-rate search)
        --overload-factor F     the overload's rate, times the capacity (default 5)
        --overload-seconds N    how long the overload lasts (default 30)
        --soak-minutes N        how long the soak lasts (default 1; the published figure: 30)
        --soak-rate N           the soak's steady rate in requests/s (default 200)
        --p99-bound-ms N        latency bound of the capacity search and of recovery (default 10)
        --java PATH             java of the server JVMs (default: the driver's own)
        --jvm-flags "FLAGS"     server JVM flags (default: -Xms1g -Xmx1g -XX:+UseG1GC)
        --out DIR               results folder (default: results/<date>-reliability)
        --repo DIR              the built repository (default: found from the driver's jar)
      """;

  /** Thrown for a wrong command line; the message is for the user. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static ReliabilityOptions parse(String[] args, Path defaultRepo) throws UsageException {
    List<String> parts = PARTS;
    List<Peer> peers = List.of(Peer.HTTP, Peer.LEGACY);
    double capacity = 0;
    double factor = 5;
    Duration overload = Duration.ofSeconds(30);
    Duration soak = Duration.ofMinutes(1);
    double soakRate = 200;
    double bound = 10;
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> jvmFlags = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");
    Path out = null;
    Path repo = defaultRepo;
    try {
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        switch (arg) {
          case "--parts" -> {
            parts = BenchOptions.list(value(args, ++i, arg));
            for (String part : parts) {
              if (!PARTS.contains(part)) {
                throw new UsageException(
                    "--parts: expected overload, soak or sigterm, got " + part);
              }
            }
          }
          case "--peers" -> {
            peers = BenchOptions.list(value(args, ++i, arg)).stream().map(Peer::byId).toList();
            if (peers.contains(Peer.BARE)) {
              throw new UsageException("--peers: the reliability profile runs the runtime's modes");
            }
          }
          case "--capacity" -> capacity = positive(value(args, ++i, arg), arg);
          case "--overload-factor" -> factor = positive(value(args, ++i, arg), arg);
          case "--overload-seconds" ->
              overload = Duration.ofSeconds((long) positive(value(args, ++i, arg), arg));
          case "--soak-minutes" ->
              soak = Duration.ofSeconds(Math.round(60 * positive(value(args, ++i, arg), arg)));
          case "--soak-rate" -> soakRate = positive(value(args, ++i, arg), arg);
          case "--p99-bound-ms" -> bound = positive(value(args, ++i, arg), arg);
          case "--java" -> java = Path.of(value(args, ++i, arg));
          case "--jvm-flags" ->
              jvmFlags =
                  Arrays.stream(value(args, ++i, arg).trim().split("\\s+"))
                      .filter(s -> !s.isEmpty())
                      .toList();
          case "--out" -> out = Path.of(value(args, ++i, arg));
          case "--repo" -> repo = Path.of(value(args, ++i, arg));
          default -> throw new UsageException("unknown option '" + arg + "'");
        }
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (parts.isEmpty() || peers.isEmpty()) {
      throw new UsageException("--parts and --peers must not be empty");
    }
    if (repo == null || !Files.isDirectory(repo)) {
      throw new UsageException("cannot find the built repository: give --repo DIR");
    }
    if (out == null) {
      String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      out = Path.of("results", stamp + "-reliability");
    }
    return new ReliabilityOptions(
        parts,
        peers,
        capacity,
        factor,
        overload,
        soak,
        soakRate,
        bound,
        java,
        jvmFlags,
        out.toAbsolutePath().normalize(),
        repo);
  }

  boolean runs(String part) {
    return parts.contains(part);
  }

  private static String value(String[] args, int i, String option) throws UsageException {
    if (i >= args.length) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  private static double positive(String text, String option) throws UsageException {
    try {
      double value = Double.parseDouble(text);
      if (value > 0 && Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // Said below.
    }
    throw new UsageException(option + ": expected a positive number, got '" + text + "'");
  }
}
