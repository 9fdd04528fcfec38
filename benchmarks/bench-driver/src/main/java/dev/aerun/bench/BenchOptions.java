package dev.aerun.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The driver's command line, read once: each component is what the option of its name in {@link
 * #USAGE} gives ({@code soak} from {@code --soak-minutes}, {@code acceptEncoding} null for none),
 * the defaults filled in.
 */
public record BenchOptions(
    Profile profile,
    Path out,
    List<Peer> peers,
    List<Scenario> scenarios,
    List<Long> echoSizes,
    List<String> ees,
    Path java,
    List<String> jvmFlags,
    double p99BoundMillis,
    boolean jfr,
    Path repo,
    double maxStealPercent,
    Duration soak,
    double soakRate,
    int echoRounds,
    String acceptEncoding) {

  /** The EE versions the benchmarks know, in report order (each a {@code bench-app-<ee>.war}). */
  static final List<String> EES = List.of("ee10", "ee8", "ee11");

  static final List<String> DEFAULT_JVM_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");

  /** The help text ({@code usage.txt}): every option, what it does, its default. */
  static final String USAGE = usage();

  private static String usage() {
    try (InputStream in = BenchOptions.class.getResourceAsStream("usage.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Thrown for a wrong command line; the message is for the user. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static BenchOptions parse(String[] args, Path defaultRepo) throws UsageException {
    Profile profile = Profile.full();
    Path out = null;
    List<Peer> peers = Peer.BUILT_IN;
    List<Scenario> scenarios = Scenario.DEFAULT;
    List<Long> echoSizes = List.of(32L * 1024, 1024L * 1024, 30L * 1024 * 1024);
    List<String> ees = EES;
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> jvmFlags = DEFAULT_JVM_FLAGS;
    double p99Bound = 10;
    boolean jfr = false;
    Path repo = defaultRepo;
    boolean calibrate = false;
    String acceptEncoding = null;
    boolean h2cPeak = false;
    double maxSteal = 3;
    Integer echoRounds = null;
    Duration soak = Duration.ofMinutes(1);
    double soakRate = 200;
    List<Peer> custom = new ArrayList<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        switch (arg) {
          case "--quick" -> profile = Profile.quick();
          case "--full" -> profile = Profile.full();
          case "--out" -> out = Path.of(value(args, ++i, arg));
          case "--peers" -> peers = list(value(args, ++i, arg)).stream().map(Peer::byId).toList();
          case "--peer" -> custom.add(Peer.custom(value(args, ++i, arg)));
          case "--scenarios" ->
              scenarios = list(value(args, ++i, arg)).stream().map(Scenario::byId).toList();
          case "--echo-sizes" ->
              echoSizes = list(value(args, ++i, arg)).stream().map(BenchOptions::size).toList();
          case "--echo-rounds" -> {
            String text = value(args, ++i, arg);
            if (!text.matches("[1-9][0-9]{0,2}")) {
              throw new UsageException(
                  "--echo-rounds: expected a number from 1, got '" + text + "'");
            }
            echoRounds = Integer.valueOf(text);
          }
          case "--ee" -> {
            ees = list(value(args, ++i, arg));
            for (String ee : ees) {
              if (!EES.contains(ee)) {
                throw new UsageException(
                    "--ee: expected one of " + String.join(", ", EES) + ", got '" + ee + "'");
              }
            }
          }
          case "--java" -> java = Path.of(value(args, ++i, arg));
          case "--jvm-flags" ->
              jvmFlags =
                  Arrays.stream(value(args, ++i, arg).trim().split("\\s+"))
                      .filter(s -> !s.isEmpty())
                      .toList();
          case "--p99-bound-ms" -> p99Bound = Double.parseDouble(value(args, ++i, arg));
          case "--max-steal" -> maxSteal = Double.parseDouble(value(args, ++i, arg));
          case "--soak-minutes" ->
              soak = Duration.ofSeconds(Math.round(60 * positive(value(args, ++i, arg), arg)));
          case "--soak-rate" -> soakRate = positive(value(args, ++i, arg), arg);
          case "--jfr" -> jfr = true;
          case "--repo" -> repo = Path.of(value(args, ++i, arg));
          case "--calibrate" -> calibrate = true;
          case "--accept-encoding" -> acceptEncoding = value(args, ++i, arg);
          case "--h2c-peak" -> h2cPeak = true;
          default -> throw new UsageException("unknown option '" + arg + "'");
        }
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }

    List<Peer> all = new ArrayList<>(peers);
    for (Peer peer : custom) {
      if (all.stream().anyMatch(p -> p.id.equals(peer.id))) {
        throw new UsageException("--peer: '" + peer.id + "' given twice");
      }
      all.add(peer);
    }
    peers = List.copyOf(all);
    if (calibrate) { // the calibrate scenario alone, on bare Jetty's EE10 app
      peers = List.of(Peer.BARE);
      ees = List.of("ee10");
      scenarios = List.of(Scenario.CALIBRATE);
    } else if (h2cPeak) { // the h2c-peak scenario alone, bare Jetty and HttpConnector on EE10
      peers = List.of(Peer.BARE, Peer.HTTP);
      ees = List.of("ee10");
      scenarios = List.of(Scenario.H2C_PEAK);
    }
    if (peers.isEmpty() || scenarios.isEmpty() || ees.isEmpty() || echoSizes.isEmpty()) {
      throw new UsageException("--peers, --scenarios, --ee and --echo-sizes must not be empty");
    }
    if (repo == null || !Files.isDirectory(repo)) {
      throw new UsageException("cannot find the built repository: give --repo DIR");
    }
    if (jfr) {
      // Deep enough for Jetty's stacks, so that a sample reaches the handlers below the
      // allocation; given to every peer, so that the flags stay the same for all.
      String stackDepth = "-XX:FlightRecorderOptions:stackdepth=512";
      jvmFlags = Stream.concat(jvmFlags.stream(), Stream.of(stackDepth)).toList();
    }
    if (out == null) {
      String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      String kind = calibrate ? "calibrate-" : h2cPeak ? "h2c-peak-" : "";
      out = Path.of("results", stamp + "-" + kind + profile.name());
    }
    return new BenchOptions(
        profile,
        out.toAbsolutePath().normalize(),
        peers,
        scenarios,
        echoSizes,
        ees,
        java,
        jvmFlags,
        p99Bound,
        jfr,
        repo,
        maxSteal,
        soak,
        soakRate,
        echoRounds == null ? profile.echoRounds() : echoRounds,
        acceptEncoding);
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

  /** The steal rule of this run's timed phases. */
  Steal steal() {
    return new Steal(
        maxStealPercent,
        profile.stealAttempts(),
        profile.stealCalmBudget(),
        Steal.Sample::now,
        Thread::sleep);
  }

  boolean runs(Scenario scenario) {
    return scenarios.contains(scenario);
  }

  private static String value(String[] args, int i, String option) throws UsageException {
    if (i >= args.length) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  /** The comma-separated items of {@code value}, trimmed and lower-cased; blanks dropped. */
  public static List<String> list(String value) {
    return Arrays.stream(value.split(","))
        .filter(item -> !item.isBlank())
        .map(item -> item.trim().toLowerCase(Locale.ROOT))
        .toList();
  }

  /** {@code 32k}, {@code 1m}, {@code 30m} or a number of bytes. */
  static long size(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    long unit = t.endsWith("k") ? 1024 : t.endsWith("m") ? 1024 * 1024 : 1;
    String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
    try {
      long value = Long.parseLong(digits) * unit;
      if (value <= 0 || value > 32L * 1024 * 1024) {
        throw new IllegalArgumentException("echo size out of range (1 byte to 32m): " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a size: '" + text + "' (e.g. 32k, 1m, 30m)");
    }
  }
}
