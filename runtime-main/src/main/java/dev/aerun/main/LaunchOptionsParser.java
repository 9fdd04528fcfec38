package dev.aerun.main;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.dev.DevelopmentHosts;
import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.logging.LogFormat;
import dev.aerun.runtime.logging.RuntimeLogs;
import dev.aerun.runtime.security.LoginUrls;
import dev.aerun.runtime.server.Protocols;
import dev.aerun.runtime.server.PublicServerSpec;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@link LaunchOptions} from the command line, the environment and {@code -D} properties:
 * which option wins over which, the checks across options, and one parser per kind of value, each
 * failing with a {@link UsageException} that names the option.
 */
final class LaunchOptionsParser {
  static LaunchOptions parse(
      Map<String, String> environment, Map<String, String> systemProperties, String... args)
      throws UsageException, StartupException {
    Builder b = new Builder();
    // Platform variables a relaunch added from <env-variables> are the app's, not the runtime's.
    Set<String> fromDescriptor =
        Set.copyOf(
            List.of(
                environment.getOrDefault(EnvVariables.FROM_DESCRIPTOR_VARIABLE, "").split(",")));
    for (String name : LaunchOptions.PLATFORM_VARIABLES) {
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
    String appValue = environment.get(LaunchOptions.APP_VARIABLE);
    String formatValue = environment.get(RuntimeLogs.FORMAT_VARIABLE);
    if (formatValue != null && !formatValue.isBlank()) {
      b.logFormat =
          read(
              LogFormat::parse, formatValue, "environment variable " + RuntimeLogs.FORMAT_VARIABLE);
      b.logFormatGiven = true;
    }
    formatValue = systemProperties.get(RuntimeLogs.FORMAT_PROPERTY);
    if (formatValue != null) {
      b.logFormat = read(LogFormat::parse, formatValue, "-D" + RuntimeLogs.FORMAT_PROPERTY);
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

    String sessionsValue = environment.get(LaunchOptions.SESSIONS_JDBC_URL_VARIABLE);
    if (sessionsValue != null && !sessionsValue.isBlank()) {
      b.sessionsJdbcUrl = sessionsValue.trim();
    }

    String forwardedValue = environment.get(LaunchOptions.FORWARDED_FROM_VARIABLE);
    if (forwardedValue != null && !forwardedValue.isBlank()) {
      b.forwardedFrom =
          read(
              TrustPolicy::parseForwarders,
              forwardedValue,
              "environment variable " + LaunchOptions.FORWARDED_FROM_VARIABLE);
    }

    String graceValue = environment.get(LaunchOptions.SHUTDOWN_GRACE_VARIABLE);
    if (graceValue != null && !graceValue.isBlank()) {
      b.shutdownGrace =
          read(
              Durations::parse,
              graceValue,
              "environment variable " + LaunchOptions.SHUTDOWN_GRACE_VARIABLE);
    }

    b.apiHost = ApiHostOptions.fromEnvironment(environment).orElse(null);
    b.apiLogCalls = environment.get(ApiHostOptions.LOG_CALLS) != null;
    b.apiDataHome = ApiHostOptions.dataHome(environment);

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
        case "--port" -> {
          String port = value(rest, arg);
          b.port =
              port.trim().equalsIgnoreCase("none")
                  ? PublicServerSpec.NO_PORT
                  : parsePort(port, "--port");
        }
        case "--unix-socket" -> b.unixSocket = Path.of(value(rest, arg));
        case "--unix-socket-group" -> b.unixSocketGroup = true;
        case "--address" -> b.address = value(rest, arg);
        case "--mode" -> b.mode = parseMode(value(rest, arg));
        case "--trusted-proxies" ->
            b.trustedProxies = read(TrustPolicy::parse, value(rest, arg), arg);
        case "--forwarded-from" ->
            b.forwardedFrom = read(TrustPolicy::parseForwarders, value(rest, arg), arg);
        case "--temp-dir" -> b.tempDirectory = Path.of(value(rest, arg));
        case "--development" -> b.development = true;
        case "--dev-hosts" ->
            b.devHosts = read(LaunchOptionsParser::parseDevHosts, value(rest, arg), arg);
        case "--watch" -> b.watch = true;
        case "--ee" -> b.ee = parseEe(value(rest, arg));
        case "--classpath" -> b.classpath.addAll(parseClasspath(value(rest, arg)));
        case "--parent-pid" -> b.parentPid = (long) parseCount(value(rest, arg), arg, 1);
        case "--role" -> b.role = parseRole(value(rest, arg));
        case "--rpc-transport" -> b.rpcTransport = parseRpcTransport(value(rest, arg));
        case "--rpc-listen" -> b.rpcListen = parseRpcAddress(value(rest, arg), arg);
        case "--rpc-target" -> b.rpcTarget = parseRpcAddress(value(rest, arg), arg);
        case "--log-format" -> {
          b.logFormat = read(LogFormat::parse, value(rest, arg), arg);
          b.logFormatGiven = true;
        }
        case "--request-log" -> b.requestLog = parseOnOff(value(rest, arg), arg);
        case "--compression" -> b.compression = parseOnOff(value(rest, arg), arg);
        case "--h2c" -> b.h2c = read(Protocols.H2c::parse, value(rest, arg), arg);
        case "--shutdown-grace" -> b.shutdownGrace = read(Durations::parse, value(rest, arg), arg);
        case "--max-concurrent-requests" ->
            b.maxConcurrentRequests = parseCount(value(rest, arg), arg, 1);
        case "--max-queued-requests" -> b.maxQueuedRequests = parseCount(value(rest, arg), arg, 0);
        case "--queue-timeout" -> b.queueTimeout = read(Durations::parse, value(rest, arg), arg);
        case "--max-war-size" -> b.maxWarBytes = parseSize(value(rest, arg), arg);
        case "--max-war-entries" -> b.maxWarEntries = parseCount(value(rest, arg), arg, 1);
        case "--login-url" -> b.loginUrl = parseUrlTemplate(value(rest, arg), arg, true);
        case "--logout-url" -> b.logoutUrl = parseUrlTemplate(value(rest, arg), arg, false);
        case "--sessions-jdbc-url" -> b.sessionsJdbcUrl = value(rest, arg);
        case "--api-host" -> b.apiHost = ApiHostOptions.parseOption(value(rest, arg));
        case "--api-data" -> b.apiData = Path.of(value(rest, arg));
        case "--api-data-clear" -> b.apiDataClear = true;
        case "--request-body-timeout" ->
            b.requestBodyTimeout = read(Durations::parse, value(rest, arg), arg);
        case "--request-body-min-rate" -> {
          String rate = value(rest, arg);
          b.requestBodyMinRate = rate.trim().equals("0") ? 0 : parseSize(rate, arg);
        }
        case "--body-memory-wait" ->
            b.bodyMemoryWait = read(Durations::parse, value(rest, arg), arg);
        case "--request-body-min-rate-after" ->
            b.requestBodyMinRateAfter = read(Durations::parse, value(rest, arg), arg);
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
              + LaunchOptions.SESSIONS_JDBC_URL_VARIABLE
              + ")");
    }
    if (positional.size() > 1) {
      throw new UsageException("expected one app, got " + positional.size() + ": " + positional);
    }
    checkRoleOptions(b);
    if (b.watch && !b.development) {
      throw new UsageException("--watch is a development feature: add --development");
    }
    if (b.devHosts != null && !b.development) {
      throw new UsageException(
          "--dev-hosts names hosts of the development server: add --development");
    }
    if (b.address == null) {
      // The development conveniences are for this machine; production listens everywhere.
      b.address = b.development ? "127.0.0.1" : "0.0.0.0";
    }
    if (b.watch && b.role != LaunchOptions.Role.ALL) {
      throw new UsageException("--watch reloads the whole runtime in one process: not with --role");
    }
    if (b.development && !b.logFormatGiven) {
      b.logFormat = LogFormat.TEXT; // a developer reads the log, whatever stdout is
    }
    String appArg = positional.isEmpty() ? appValue : positional.get(0);
    if (appArg != null && !appArg.isBlank()) {
      b.app = Path.of(appArg);
    } else if (b.role != LaunchOptions.Role.FRONT) {
      throw new UsageException(
          "no app given: name an exploded app directory or a .war, or set "
              + LaunchOptions.APP_VARIABLE);
    }
    return new LaunchOptions(b);
  }

