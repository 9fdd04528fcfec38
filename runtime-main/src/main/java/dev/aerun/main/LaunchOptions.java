package dev.aerun.main;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.dev.DevelopmentHosts;
import dev.aerun.runtime.logging.LogFormat;
import dev.aerun.runtime.security.LoginUrls;
import dev.aerun.runtime.server.Protocols;
import dev.aerun.runtime.server.UnixSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  /**
   * Environment variable with the peers trusted for forwarding headers ({@link #forwardedFrom}).
   */
  public static final String FORWARDED_FROM_VARIABLE = "AERUN_FORWARDED_FROM";

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
  private final Optional<TrustPolicy> forwardedFrom;
  private final boolean development;
  private final DevelopmentHosts devHosts;
  private final Optional<Path> tempDirectory;
  private final Map<String, String> platform;
  private final Map<String, String> systemProperties;
  private final Role role;
  private final RpcTransportChoice rpcTransport;
  private final Optional<RpcTransport> rpcListen;
  private final Optional<RpcTransport> rpcTarget;
  private final LogFormat logFormat;
  private final Optional<Boolean> requestLog;
  private final Optional<Boolean> compression;
  private final Protocols.H2c h2c;
  private final Optional<UnixSocket> unixSocket;
  private final Duration shutdownGrace;
  private final Optional<Integer> maxConcurrentRequests;
  private final Optional<Integer> maxQueuedRequests;
  private final Optional<Duration> queueTimeout;
  private final Optional<Duration> requestBodyTimeout;
  private final Optional<Long> requestBodyMinRate;
  private final Optional<Duration> requestBodyMinRateAfter;
  private final Optional<Duration> bodyMemoryWait;
  private final Optional<Long> relaunchedAt;
  private final WarUnpacker.Limits warLimits;
  private final LoginUrls loginUrls;
  private final Optional<String> sessionsJdbcUrl;
  private final Optional<EeVersion> ee;
  private final boolean watch;
  private final List<Path> classpath;
  private final Optional<Long> parentPid;
  private final ApiHostOptions apiHosts;

  LaunchOptions(LaunchOptionsParser.Builder b) {
    this.ee = Optional.ofNullable(b.ee);
    this.watch = b.watch;
    this.classpath = List.copyOf(b.classpath);
    this.parentPid = Optional.ofNullable(b.parentPid);
    this.apiHosts =
        new ApiHostOptions(
            Optional.ofNullable(b.apiHost),
            Optional.ofNullable(b.apiData),
            b.apiDataClear,
            b.apiLogCalls,
            b.apiDataHome);
    this.app = Optional.ofNullable(b.app);
    this.role = b.role;
    this.rpcTransport = b.rpcTransport == null ? RpcTransportChoice.INPROCESS : b.rpcTransport;
    this.rpcListen = Optional.ofNullable(b.rpcListen);
    this.rpcTarget = Optional.ofNullable(b.rpcTarget);
    this.port = b.port;
    this.address = b.address;
    this.mode = Optional.ofNullable(b.mode);
    this.trustedProxies = Optional.ofNullable(b.trustedProxies);
    this.forwardedFrom = Optional.ofNullable(b.forwardedFrom);
    this.development = b.development;
    this.devHosts = b.devHosts == null ? DevelopmentHosts.loopback() : b.devHosts;
    this.tempDirectory = Optional.ofNullable(b.tempDirectory);
    this.platform = Collections.unmodifiableMap(new LinkedHashMap<>(b.platform));
    this.systemProperties = Collections.unmodifiableMap(new LinkedHashMap<>(b.systemProperties));
    this.logFormat = b.logFormat;
    this.requestLog = Optional.ofNullable(b.requestLog);
    this.compression = Optional.ofNullable(b.compression);
    this.h2c = b.h2c;
    this.unixSocket =
        Optional.ofNullable(b.unixSocket).map(path -> new UnixSocket(path, b.unixSocketGroup));
    this.shutdownGrace = b.shutdownGrace;
    this.maxConcurrentRequests = Optional.ofNullable(b.maxConcurrentRequests);
    this.maxQueuedRequests = Optional.ofNullable(b.maxQueuedRequests);
    this.queueTimeout = Optional.ofNullable(b.queueTimeout);
    this.requestBodyTimeout = Optional.ofNullable(b.requestBodyTimeout);
    this.requestBodyMinRate = Optional.ofNullable(b.requestBodyMinRate);
    this.requestBodyMinRateAfter = Optional.ofNullable(b.requestBodyMinRateAfter);
    this.bodyMemoryWait = Optional.ofNullable(b.bodyMemoryWait);
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
   * @throws StartupException when {@code --rpc-listen} or {@code --rpc-target} is given and legacy
   *     RPC mode's classes, which read their address, cannot be put on the class path
   */
  public static LaunchOptions parse(
      Map<String, String> environment, Map<String, String> systemProperties, String... args)
      throws UsageException, StartupException {
    return LaunchOptionsParser.parse(environment, systemProperties, args);
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

  /** The address to bind: {@code 127.0.0.1} by default in development, else {@code 0.0.0.0}. */
  public String address() {
    return address;
  }

  /** The serving mode forced by {@code --mode}, overriding the descriptor and {@code -D}. */
  public Optional<ServingMode> mode() {
    return mode;
  }

  /**
   * {@code --trusted-proxies}: addresses or CIDR blocks whose platform headers are believed, the
   * forwarding ones included.
   */
  public Optional<TrustPolicy> trustedProxies() {
    return trustedProxies;
  }

  /**
   * {@code --forwarded-from} (else {@value #FORWARDED_FROM_VARIABLE}): peers whose forwarding
   * headers ({@code X-Forwarded-*}, {@code Forwarded}) are believed, and nothing else they send.
   */
  public Optional<TrustPolicy> forwardedFrom() {
    return forwardedFrom;
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
   * The hosts a development runtime's requests must name to be the developer's (loopback names and
   * {@code --dev-hosts}): see {@link dev.aerun.runtime.dev.DeveloperHandler}.
   */
  public DevelopmentHosts devHosts() {
    return devHosts;
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

  /**
   * Where an app with {@code <app-engine-apis>} sends its remote API calls, and where the local API
   * host of development keeps its data (see {@link ApiHostOptions}).
   */
  ApiHostOptions apiHosts() {
    return apiHosts;
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
   * {@code --compression on|off}: whether responses are compressed and gzip request bodies
   * inflated; empty when not given (the descriptor's {@code appengine.use.compression} decides,
   * else on).
   */
  public Optional<Boolean> compression() {
    return compression;
  }

  /**
   * {@code --unix-socket PATH} (with {@code --unix-socket-group}): a Unix-domain socket the public
   * server listens on too, or instead of its port ({@code --port none}, {@link #port()} -1).
   */
  public Optional<UnixSocket> unixSocket() {
    return unixSocket;
  }

  /** {@code --h2c on|off|upgrade}: HTTP/2 cleartext on the public port (default on). */
  public Protocols.H2c h2c() {
    return h2c;
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
   * {@code --request-body-min-rate}: the least average rate, in bytes per second, of a request body
   * once it has had {@link #requestBodyMinRateAfter()} since its first byte; 0 for none (default 1
   * KiB/s).
   */
  public Optional<Long> requestBodyMinRate() {
    return requestBodyMinRate;
  }

  /**
   * {@code --request-body-min-rate-after}: how long after its first byte a request body is first
   * held to {@link #requestBodyMinRate()} (default 3s).
   */
  public Optional<Duration> requestBodyMinRateAfter() {
    return requestBodyMinRateAfter;
  }

  /**
   * {@code --body-memory-wait}: in legacy mode, how long a body that does not fit in the memory for
   * buffered bodies waits for others to give theirs back before its request gets 503 (default 30s;
   * 0: no waiting).
   */
  public Optional<Duration> bodyMemoryWait() {
    return bodyMemoryWait;
  }

  /**
   * When this JVM was started by a launcher that passed on the app's {@code <env-variables>}: the
   * epoch millisecond that launcher started (see {@link Relaunch}).
   */
  public Optional<Long> relaunchedAt() {
    return relaunchedAt;
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
    return LaunchUsage.text();
  }
}
