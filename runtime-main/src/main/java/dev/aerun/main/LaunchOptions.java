package dev.aerun.main;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.logging.LogFormat;
import dev.aerun.runtime.logging.RuntimeLogs;
import dev.aerun.runtime.security.LoginUrls;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Everything the launcher needs from its command line, its environment and the JVM's system
 * properties, read once at the edge.
 *
 * <p>Nothing below the launcher reads {@code System.getenv} or {@code System.getProperty}: they
 * receive this value (or what is derived from it) instead, so every rule here is unit-tested
 * without a server.
 */
public final class LaunchOptions {
  /** The port used when neither {@code --port} nor {@code PORT} says otherwise. */
  public static final int DEFAULT_PORT = 8080;

  /** The platform environment variables the runtime reads, in the order {@code --help} shows. */
  public static final List<String> PLATFORM_VARIABLES =
      List.of(
          "PORT",
          "GAE_APPLICATION",
          "GAE_SERVICE",
          "GAE_VERSION",
          "GAE_INSTANCE",
          "GAE_RUNTIME",
          "GAE_ENV",
          "GOOGLE_CLOUD_PROJECT",
          "GAE_MEMORY_MB");

  /** Environment variable naming the app when no path is given on the command line. */
  public static final String APP_VARIABLE = "AERUN_APP";

  /** Environment variable naming the shared session store (see {@link #sessionsJdbcUrl()}). */
  public static final String SESSIONS_JDBC_URL_VARIABLE = "AERUN_SESSIONS_JDBC_URL";

  /** Environment variable with the shutdown grace period (see {@link #shutdownGrace()}). */
  public static final String SHUTDOWN_GRACE_VARIABLE = "AERUN_SHUTDOWN_GRACE";

  /** The shutdown grace period unless configured: what Cloud Run allows after SIGTERM. */
  static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

  /** Which half of legacy RPC mode this process runs ({@code --role}). */
  public enum Role {
    /** The whole runtime in this process: the app, and in legacy mode the front end too. */
    ALL,
    /** Legacy mode's front end only: the public port, forwarding to a runtime at --rpc-target. */
    FRONT,
    /** Legacy mode's runtime only: the app, serving gRPC at --rpc-listen. */
    RUNTIME
  }

  /** How a single-process legacy runtime's halves talk ({@code --rpc-transport}). */
  public enum RpcTransportChoice {
    /** In the JVM, no sockets. */
    INPROCESS,
    /** TCP on an ephemeral port of 127.0.0.1. */
    TCP,
    /** A Unix domain socket in the temporary directory. */
    UNIX
  }

  private final Optional<Path> app;
  private final int port;
  private final String address;
  private final Optional<ServingMode> mode;
  private final Optional<TrustPolicy> trustedProxies;
  private final boolean development;
  private final Optional<Path> tempDirectory;
  private final Map<String, String> platform;
  private final Map<String, String> systemProperties;
  private final Role role;
  private final RpcTransportChoice rpcTransport;
  private final Optional<RpcTransport> rpcListen;
  private final Optional<RpcTransport> rpcTarget;
  private final LogFormat logFormat;
  private final Optional<Boolean> requestLog;
  private final Duration shutdownGrace;
  private final Optional<Integer> maxConcurrentRequests;
  private final Optional<Integer> maxQueuedRequests;
  private final Optional<Duration> queueTimeout;
  private final Optional<Duration> requestBodyTimeout;
  private final Optional<Long> relaunchedAt;
  private final WarUnpacker.Limits warLimits;
  private final LoginUrls loginUrls;
  private final Optional<String> sessionsJdbcUrl;
  private final Optional<EeVersion> ee;
  private final boolean watch;
  private final List<Path> classpath;
  private final Optional<Long> parentPid;