  /** Each legacy-mode option belongs to one role; a split needs its address. */
  private static void checkRoleOptions(Builder b) throws UsageException {
    if (b.role != LaunchOptions.Role.ALL && b.mode == ServingMode.HTTP_CONNECTOR) {
      throw new UsageException(
          "--role " + name(b.role) + " is a half of legacy RPC mode; it cannot run --mode http");
    }
    if (b.rpcTransport != null && b.role != LaunchOptions.Role.ALL) {
      throw new UsageException(
          "--rpc-transport chooses how one process talks to itself; with --role "
              + name(b.role)
              + " use "
              + (b.role == LaunchOptions.Role.FRONT ? "--rpc-target" : "--rpc-listen"));
    }
    if (b.rpcTransport != null && b.mode == ServingMode.HTTP_CONNECTOR) {
      throw new UsageException("--rpc-transport is for legacy RPC mode, not --mode http");
    }
    if (b.rpcListen != null && b.role != LaunchOptions.Role.RUNTIME) {
      throw new UsageException("--rpc-listen is for --role runtime");
    }
    if (b.rpcTarget != null && b.role != LaunchOptions.Role.FRONT) {
      throw new UsageException("--rpc-target is for --role front");
    }
    if (b.port == PublicServerSpec.NO_PORT && b.unixSocket == null) {
      throw new UsageException("--port none serves nothing without --unix-socket PATH");
    }
    if (b.unixSocketGroup && b.unixSocket == null) {
      throw new UsageException("--unix-socket-group is for --unix-socket PATH");
    }
    if (b.role == LaunchOptions.Role.RUNTIME && b.rpcListen == null) {
      throw new UsageException(
          "--role runtime needs --rpc-listen tcp:HOST:PORT or unix:PATH: where to serve gRPC");
    }
    if (b.role == LaunchOptions.Role.FRONT && b.rpcTarget == null) {
      throw new UsageException(
          "--role front needs --rpc-target tcp:HOST:PORT or unix:PATH: where the runtime is");
    }
    if (b.role == LaunchOptions.Role.FRONT
        && b.rpcTarget.kind() == RpcTransport.Kind.TCP
        && b.rpcTarget.port() == 0) {
      throw new UsageException("--rpc-target needs the runtime's port, not 0");
    }
  }

