package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AutomaticScaling;
import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.SelectionException;
import dev.aerun.appengine.descriptor.SelectionInput;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.load.BodyTimeoutHandler;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.server.Protocols;
import dev.aerun.runtime.sessions.JdbcSessionStore;
import dev.aerun.runtime.sessions.WebappSessions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * What the runtime takes from the app's descriptor and the command line before it starts: mode and
 * EE version, the app's system properties, capacity, trust, request limits, the app's ids,
 * sessions, warm-up and environment variables. The command line wins over the descriptor wherever
 * both say something.
 */
final class AppSettings {
  private static final Logger log = Logger.getLogger(AppSettings.class.getName());

  /**
   * The property (descriptor or {@code -D}, name matched case-insensitively) that runs requests on
   * virtual threads where the JVM has them.
   */
  static final String VIRTUAL_THREADS_PROPERTY = "appengine.use.virtualthreads";

  /** Who is trusted in development unless {@code --trusted-proxies} says otherwise. */
  static final String LOOPBACK = "127.0.0.0/8,::1";

  /** Mode and EE version for {@code descriptor}; {@code --mode} and {@code --ee} win. */
  static RuntimeSelection select(AppEngineWebXml descriptor, LaunchOptions options)
      throws StartupException {
    // Either half of a split is legacy mode, whatever the descriptor says.
    ServingMode launcherMode =
        options.role() != Role.ALL ? ServingMode.LEGACY_RPC : options.mode().orElse(null);
    SelectionInput input =
        SelectionInput.of(descriptor)
            .withOverrides(options.systemProperties())
            .withGaeRuntime(options.platform("GAE_RUNTIME").orElse(null))
            .withLauncherMode(launcherMode)
            .withJvmFeatureVersion(Runtime.version().feature());
    try {
      RuntimeSelection resolved = RuntimeSelection.resolve(input);
      if (options.ee().isEmpty() || options.ee().get() == resolved.ee()) {
        return resolved;
      }
      return new RuntimeSelection(
          resolved.mode(), options.ee().get(), resolved.runtimeId(), resolved.warnings());
    } catch (SelectionException e) {
      throw new StartupException(e.getMessage(), e);
    }
  }

  /**
   * What the app finds in {@link System#getProperties()}: its descriptor's {@code
   * <system-properties>} (a {@code -D} of the same name wins, so it is not set again), then the App
   * Engine environment properties.
   */
  static Map<String, String> appSystemProperties(
      AppEngineWebXml descriptor, LaunchOptions options) {
    Map<String, String> properties = new LinkedHashMap<>();
    descriptor.systemProperties().forEach(properties::put);
    properties.keySet().removeAll(options.systemProperties().keySet());
    properties.putAll(environment(descriptor, options).systemProperties());
    return properties;
  }

  /**
   * How many requests run at once: {@code --max-concurrent-requests}, else the descriptor's {@code
   * automatic-scaling/max-concurrent-requests}, else one per 8 MiB of {@code maxHeapBytes} (see
   * {@link Capacity#forHeap}). As many may wait unless {@code --max-queued-requests} says
   * otherwise, for {@code --queue-timeout} (1 s by default). Virtual threads if {@value
   * #VIRTUAL_THREADS_PROPERTY} is true.
   */
  static Capacity capacity(AppEngineWebXml descriptor, LaunchOptions options, long maxHeapBytes) {
    Capacity byHeap = Capacity.forHeap(maxHeapBytes);
    int running =
        options
            .maxConcurrentRequests()
            .or(() -> descriptorConcurrency(descriptor))
            .orElse(byHeap.maxConcurrentRequests());
    boolean virtualThreads =
        ignoringCase(options.systemProperties(), VIRTUAL_THREADS_PROPERTY)
            .or(() -> ignoringCase(descriptor.systemProperties(), VIRTUAL_THREADS_PROPERTY))
            .map(value -> Boolean.parseBoolean(value.trim()))
            .orElse(false);
    return byHeap
        .withMaxConcurrentRequests(running)
        .withMaxQueuedRequests(options.maxQueuedRequests().orElse(running))
        .withMaxQueueWait(options.queueTimeout().orElse(Capacity.DEFAULT_QUEUE_WAIT))
        .withVirtualThreads(virtualThreads);
  }

  /** The value of {@code name} in {@code properties}, the name's letter case ignored. */
  private static Optional<String> ignoringCase(Map<String, String> properties, String name) {
    return properties.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(Map.Entry::getValue)
        .reduce((first, last) -> last);
  }

  private static Optional<Integer> descriptorConcurrency(AppEngineWebXml descriptor) {
    return descriptor
        .scaling()
        .filter(AutomaticScaling.class::isInstance)
        .map(AutomaticScaling.class::cast)
        .flatMap(AutomaticScaling::maxConcurrentRequests);
  }

  /**
   * One line saying how much the instance takes on, and a warning when virtual threads were asked
   * for on a JVM without them.
   */
  static void logCapacity(Capacity capacity, boolean threadsOnly) {
    if (capacity.virtualThreads() && !capacity.usesVirtualThreads()) {
      log.warning(
          VIRTUAL_THREADS_PROPERTY
              + "=true, but virtual threads need Java 21 or later (this is Java "
              + Runtime.version().feature()
              + "): requests run on platform threads");
    }
    String threads = capacity.usesVirtualThreads() ? "virtual threads" : "platform threads";
    if (threadsOnly) {
      log.info("Requests run on " + threads + "; the front end limits how many run at once");
      return;
    }
    log.info(
        String.format(
            "At most %d requests run at once and %d wait for a turn (up to %s), on %s;"
                + " more get 503",
            capacity.maxConcurrentRequests(),
            capacity.maxQueuedRequests(),
            Durations.format(capacity.maxQueueWait()),
            threads));
  }