  private LaunchOptions(Builder b) {
    this.ee = Optional.ofNullable(b.ee);
    this.watch = b.watch;
    this.classpath = List.copyOf(b.classpath);
    this.parentPid = Optional.ofNullable(b.parentPid);
    this.app = Optional.ofNullable(b.app);
    this.role = b.role;
    this.rpcTransport = b.rpcTransport == null ? RpcTransportChoice.INPROCESS : b.rpcTransport;
    this.rpcListen = Optional.ofNullable(b.rpcListen);
    this.rpcTarget = Optional.ofNullable(b.rpcTarget);
    this.port = b.port;
    this.address = b.address;
    this.mode = Optional.ofNullable(b.mode);
    this.trustedProxies = Optional.ofNullable(b.trustedProxies);
    this.development = b.development;
    this.tempDirectory = Optional.ofNullable(b.tempDirectory);
    this.platform = Collections.unmodifiableMap(new LinkedHashMap<>(b.platform));
    this.systemProperties = Collections.unmodifiableMap(new LinkedHashMap<>(b.systemProperties));
    this.logFormat = b.logFormat;
    this.requestLog = Optional.ofNullable(b.requestLog);
    this.shutdownGrace = b.shutdownGrace;
    this.maxConcurrentRequests = Optional.ofNullable(b.maxConcurrentRequests);
    this.maxQueuedRequests = Optional.ofNullable(b.maxQueuedRequests);
    this.queueTimeout = Optional.ofNullable(b.queueTimeout);
    this.requestBodyTimeout = Optional.ofNullable(b.requestBodyTimeout);
    this.relaunchedAt = Optional.ofNullable(b.relaunchedAt);
    this.warLimits = new WarUnpacker.Limits(b.maxWarBytes, b.maxWarEntries);
    this.loginUrls = new LoginUrls(b.loginUrl, b.logoutUrl);
    this.sessionsJdbcUrl = Optional.ofNullable(b.sessionsJdbcUrl);
  }