  /** The options as they are read, before they are checked and frozen. */
  static final class Builder {
    Path app;
    Path unixSocket;
    boolean unixSocketGroup;
    int port = LaunchOptions.DEFAULT_PORT;
    String address;
    DevelopmentHosts devHosts;
    ServingMode mode;
    TrustPolicy trustedProxies;
    TrustPolicy forwardedFrom;
    boolean development;
    Path tempDirectory;
    LaunchOptions.Role role = LaunchOptions.Role.ALL;
    LaunchOptions.RpcTransportChoice rpcTransport;
    RpcTransport rpcListen;
    RpcTransport rpcTarget;
    final Map<String, String> platform = new LinkedHashMap<>();
    final Map<String, String> systemProperties = new LinkedHashMap<>();
    LogFormat logFormat = LogFormat.AUTO;
    Boolean requestLog;
    Boolean compression;
    Protocols.H2c h2c = Protocols.H2c.PRIOR_KNOWLEDGE;
    Duration shutdownGrace = LaunchOptions.DEFAULT_SHUTDOWN_GRACE;
    Integer maxConcurrentRequests;
    Integer maxQueuedRequests;
    Duration queueTimeout;
    Duration requestBodyTimeout;
    Long requestBodyMinRate;
    Duration requestBodyMinRateAfter;
    Duration bodyMemoryWait;
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
    dev.aerun.runtime.apis.ApiHost apiHost;
    Path apiData;
    boolean apiDataClear;
    boolean apiLogCalls;
    Path apiDataHome;
  }

