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
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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

  private static final List<Long> ECHO_SIZES = List.of(32L << 10, 1L << 20, 30L << 20);

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

  /**
   * Each option of {@link #USAGE} and whether it takes a value: the help text is the parser's
   * table, so that no option is read without its help or documented without being read.
   */
  private static final Map<String, Boolean> OPTIONS =
      Pattern.compile("(?m)^  (--[a-z0-9-]+)( [A-Z\"])?")
          .matcher(USAGE)
          .results()
          .collect(Collectors.toMap(m -> m.group(1), m -> m.group(2) != null));

  static BenchOptions parse(String[] args, Path defaultRepo) throws UsageException {
    Map<String, String> given = new HashMap<>(); // the last of an option wins
    List<Peer> custom = new ArrayList<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String option = args[i];
        Boolean valued = OPTIONS.get(option);
        if (valued == null || (valued && i + 1 == args.length)) {
          throw new UsageException(
              valued == null ? "unknown option '" + option + "'" : option + " needs a value");
        }
        String value = valued ? args[++i] : "";
        switch (option) {
          case "--peer" -> custom.add(Peer.custom(value));
          case "--quick", "--full" -> given.put("profile", option);
          default -> given.put(option, value);
        }
      }
      return of(given, custom, defaultRepo);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The options given, each read or its default, the custom peers after the built-in ones. */
  private static BenchOptions of(Map<String, String> given, List<Peer> custom, Path defaultRepo)
      throws UsageException {
    Profile profile = "--quick".equals(given.get("profile")) ? Profile.quick() : Profile.full();
    boolean calibrate = given.containsKey("--calibrate");
    boolean h2cPeak = given.containsKey("--h2c-peak");
    List<Peer> peers = new ArrayList<>(read(given, "--peers", Peer.BUILT_IN, Peer::byId));
    for (Peer peer : custom) {
      if (peers.stream().anyMatch(p -> p.id.equals(peer.id))) {
        throw new UsageException("--peer: '" + peer.id + "' given twice");
      }
      peers.add(peer);
    }
    List<Scenario> scenarios = read(given, "--scenarios", Scenario.DEFAULT, Scenario::byId);
    List<String> ees = read(given, "--ee", EES, BenchOptions::ee);
    if (calibrate || h2cPeak) { // that scenario alone, on bare Jetty (and HttpConnector), EE10
      peers = calibrate ? List.of(Peer.BARE) : List.of(Peer.BARE, Peer.HTTP);
      ees = List.of("ee10");
      scenarios = List.of(calibrate ? Scenario.CALIBRATE : Scenario.H2C_PEAK);
    }
    List<Long> echoSizes = read(given, "--echo-sizes", ECHO_SIZES, BenchOptions::size);
    if (peers.isEmpty() || scenarios.isEmpty() || ees.isEmpty() || echoSizes.isEmpty()) {
      throw new UsageException("--peers, --scenarios, --ee and --echo-sizes must not be empty");
    }
    Path repo = given.containsKey("--repo") ? Path.of(given.get("--repo")) : defaultRepo;
    if (repo == null || !Files.isDirectory(repo)) {
      throw new UsageException("cannot find the built repository: give --repo DIR");
    }
    String flags = given.getOrDefault("--jvm-flags", String.join(" ", DEFAULT_JVM_FLAGS));
    List<String> jvmFlags =
        Arrays.stream(flags.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    if (given.containsKey("--jfr")) {
      // Deep enough for Jetty's stacks, so that a sample reaches the handlers below the
      // allocation; given to every peer, so that the flags stay the same for all.
      String stackDepth = "-XX:FlightRecorderOptions:stackdepth=512";
      jvmFlags = Stream.concat(jvmFlags.stream(), Stream.of(stackDepth)).toList();
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    String kind = calibrate ? "calibrate-" : h2cPeak ? "h2c-peak-" : "";
    String out = given.getOrDefault("--out", "results/" + stamp + "-" + kind + profile.name());
    String echoRounds = given.getOrDefault("--echo-rounds", "" + profile.echo().rounds());
    if (!echoRounds.matches("[1-9][0-9]{0,2}")) {
      throw new UsageException("--echo-rounds: expected a number from 1, got '" + echoRounds + "'");
    }
    return new BenchOptions(
        profile,
        Path.of(out).toAbsolutePath().normalize(),
        List.copyOf(peers),
        scenarios,
        echoSizes,
        ees,
        Path.of(given.getOrDefault("--java", System.getProperty("java.home") + "/bin/java")),
        jvmFlags,
        Double.parseDouble(given.getOrDefault("--p99-bound-ms", "10")),
        given.containsKey("--jfr"),
        repo,
        Double.parseDouble(given.getOrDefault("--max-steal", "3")),
        Duration.ofSeconds(Math.round(60 * positive(given, "--soak-minutes", "1"))),
        positive(given, "--soak-rate", "200"),
        Integer.parseInt(echoRounds),
        given.get("--accept-encoding"));
  }

  /** The items of a list option read by {@code item}, or {@code fallback} if not given. */
  private static <T> List<T> read(
      Map<String, String> given, String option, List<T> fallback, Function<String, T> item) {
    String value = given.get(option);
    return value == null ? fallback : list(value).stream().map(item).toList();
  }

  private static String ee(String ee) {
    if (!EES.contains(ee)) {
      throw new IllegalArgumentException(
          "--ee: expected one of " + String.join(", ", EES) + ", got '" + ee + "'");
    }
    return ee;
  }

  private static double positive(Map<String, String> given, String option, String fallback) {
    String text = given.getOrDefault(option, fallback);
    try {
      double value = Double.parseDouble(text);
      if (value > 0 && Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // Said below.
    }
    throw new IllegalArgumentException(option + ": expected a positive number, got '" + text + "'");
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