  /**
   * Reads the options.
   *
   * @param environment the process environment (only the variables this class names are kept)
   * @param systemProperties the JVM's system properties as given with {@code -D}; they override the
   *     descriptor's {@code <system-properties>}
   * @param args the command line after the jar
   * @throws UsageException when the command line is wrong, or {@code --help} was asked for (then
   *     {@link UsageException#isHelp()} is true)
   */
  public static LaunchOptions parse(
      Map<String, String> environment, Map<String, String> systemProperties, String... args)
      throws UsageException {
    Builder b = new Builder();
    // Platform variables a relaunch added from <env-variables> are the app's, not the runtime's.
    Set<String> fromDescriptor =
        Set.copyOf(
            List.of(
                environment.getOrDefault(EnvVariables.FROM_DESCRIPTOR_VARIABLE, "").split(",")));
    for (String name : PLATFORM_VARIABLES) {
      if (fromDescriptor.contains(name)) {
        continue;
      }
      String value = environment.get(name);
      if (value != null && !value.isBlank()) {
        b.platform.put(name, value.trim());
      }
    }
    b.systemProperties.putAll(systemProperties);
    String portValue = b.platform.get("PORT");
    if (portValue != null) {
      b.port = parsePort(portValue, "environment variable PORT");
    }
    String appValue = environment.get(APP_VARIABLE);
    String formatValue = environment.get(RuntimeLogs.FORMAT_VARIABLE);
    if (formatValue != null && !formatValue.isBlank()) {
      b.logFormat =
          parseLogFormat(formatValue, "environment variable " + RuntimeLogs.FORMAT_VARIABLE);
      b.logFormatGiven = true;
    }
    formatValue = systemProperties.get(RuntimeLogs.FORMAT_PROPERTY);
    if (formatValue != null) {
      b.logFormat = parseLogFormat(formatValue, "-D" + RuntimeLogs.FORMAT_PROPERTY);
      b.logFormatGiven = true;
    }

    String relaunched = environment.get(EnvVariables.RELAUNCHED_VARIABLE);
    if (relaunched != null) {
      try {
        b.relaunchedAt = Long.parseLong(relaunched.trim());
      } catch (NumberFormatException e) {
        throw new UsageException(
            "environment variable " + EnvVariables.RELAUNCHED_VARIABLE + " is the launcher's own");
      }
    }

    String sessionsValue = environment.get(SESSIONS_JDBC_URL_VARIABLE);
    if (sessionsValue != null && !sessionsValue.isBlank()) {
      b.sessionsJdbcUrl = sessionsValue.trim();
    }

    String graceValue = environment.get(SHUTDOWN_GRACE_VARIABLE);
    if (graceValue != null && !graceValue.isBlank()) {
      b.shutdownGrace =
          parseDuration(graceValue, "environment variable " + SHUTDOWN_GRACE_VARIABLE);
    }

    Deque<String> rest = new ArrayDeque<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        rest.add(arg.substring(0, eq)); // --name=value is read as --name value
        rest.add(arg.substring(eq + 1));
      } else {
        rest.add(arg);
      }
    }
    List<String> positional = new ArrayList<>();
    while (!rest.isEmpty()) {
      String arg = rest.poll();
      switch (arg) {
        case "-h", "--help" -> throw UsageException.help();
        case "--port" -> b.port = parsePort(value(rest, arg), "--port");
        case "--address" -> b.address = value(rest, arg);
        case "--mode" -> b.mode = parseMode(value(rest, arg));
        case "--trusted-proxies" -> b.trustedProxies = parseTrustedProxies(value(rest, arg), arg);
        case "--temp-dir" -> b.tempDirectory = Path.of(value(rest, arg));
        case "--development" -> b.development = true;
        case "--watch" -> b.watch = true;
        case "--ee" -> b.ee = parseEe(value(rest, arg));
        case "--classpath" -> b.classpath.addAll(parseClasspath(value(rest, arg)));
        case "--parent-pid" -> b.parentPid = (long) parseCount(value(rest, arg), arg, 1);
        case "--role" -> b.role = parseRole(value(rest, arg));
        case "--rpc-transport" -> b.rpcTransport = parseRpcTransport(value(rest, arg));
        case "--rpc-listen" -> b.rpcListen = parseRpcAddress(value(rest, arg), arg);
        case "--rpc-target" -> b.rpcTarget = parseRpcAddress(value(rest, arg), arg);
        case "--log-format" -> {
          b.logFormat = parseLogFormat(value(rest, arg), arg);
          b.logFormatGiven = true;
        }
        case "--request-log" -> b.requestLog = parseOnOff(value(rest, arg), arg);
        case "--shutdown-grace" -> b.shutdownGrace = parseDuration(value(rest, arg), arg);
        case "--max-concurrent-requests" ->
            b.maxConcurrentRequests = parseCount(value(rest, arg), arg, 1);
        case "--max-queued-requests" -> b.maxQueuedRequests = parseCount(value(rest, arg), arg, 0);
        case "--queue-timeout" -> b.queueTimeout = parseDuration(value(rest, arg), arg);
        case "--max-war-size" -> b.maxWarBytes = parseSize(value(rest, arg), arg);
        case "--max-war-entries" -> b.maxWarEntries = parseCount(value(rest, arg), arg, 1);
        case "--login-url" -> b.loginUrl = parseUrlTemplate(value(rest, arg), arg, true);
        case "--logout-url" -> b.logoutUrl = parseUrlTemplate(value(rest, arg), arg, false);
        case "--sessions-jdbc-url" -> b.sessionsJdbcUrl = value(rest, arg);
        case "--request-body-timeout" ->
            b.requestBodyTimeout = parseDuration(value(rest, arg), arg);
        default -> {
          if (arg.startsWith("-")) {
            throw new UsageException("unknown option " + arg + " (see --help)");
          }
          positional.add(arg);
        }
      }
    }
    if (b.sessionsJdbcUrl != null && !b.sessionsJdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new UsageException(
          "the session store must be a jdbc:postgresql:// URL (--sessions-jdbc-url or $"
              + SESSIONS_JDBC_URL_VARIABLE
              + ")");
    }
    if (positional.size() > 1) {
      throw new UsageException("expected one app, got " + positional.size() + ": " + positional);
    }
    checkRoleOptions(b);
    if (b.watch && !b.development) {
      throw new UsageException("--watch is a development feature: add --development");
    }
    if (b.watch && b.role != Role.ALL) {
      throw new UsageException("--watch reloads the whole runtime in one process: not with --role");
    }
    if (b.development && !b.logFormatGiven) {
      b.logFormat = LogFormat.TEXT; // a developer reads the log, whatever stdout is
    }
    String appArg = positional.isEmpty() ? appValue : positional.get(0);
    if (appArg != null && !appArg.isBlank()) {
      b.app = Path.of(appArg);
    } else if (b.role != Role.FRONT) {
      throw new UsageException(
          "no app given: name an exploded app directory or a .war, or set " + APP_VARIABLE);
    }
    return new LaunchOptions(b);
  }

  /** A login or logout URL template (see {@link LoginUrls}). */
  private static String parseUrlTemplate(String value, String option, boolean login)
      throws UsageException {
    try {
      return login
          ? new LoginUrls(value, LoginUrls.DEFAULT_LOGOUT).login()
          : new LoginUrls(LoginUrls.DEFAULT_LOGIN, value).logout();
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
  }

  /** Each legacy-mode option belongs to one role; a split needs its address. */
  private static void checkRoleOptions(Builder b) throws UsageException {
    if (b.role != Role.ALL && b.mode == ServingMode.HTTP_CONNECTOR) {
      throw new UsageException(
          "--role " + name(b.role) + " is a half of legacy RPC mode; it cannot run --mode http");
    }
    if (b.rpcTransport != null && b.role != Role.ALL) {
      throw new UsageException(
          "--rpc-transport chooses how one process talks to itself; with --role "
              + name(b.role)
              + " use "
              + (b.role == Role.FRONT ? "--rpc-target" : "--rpc-listen"));
    }
    if (b.rpcTransport != null && b.mode == ServingMode.HTTP_CONNECTOR) {
      throw new UsageException("--rpc-transport is for legacy RPC mode, not --mode http");
    }
    if (b.rpcListen != null && b.role != Role.RUNTIME) {
      throw new UsageException("--rpc-listen is for --role runtime");
    }
    if (b.rpcTarget != null && b.role != Role.FRONT) {
      throw new UsageException("--rpc-target is for --role front");
    }
    if (b.role == Role.RUNTIME && b.rpcListen == null) {
      throw new UsageException(
          "--role runtime needs --rpc-listen tcp:HOST:PORT or unix:PATH: where to serve gRPC");
    }
    if (b.role == Role.FRONT && b.rpcTarget == null) {
      throw new UsageException(
          "--role front needs --rpc-target tcp:HOST:PORT or unix:PATH: where the runtime is");
    }
    if (b.role == Role.FRONT
        && b.rpcTarget.kind() == RpcTransport.Kind.TCP
        && b.rpcTarget.port() == 0) {
      throw new UsageException("--rpc-target needs the runtime's port, not 0");
    }
  }

  private static EeVersion parseEe(String value) throws UsageException {
    switch (value.toLowerCase(Locale.ROOT)) {
      case "ee8":
        return EeVersion.EE8;
      case "ee10":
        return EeVersion.EE10;
      case "ee11":
        return EeVersion.EE11;
      default:
        throw new UsageException("--ee must be 'ee8', 'ee10' or 'ee11', not '" + value + "'");
    }
  }

  /** Entries separated by the platform's path separator ({@code :} or {@code ;}). */
  private static List<Path> parseClasspath(String value) {
    List<Path> entries = new ArrayList<>();
    for (String entry : value.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
      if (!entry.isBlank()) {
        entries.add(Path.of(entry));
      }
    }
    return entries;
  }

  private static Role parseRole(String value) throws UsageException {
    try {
      return Role.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--role must be 'all', 'front' or 'runtime', not '" + value + "'");
    }
  }

  private static RpcTransportChoice parseRpcTransport(String value) throws UsageException {
    try {
      return RpcTransportChoice.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "--rpc-transport must be 'inprocess', 'tcp' or 'unix', not '"
              + value
              + "' (a two-process split uses --role with --rpc-listen/--rpc-target)");
    }
  }

  /** A socket address: an in-process name means nothing to another process. */
  private static RpcTransport parseRpcAddress(String value, String option) throws UsageException {
    RpcTransport address;
    try {
      address = RpcTransport.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
    if (!address.isSocket()) {
      throw new UsageException(option + " must be tcp:HOST:PORT or unix:PATH, not '" + value + "'");
    }
    return address;
  }

  private static String name(Role role) {
    return role.name().toLowerCase(Locale.ROOT);
  }

  private static String value(Deque<String> rest, String option) throws UsageException {
    String value = rest.poll();
    if (value == null || value.startsWith("--")) {
      throw new UsageException(option + " needs a value");
    }
    return value;
  }

  private static int parsePort(String value, String source) throws UsageException {
    try {
      int port = Integer.parseInt(value.trim());
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(source + " must be a port number 0-65535, not '" + value + "'");
  }

  private static ServingMode parseMode(String value) throws UsageException {
    switch (value.toLowerCase(Locale.ROOT)) {
      case "http", "httpconnector", "http-connector":
        return ServingMode.HTTP_CONNECTOR;
      case "legacy", "rpc", "legacy-rpc":
        return ServingMode.LEGACY_RPC;
      default:
        throw new UsageException("--mode must be 'http' or 'legacy', not '" + value + "'");
    }
  }

  private static int parseCount(String value, String option, int min) throws UsageException {
    try {
      int count = Integer.parseInt(value.trim());
      if (count >= min) {
        return count;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(
        option + " must be a whole number of at least " + min + ", not '" + value + "'");
  }

  /** A byte count: digits, optionally followed by k, m or g (KiB, MiB, GiB). */
  static long parseSize(String value, String option) throws UsageException {
    String v = value.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (!v.isEmpty()) {
      switch (v.charAt(v.length() - 1)) {
        case 'k' -> unit = 1024L;
        case 'm' -> unit = 1024L * 1024;
        case 'g' -> unit = 1024L * 1024 * 1024;
        default -> unit = 1;
      }
    }
    String digits = unit == 1 ? v : v.substring(0, v.length() - 1);
    try {
      long amount = Long.parseLong(digits);
      if (amount >= 1 && !digits.startsWith("+")) {
        return Math.multiplyExact(amount, unit);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below
    }
    throw new UsageException(
        option + " must be a size such as 512m, 2g or 1048576 (bytes), not '" + value + "'");
  }

  private static TrustPolicy parseTrustedProxies(String value, String option)
      throws UsageException {
    try {
      return TrustPolicy.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
  }

  private static boolean parseOnOff(String value, String option) throws UsageException {
    switch (value.toLowerCase(Locale.ROOT)) {
      case "on":
        return true;
      case "off":
        return false;
      default:
        throw new UsageException(option + " must be 'on' or 'off', not '" + value + "'");
    }
  }

  private static LogFormat parseLogFormat(String value, String source) throws UsageException {
    try {
      return LogFormat.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(source + ": " + e.getMessage());
    }
  }

  /**
   * The staged app: an exploded directory or a {@code .war} file. Always present but for {@code
   * --role front}, which may name one only to read its descriptor.
   */
  public Optional<Path> app() {
    return app;
  }

  /** {@code --role}: the whole runtime (default), or one half of legacy RPC mode. */
  public Role role() {
    return role;
  }

  /** {@code --rpc-transport}: how a single-process legacy runtime talks to itself. */
  public RpcTransportChoice rpcTransport() {
    return rpcTransport;
  }

  /** {@code --rpc-listen}: where {@code --role runtime} serves gRPC. */
  public Optional<RpcTransport> rpcListen() {
    return rpcListen;
  }

  /** {@code --rpc-target}: where {@code --role front} finds the runtime. */
  public Optional<RpcTransport> rpcTarget() {
    return rpcTarget;
  }

  /** The port to listen on; 0 asks the system for a free one. */
  public int port() {
    return port;
  }

  /** The address to bind, {@code 0.0.0.0} by default. */
  public String address() {
    return address;
  }

  /** The serving mode forced by {@code --mode}, overriding the descriptor and {@code -D}. */
  public Optional<ServingMode> mode() {
    return mode;
  }

  /** {@code --trusted-proxies}: addresses or CIDR blocks whose App Engine headers are believed. */
  public Optional<TrustPolicy> trustedProxies() {
    return trustedProxies;
  }

  /**
   * Where App Engine's login sends anonymous users of protected paths ({@code --login-url}), and
   * what the Users API's logout URL is ({@code --logout-url}).
   */
  public LoginUrls loginUrls() {
    return loginUrls;
  }

  /** True when the app should see {@code com.google.appengine.runtime.environment=Development}. */
  public boolean development() {
    return development;
  }

  /**
   * {@code --ee}: the EE version to host the app on, overriding {@code <runtime>} and the {@code
   * appengine.use.EE*} flags.
   */
  public Optional<EeVersion> ee() {
    return ee;
  }

  /**
   * {@code --watch} (development only): redeploy the app in this JVM when its classes, jars or
   * descriptors change.
   */
  public boolean watch() {
    return watch;
  }

  /**
   * {@code --classpath}: class directories and jars the app sees after its own {@code WEB-INF}
   * ones, e.g. a project's {@code target/classes} and dependencies when serving from sources.
   */
  public List<Path> classpath() {
    return classpath;
  }

  /**
   * {@code --parent-pid}: a process whose end stops this runtime (the dev server's Maven JVM), so a
   * forked runtime never outlives the build that started it.
   */
  public Optional<Long> parentPid() {
    return parentPid;
  }

  /** Where the webapp is unpacked and JSPs are compiled; a fresh temporary one when empty. */
  public Optional<Path> tempDirectory() {
    return tempDirectory;
  }

  /** The platform's environment variables that were set (see {@link #PLATFORM_VARIABLES}). */
  public Map<String, String> platform() {
    return platform;
  }

  /** One platform variable, if set and not blank. */
  public Optional<String> platform(String name) {
    return Optional.ofNullable(platform.get(name));
  }

  /** True on the managed platform, whose front end is the only peer (GAE_ENV is set). */
  public boolean onPlatform() {
    return platform.containsKey("GAE_ENV");
  }

  /**
   * How logs are written: {@code --log-format}, else {@code -Daerun.log.format}, else {@code
   * $AERUN_LOG_FORMAT}, else {@link LogFormat#AUTO}.
   */
  public LogFormat logFormat() {
    return logFormat;
  }

  /**
   * Whether a line is logged per request: {@code --request-log on|off}, else on in development and
   * when {@code terminal} says the process has one (a person reads it), else off: on the platforms
   * the runtime targets the front end already logs every request.
   *
   * @param terminal whether stdout is a terminal (see {@link LogFormat#hasTerminal()})
   */
  public boolean requestLog(BooleanSupplier terminal) {
    return requestLog.orElseGet(() -> development || terminal.getAsBoolean());
  }

  /**
   * Where an app with {@code <sessions-enabled>} keeps its sessions so that every instance shares
   * them: {@code --sessions-jdbc-url}, else {@code $AERUN_SESSIONS_JDBC_URL}, a {@code
   * jdbc:postgresql://} URL; empty: in this instance's memory.
   */
  public Optional<String> sessionsJdbcUrl() {
    return sessionsJdbcUrl;
  }

  /**
   * How long a shutdown (SIGTERM, SIGINT) waits for requests in flight: {@code --shutdown-grace},
   * else {@code $AERUN_SHUTDOWN_GRACE}, else 10 s (what Cloud Run gives between SIGTERM and
   * SIGKILL).
   */
  public Duration shutdownGrace() {
    return shutdownGrace;
  }

  /**
   * {@code --max-concurrent-requests}: how many requests run at once, overriding the descriptor's
   * {@code automatic-scaling/max-concurrent-requests} and the default for the heap.
   */
  public Optional<Integer> maxConcurrentRequests() {
    return maxConcurrentRequests;
  }

  /** {@code --max-queued-requests}: how many more may wait for a turn (default: as many). */
  public Optional<Integer> maxQueuedRequests() {
    return maxQueuedRequests;
  }

  /** {@code --queue-timeout}: how long a request waits for a turn before its 503 (default 1s). */
  public Optional<Duration> queueTimeout() {
    return queueTimeout;
  }

  /**
   * {@code --request-body-timeout}: how long a request body may take to arrive, plus a second per
   * 64 KiB that arrived; 0 for no bound (default 30s).
   */
  public Optional<Duration> requestBodyTimeout() {
    return requestBodyTimeout;
  }

  /**
   * When this JVM was started by a launcher that passed on the app's {@code <env-variables>}: the
   * epoch millisecond that launcher started (see {@link Relaunch}).
   */
  public Optional<Long> relaunchedAt() {
    return relaunchedAt;
  }

  private static Duration parseDuration(String value, String what) throws UsageException {
    try {
      return Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(what + ": " + e.getMessage());
    }
  }

  /**
   * How much a {@code .war} may unpack to: {@code --max-war-size} (default 2 GiB) and {@code
   * --max-war-entries} (default 100,000).
   */
  WarUnpacker.Limits warLimits() {
    return warLimits;
  }

  /** The JVM's system properties as given on the command line. */
  public Map<String, String> systemProperties() {
    return systemProperties;
  }

  /** The usage text printed by {@code --help}. */
  public static String usage() {
    return String.join(
        "\n",
        "Usage: java [-Dname=value ...] -jar runtime-main.jar [options] <app-dir-or-war>",
        "       java -jar runtime-main.jar stage [--image-repo REPO] [--base DIR] <app> <out-dir>",
        "",
        "Serves one App Engine-style Java web app (EE8 javax.servlet, EE10 or EE11 jakarta.servlet)",
        "on Jetty 12, as its WEB-INF/appengine-web.xml describes.",
        "",
        "Options:",
        "  --port N                port to listen on (default: $PORT, else 8080; 0 = any free)",
        "  --address A             address to bind (default 0.0.0.0)",
        "  --mode http|legacy      serving mode, overriding appengine.use.HttpConnector",
        "  --trusted-proxies LIST  comma-separated addresses/CIDRs whose X-AppEngine-* and",
        "                          X-Forwarded-* headers are believed (default: everyone on",
        "                          the platform, i.e. when GAE_ENV is set; nobody elsewhere)",
        "  --temp-dir DIR          where to make the runtime's own working directory (the app",
        "                          unpacked, JSPs compiled), removed at exit",
        "  --login-url TEMPLATE    where anonymous requests to paths web.xml protects are",
        "                          redirected; {continue} is replaced by the encoded URL",
        "                          to return to (default /_ah/login?continue={continue})",
        "  --logout-url TEMPLATE   the Users API's logout URL (default",
        "                          /_ah/logout?continue={continue})",
        "  --development           development: the app sees runtime.environment=Development,",
        "                          text logs, loopback clients trusted (unless",
        "                          --trusted-proxies) and shown stack traces, GET /_ah/dev",
        "                          status page for loopback clients, and a login page at",
        "                          /_ah/login picks the signed-in user",
        "  --watch                 with --development: redeploy in this JVM when classes,",
        "                          jars, web.xml or appengine-web.xml change (exit code 3",
        "                          when a change needs a new JVM)",
        "  --ee ee8|ee10|ee11      EE version, overriding <runtime> and appengine.use.EE*",
        "  --classpath PATHS       class directories and jars after WEB-INF's own, separated",
        "                          by '"
            + File.pathSeparator
            + "' (an app served from its sources)",
        "  --parent-pid PID        stop (draining) when process PID ends",
        "  --log-format F          json (Cloud Logging's structured JSON), text, or auto:",
        "                          text on a terminal, else json (default auto; also",
        "                          -D"
            + RuntimeLogs.FORMAT_PROPERTY
            + " or $"
            + RuntimeLogs.FORMAT_VARIABLE
            + ")",
        "  --request-log on|off    one log line per request (default: on with --development",
        "                          or on a terminal, else off: the platform's front end",
        "                          logs requests)",
        "  --shutdown-grace D      on SIGTERM/SIGINT, how long requests in flight may",
        "                          finish before they are ended (default 10s; e.g. 500ms,",
        "                          30s, 1m; also $" + SHUTDOWN_GRACE_VARIABLE + ")",
        "  --sessions-jdbc-url URL sessions shared by every instance, in PostgreSQL:",
        "                          jdbc:postgresql://HOST:PORT/DB?user=U&password=P (also",
        "                          $" + SESSIONS_JDBC_URL_VARIABLE + "; default: in memory)",
        "  --max-concurrent-requests N",
        "                          requests handled at once (default: the descriptor's",
        "                          automatic-scaling/max-concurrent-requests, else one per",
        "                          8 MiB of heap, 8 to 1000)",
        "  --max-queued-requests N requests that may wait for a turn beyond those (default:",
        "                          as many); more get 503 with Retry-After at once",
        "  --queue-timeout D       how long a request may wait for a turn before its 503",
        "                          (default 1s; 0: no waiting, 503 at once)",
        "  --max-war-size SIZE     a .war may unpack to at most this many bytes (default",
        "                          2g; k, m, g suffixes)",
        "  --max-war-entries N     a .war may have at most N entries (default 100000)",
        "  --request-body-timeout D",
        "                          how long a request body may take to arrive, plus 1s per",
        "                          64 KiB received; slower bodies get 408 (default 30s; 0: no",
        "                          bound)",
        "  -h, --help              print this help",
        "",
        "Legacy RPC mode (a front server buffers each request and runs it on the runtime",
        "over gRPC):",
        "  --rpc-transport inprocess|tcp|unix",
        "                          how the front end and the runtime talk in one process",
        "                          (default inprocess; tcp = 127.0.0.1, ephemeral port;",
        "                          unix = a socket in the temp dir, Linux only)",
        "  --role all|front|runtime",
        "                          run both halves (default), or one of a two-process split:",
        "  --rpc-listen ADDR       --role runtime: serve gRPC at tcp:HOST:PORT or unix:PATH",
        "                          (port 0 = any free; the start line says which); this",
        "                          role opens no HTTP port, --port and --address are ignored",
        "  --rpc-target ADDR       --role front: the runtime's tcp:HOST:PORT or unix:PATH;",
        "                          the app is optional here (its descriptor's appengine.*",
        "                          properties are read if given)",
        "  The gRPC link is plaintext and unauthenticated: keep it on loopback or a private",
        "  network. The front end applies the trust policy (--trusted-proxies).",
        "",
        "The app may also be named by $" + APP_VARIABLE + ".",
        "-Dappengine.use.HttpConnector=true (or any appengine.* property) overrides the",
        "descriptor's <system-properties>. -Dappengine.use.virtualthreads=true runs requests",
        "on virtual threads (Java 21 and later), still within --max-concurrent-requests.",
        "",
        "Environment: " + String.join(", ", PLATFORM_VARIABLES),
        "");
  }

  private static final class Builder {
    Path app;
    int port = DEFAULT_PORT;
    String address = "0.0.0.0";
    ServingMode mode;
    TrustPolicy trustedProxies;
    boolean development;
    Path tempDirectory;
    Role role = Role.ALL;
    RpcTransportChoice rpcTransport;
    RpcTransport rpcListen;
    RpcTransport rpcTarget;
    final Map<String, String> platform = new LinkedHashMap<>();
    final Map<String, String> systemProperties = new LinkedHashMap<>();
    LogFormat logFormat = LogFormat.AUTO;
    Boolean requestLog;
    Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
    Integer maxConcurrentRequests;
    Integer maxQueuedRequests;
    Duration queueTimeout;
    Duration requestBodyTimeout;
    Long relaunchedAt;
    long maxWarBytes = WarUnpacker.DEFAULT_MAX_BYTES;
    int maxWarEntries = WarUnpacker.DEFAULT_MAX_ENTRIES;
    String loginUrl = LoginUrls.DEFAULT_LOGIN;
    String logoutUrl = LoginUrls.DEFAULT_LOGOUT;
    String sessionsJdbcUrl;
    EeVersion ee;
    boolean watch;
    boolean logFormatGiven;
    final List<Path> classpath = new ArrayList<>();
    Long parentPid;
  }
}