  /** {@code --dev-hosts}: comma-separated host names or IP addresses. */
  static DevelopmentHosts parseDevHosts(String value) {
    List<String> names = new ArrayList<>();
    for (String name : value.split(",", -1)) {
      if (name.isBlank()) {
        throw new IllegalArgumentException("an empty name in '" + value + "'");
      }
      names.add(name.trim());
    }
    return DevelopmentHosts.withNames(names);
  }

  /** A login or logout URL template (see {@link LoginUrls}). */
  static String parseUrlTemplate(String value, String option, boolean login) throws UsageException {
    try {
      return login
          ? new LoginUrls(value, LoginUrls.DEFAULT_LOGOUT).login()
          : new LoginUrls(LoginUrls.DEFAULT_LOGIN, value).logout();
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
  }

  static EeVersion parseEe(String value) throws UsageException {
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
  static List<Path> parseClasspath(String value) {
    List<Path> entries = new ArrayList<>();
    for (String entry : value.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
      if (!entry.isBlank()) {
        entries.add(Path.of(entry));
      }
    }
    return entries;
  }

  static LaunchOptions.Role parseRole(String value) throws UsageException {
    try {
      return LaunchOptions.Role.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--role must be 'all', 'front' or 'runtime', not '" + value + "'");
    }
  }

  static LaunchOptions.RpcTransportChoice parseRpcTransport(String value) throws UsageException {
    try {
      return LaunchOptions.RpcTransportChoice.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "--rpc-transport must be 'inprocess', 'tcp' or 'unix', not '"
              + value
              + "' (a two-process split uses --role with --rpc-listen/--rpc-target)");
    }
  }

  /**
   * A socket address: an in-process name means nothing to another process.
   *
   * @throws StartupException when legacy RPC mode's classes, which read the address, cannot be
   *     loaded: not the command line's fault, so a start failure
   */
  static RpcTransport parseRpcAddress(String value, String option)
      throws UsageException, StartupException {
    try {
      LegacyJars.require();
    } catch (StartupException e) {
      throw new StartupException(option + ": " + e.getMessage(), e);
    }
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

  static String name(LaunchOptions.Role role) {
    return role.name().toLowerCase(Locale.ROOT);
  }

  static String value(Deque<String> rest, String option) throws UsageException {
    String value = rest.poll();
    if (value == null || value.startsWith("--")) {
      throw new UsageException(option + " needs a value");
    }
    return value;
  }

  static int parsePort(String value, String source) throws UsageException {
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

  static ServingMode parseMode(String value) throws UsageException {
    switch (value.toLowerCase(Locale.ROOT)) {
      case "http", "httpconnector", "http-connector":
        return ServingMode.HTTP_CONNECTOR;
      case "legacy", "rpc", "legacy-rpc":
        return ServingMode.LEGACY_RPC;
      default:
        throw new UsageException("--mode must be 'http' or 'legacy', not '" + value + "'");
    }
  }

  static int parseCount(String value, String option, int min) throws UsageException {
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

  static boolean parseOnOff(String value, String option) throws UsageException {
    switch (value.toLowerCase(Locale.ROOT)) {
      case "on":
        return true;
      case "off":
        return false;
      default:
        throw new UsageException(option + " must be 'on' or 'off', not '" + value + "'");
    }
  }

  /**
   * {@code value} read by {@code parser}; a value it refuses ({@link IllegalArgumentException})
   * becomes a usage error that names {@code where} it came from.
   */
  static <T> T read(Function<String, T> parser, String value, String where) throws UsageException {
    try {
      return parser.apply(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(where + ": " + e.getMessage());
    }
  }

  private LaunchOptionsParser() {}
}