  /** The descriptor's properties with the command line's {@code -D} values on top. */
  static Map<String, String> effective(AppEngineWebXml descriptor, LaunchOptions options) {
    Map<String, String> merged = new LinkedHashMap<>(descriptor.systemProperties());
    merged.putAll(options.systemProperties());
    return merged;
  }

  static ContractOptions contract(Map<String, String> effective, LaunchOptions options) {
    return ContractOptions.fromProperties(effective, trust(options))
        .withForwardedFrom(options.forwardedFrom().orElse(TrustPolicy.trustNone()));
  }

  /**
   * The request limits, for an app on {@code ee} (null for a front end that hosts no webapp: it
   * accepts what every EE accepts).
   */
  static RequestLimits limits(Map<String, String> effective, LaunchOptions options, EeVersion ee) {
    RequestLimits limits =
        RequestLimits.defaults()
            .withIgnoreResponseSizeLimit(
                Boolean.parseBoolean(
                    effective.get(RequestLimits.IGNORE_RESPONSE_SIZE_LIMIT_PROPERTY)));
    if (ee == EeVersion.EE8) {
      limits = limits.forEe8();
    }
    limits = options.requestBodyTimeout().map(limits::withRequestBodyTimeout).orElse(limits);
    BodyTimeoutHandler.MinRate rate = BodyTimeoutHandler.MinRate.DEFAULT;
    return limits.withRequestBodyMinRate(
        new BodyTimeoutHandler.MinRate(
            options.requestBodyMinRate().orElse(rate.bytesPerSecond()),
            options.requestBodyMinRateAfter().orElse(rate.after())));
  }

  /**
   * What the public server speaks: compression from {@code --compression}, else the descriptor's
   * (or {@code -D}) {@value Protocols#COMPRESSION_PROPERTY}, else on; h2c from {@code --h2c}.
   */
  static Protocols protocols(Map<String, String> effective, LaunchOptions options) {
    boolean compression =
        options
            .compression()
            .orElseGet(
                () ->
                    ignoringCase(effective, Protocols.COMPRESSION_PROPERTY)
                        .map(value -> !value.trim().equalsIgnoreCase("false"))
                        .orElse(true));
    return new Protocols(compression, options.h2c());
  }

  static AppEnvironment environment(AppEngineWebXml descriptor, LaunchOptions options) {
    String applicationId =
        options
            .platform("GAE_APPLICATION")
            .or(() -> options.platform("GOOGLE_CLOUD_PROJECT"))
            .or(descriptor::application)
            .orElse("no_app_id");
    String version = options.platform("GAE_VERSION").or(descriptor::version).orElse("no_version");
    String service = options.platform("GAE_SERVICE").or(descriptor::service).orElse("default");
    return new AppEnvironment(
        applicationId, version, service, runtimeVersion(), options.development());
  }

  /** {@code aerun/<version>}, from the jar's manifest when there is one. */
  static String runtimeVersion() {
    String version = RuntimeStarter.class.getPackage().getImplementationVersion();
    return "aerun/" + (version == null ? "dev" : version);
  }

  /**
   * Off the platform nobody is trusted unless named; on it (GAE_ENV set) the front end is the only
   * peer, so everyone is.
   */
  static TrustPolicy trust(LaunchOptions options) {
    if (options.trustedProxies().isPresent()) {
      return options.trustedProxies().get();
    }
    if (options.onPlatform()) {
      return TrustPolicy.trustAll();
    }
    // A developer exercises cron, task and signed-in paths with curl on the same machine; a request
    // from loopback naming another host is a rebound web page's, not the developer's.
    return options.development()
        ? TrustPolicy.parse(LOOPBACK).forHosts(options.devHosts())
        : TrustPolicy.trustNone();
  }

  /**
   * In memory, or, with {@code --sessions-jdbc-url}, in the shared store, written behind when the
   * descriptor asks for {@code <async-session-persistence enabled="true">}.
   */
  static WebappSessions sessions(LaunchOptions options, AppEngineWebXml descriptor) {
    if (!descriptor.sessionsEnabled() || options.sessionsJdbcUrl().isEmpty()) {
      return WebappSessions.fromDescriptor(descriptor.sessionsEnabled());
    }
    return WebappSessions.shared(
        new JdbcSessionStore(
            options.sessionsJdbcUrl().get(), descriptor.asyncSessionPersistence().enabled()));
  }

  /**
   * Warm-up requests are on unless {@code <warmup-requests-enabled>false} (the platform's default
   * is on); listing the {@code warmup} inbound service turns them on too.
   */
  static boolean warmupEnabled(AppEngineWebXml descriptor) {
    return descriptor.warmupRequestsEnabled() || descriptor.inboundServices().contains("warmup");
  }

  /**
   * The app's {@code <env-variables>} against {@code environment} (see {@link EnvVariables}); warns
   * once about each variable the environment keeps. Nothing to do for a front end, which runs no
   * app.
   *
   * @throws StartupException if the app or its descriptor cannot be read
   */
  static EnvVariables.Plan planEnvVariables(
      LaunchOptions options, RuntimeStarter.App app, Map<String, String> environment) {
    if (app.descriptor() == null) {
      return EnvVariables.plan(Map.of(), environment);
    }
    EnvVariables.Plan plan = EnvVariables.plan(app.descriptor().envVariables(), environment);
    if (options.relaunchedAt().isEmpty()) { // a relaunched JVM's launcher has warned already
      plan.overridden()
          .forEach(
              name ->
                  log.warning(EnvVariables.overriddenWarning(app.staged().descriptorName(), name)));
    }
    return plan;
  }

  private AppSettings() {}
}
