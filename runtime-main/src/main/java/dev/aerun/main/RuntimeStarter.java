package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.appengine.descriptor.AutomaticScaling;
import dev.aerun.appengine.descriptor.DescriptorException;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.SelectionException;
import dev.aerun.appengine.descriptor.SelectionInput;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.httpconnector.HttpConnectorServer;
import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.rpc.LegacyRpcFront;
import dev.aerun.rpc.LegacyRpcRuntimeServer;
import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.front.FrontServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.apis.ApiProxyHandler;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.lifecycle.WarmupHandler;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.security.DevLoginHandler;
import dev.aerun.runtime.server.PortUnavailableException;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.PublicServers;
import dev.aerun.runtime.sessions.JdbcSessionStore;
import dev.aerun.runtime.sessions.WebappSessions;
import dev.aerun.runtime.statics.StaticFiles;
import dev.aerun.runtime.webapp.JspUsage;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;

/**
 * The start-up sequence, in order: read the descriptor, choose mode and EE, give the app its system
 * properties, build the server, deploy the webapp, and only then open the port.
 *
 * <p>Every step before the port opens fails with a {@link StartupException} carrying one line for
 * the user; nothing is left half-started.
 */
final class RuntimeStarter {
  private static final Logger log = Logger.getLogger(RuntimeStarter.class.getName());

  /** The idle timeout of public connections. */
  private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  /**
   * The property (descriptor or {@code -D}, name matched case-insensitively) that runs requests on
   * virtual threads where the JVM has them.
   */
  static final String VIRTUAL_THREADS_PROPERTY = "appengine.use.virtualthreads";

  /** Who is trusted in development unless {@code --trusted-proxies} says otherwise. */
  static final String LOOPBACK = "127.0.0.0/8,::1";

  /**
   * One loader per EE version and JSP choice for the life of the process: a redeploy ({@code
   * --watch}) gets a new webapp class loader, never a new copy of Jetty's EE classes.
   */
  private static final Map<String, ClassLoader> EE_LOADERS = new ConcurrentHashMap<>();

  private RuntimeStarter() {}

  /** The app and its descriptor, read once; both null for {@code --role front}. */
  record App(StagedApp staged, AppEngineWebXml descriptor) {}

  /** Finds the app and reads its descriptor: a missing app or a bad descriptor fails here. */
  static App readApp(LaunchOptions options) throws StartupException {
    if (options.role() == Role.FRONT) {
      return new App(null, null);
    }
    StagedApp staged = StagedApp.open(options.app().orElseThrow());
    AppEngineWebXml descriptor = readDescriptor(staged);
    if (options.relaunchedAt().isEmpty()) { // a relaunched JVM's launcher has warned already
      descriptor.warnings().forEach(log::warning);
    }
    return new App(staged, descriptor);
  }

  static RunningRuntime start(LaunchOptions options, App read) throws StartupException {
    RunningRuntime runtime = startServers(options, read);
    options.parentPid().ifPresent(pid -> stopWithParent(pid, runtime));
    return runtime;
  }

  /** {@code --parent-pid}: the runtime drains and stops when that process ends, however it ends. */
  private static void stopWithParent(long pid, RunningRuntime runtime) {
    Runnable stop =
        () ->
            new Thread(() -> runtime.shutDown("parent process " + pid + " ended"), "aerun-orphan")
                .start();
    ProcessHandle.of(pid).ifPresentOrElse(parent -> parent.onExit().thenRun(stop), stop);
  }

  private static RunningRuntime startServers(LaunchOptions options, App read)
      throws StartupException {
    if (options.role() == Role.FRONT) {
      return startFront(options);
    }
    StagedApp app = read.staged();
    AppEngineWebXml descriptor = read.descriptor();
    RuntimeSelection selection = select(descriptor, options);
    selection.warnings().forEach(w -> log.warning(app.descriptorName() + ": " + w));
    StartFailures.EeChoice choice =
        new StartFailures.EeChoice(
            selection.ee(),
            selection.runtimeId(),
            StartFailures.trueFlag(
                effective(descriptor, options),
                RuntimeSelection.USE_EE8,
                RuntimeSelection.USE_EE10,
                RuntimeSelection.USE_EE11));
    try {
      return startSelected(options, app, descriptor, selection);
    } catch (StartupException e) {
      Throwable cause = e.getCause();
      throw cause == null
          ? e
          : StartFailures.explain(cause, app.displayName(), choice)
              .map(line -> new StartupException(line, e))
              .orElse(e);
    } catch (RuntimeException | LinkageError | ServiceConfigurationError e) {
      // Loading the app's classes: Jetty lets errors such as NoClassDefFoundError through.
      throw new StartupException(
          StartFailures.explain(e, app.displayName(), choice)
              .orElse(app.displayName() + " failed to start: " + rootMessage(e)),
          e);
    }
  }

  private static RunningRuntime startSelected(
      LaunchOptions options, StagedApp app, AppEngineWebXml descriptor, RuntimeSelection selection)
      throws StartupException {
    Map<String, String> properties = appSystemProperties(descriptor, options);
    properties.forEach(System::setProperty);

    Capacity capacity = capacity(descriptor, options, Runtime.getRuntime().maxMemory());
    logCapacity(capacity, options.role() == Role.RUNTIME);
    if (options.role() == Role.ALL) {
      try {
        PublicServers.checkBindable(options.address(), options.port());
      } catch (PortUnavailableException e) {
        throw new StartupException(e.getMessage(), e); // before the app is deployed
      }
    }

    WorkDirectory work = newWorkDirectory(options);
    try {
      work.enter();
      try {
        return startApp(app, descriptor, selection, options, capacity, work);
      } finally {
        work.leave();
      }
    } catch (IOException e) {
      work.delete();
      throw new StartupException(app.displayName() + " failed to start: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      boolean exiting = work.deleting(); // a stop signal arrived while the app deployed
      work.delete();
      if (exiting) {
        throw new StartupException(
            app.displayName() + " stopped while starting: the runtime is shutting down", e);
      }
      throw e;
    } catch (StartupException | Error e) {
      work.delete();
      throw e;
    }
  }

  /** Deploys the app in {@code work} and serves it in the selected mode. */
  private static RunningRuntime startApp(
      StagedApp app,
      AppEngineWebXml descriptor,
      RuntimeSelection selection,
      LaunchOptions options,
      Capacity capacity,
      WorkDirectory work)
      throws StartupException {
    // Static files are answered in front of the webapp, as the platform's front end would; both
    // modes run this same handler as their app, behind the platform's warm-up and start paths.
    Handler webapp = createWebapp(app, selection, options, descriptor, work);
    DevServer dev = null;
    String devNote = "";
    if (options.development()) {
      dev = new DevServer(options, app, descriptor, selection, webapp, work);
      webapp = dev.wrap(webapp);
      devNote = dev.startNote();
    }
    RunningRuntime runtime;
    if (options.role() == Role.RUNTIME) {
      runtime = startRuntime(app, descriptor, selection, webapp, options, capacity);
    } else if (selection.mode() == ServingMode.LEGACY_RPC) {
      runtime = startLegacy(app, descriptor, selection, webapp, options, capacity, devNote);
    } else {
      runtime = startHttp(app, descriptor, selection, webapp, options, capacity, devNote);
    }
    if (dev != null) {
      dev.started(runtime);
    }
    return runtime;
  }

  /** HttpConnector mode: one server, its connector streaming into the app. */
  private static RunningRuntime startHttp(
      StagedApp app,
      AppEngineWebXml descriptor,
      RuntimeSelection selection,
      Handler webapp,
      LaunchOptions options,
      Capacity capacity,
      String devNote)
      throws StartupException {
    HttpConnectorServer server =
        new HttpConnectorServer(
            new HttpConnectorServer.Spec(
                webapp, publicServer(effective(descriptor, options), options, capacity)));
    try {
      server.start();
    } catch (Exception | LinkageError e) {
      stopQuietly(server::stop);
      throw startFailed(app.displayName(), e);
    }
    // Stop signals are ours before the start line, which is when a platform may send one.
    RunningRuntime running =
        new RunningRuntime(
            options.shutdownGrace(),
            RunningRuntime.Servers.of(server::join, server::drain, server::stop));
    logServing(
        app.displayName(),
        "HttpConnector mode (" + selection.ee() + ")",
        options,
        server.port(),
        devNote);
    return running;
  }

  /**
   * The runtime's working directory, always a new one: Jetty empties the webapp's temp directory at
   * start and deletes it at stop, which must never touch what else is in the directory the user
   * named.
   */
  private static WorkDirectory newWorkDirectory(LaunchOptions options) throws StartupException {
    try {
      return WorkDirectory.create(options.tempDirectory());
    } catch (IOException e) {
      throw new StartupException(
          "cannot create the runtime's working directory"
              + options.tempDirectory().map(dir -> " in " + dir).orElse("")
              + ": "
              + rootMessage(e),
          e);
    }
  }

  /** The public server of every mode and role, from the options and the effective properties. */
  private static PublicServerSpec publicServer(
      Map<String, String> effective, LaunchOptions options, Capacity capacity)
      throws StartupException {
    return new PublicServerSpec(
        options.address(),
        options.port(),
        contract(effective, options),
        limits(effective, options),
        IDLE_TIMEOUT,
        capacity);
  }

  /** Legacy RPC mode in this process: runtime and front end joined by {@code --rpc-transport}. */
  private static RunningRuntime startLegacy(
      StagedApp app,
      AppEngineWebXml descriptor,
      RuntimeSelection selection,
      Handler webapp,
      LaunchOptions options,
      Capacity capacity,
      String devNote)
      throws StartupException {
    Map<String, String> effective = effective(descriptor, options);
    Path socketDirectory = null;
    RpcTransport transport;
    switch (options.rpcTransport()) {
      case TCP -> transport = RpcTransport.tcp("127.0.0.1", 0);
      case UNIX -> {
        requireUnixSockets("--rpc-transport unix");
        socketDirectory = newSocketDirectory(options);
        transport = RpcTransport.unix(socketDirectory.resolve("runtime.sock"));
      }
      default -> transport = RpcTransport.inProcess();
    }
    LegacyRpcServer server =
        new LegacyRpcServer(
            new LegacyRpcServer.Spec(
                webapp,
                publicServer(effective, options, capacity),
                transport,
                environment(descriptor, options)));
    Path socketsToDelete = socketDirectory;
    try {
      server.start();
    } catch (Exception | LinkageError e) {
      stopQuietly(server::stop);
      deleteQuietly(socketsToDelete);
      throw startFailed(app.displayName(), e);
    }
    RunningRuntime running =
        new RunningRuntime(
            options.shutdownGrace(),
            RunningRuntime.Servers.of(
                server::join,
                server::drain,
                () -> {
                  try {
                    server.stop();
                  } finally {
                    deleteQuietly(socketsToDelete);
                  }
                }));
    logServing(
        app.displayName(),
        "legacy RPC mode (" + selection.ee() + ", " + transport.kindName() + " transport)",
        options,
        server.port(),
        devNote);
    return running;
  }

  /** {@code --role runtime}: the app, serving gRPC at {@code --rpc-listen} for a front end. */
  private static RunningRuntime startRuntime(
      StagedApp app,
      AppEngineWebXml descriptor,
      RuntimeSelection selection,
      Handler webapp,
      LaunchOptions options,
      Capacity capacity)
      throws StartupException {
    RpcTransport listen = options.rpcListen().orElseThrow();
    if (listen.kind() == RpcTransport.Kind.UNIX) {
      requireUnixSockets("--rpc-listen " + listen);
    }
    LegacyRpcRuntimeServer server =
        new LegacyRpcRuntimeServer(
            new LegacyRpcRuntimeServer.Spec(
                webapp, limits(effective(descriptor, options), options), capacity, listen));
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server::stop);
      throw startFailed(app.displayName(), e);
    }
    RunningRuntime running =
        new RunningRuntime(
            options.shutdownGrace(),
            RunningRuntime.Servers.of(server::join, server::drain, server::stop));
    // Not the "at http://" of a public port: nothing here serves HTTP.
    log.info(
        String.format(
            "Runtime for %s in legacy RPC mode (%s) serving gRPC at %s - started in %d ms",
            app.displayName(), selection.ee(), server.address(), startupMillis(options)));
    return running;
  }

  /**
   * {@code --role front}: the public port, forwarding to the runtime at {@code --rpc-target}. The
   * app is optional: its descriptor only contributes ids and {@code appengine.*} properties.
   */
  private static RunningRuntime startFront(LaunchOptions options) throws StartupException {
    RpcTransport target = options.rpcTarget().orElseThrow();
    if (target.kind() == RpcTransport.Kind.UNIX) {
      requireUnixSockets("--rpc-target " + target);
    }
    AppEngineWebXml descriptor = AppEngineWebXml.empty();
    String name = null;
    if (options.app().isPresent()) {
      StagedApp app = StagedApp.open(options.app().get());
      descriptor = readDescriptor(app);
      name = app.displayName();
    }
    Map<String, String> effective = effective(descriptor, options);
    AppEnvironment environment = environment(descriptor, options);
    Capacity capacity = capacity(descriptor, options, Runtime.getRuntime().maxMemory());
    logCapacity(capacity, false);
    LegacyRpcFront front =
        new LegacyRpcFront(
            new LegacyRpcFront.Spec(
                new FrontServer.Spec(publicServer(effective, options, capacity), environment, true),
                target));
    String shown = name != null ? name : environment.applicationId();
    try {
      front.start();
    } catch (Exception e) {
      stopQuietly(front::stop);
      throw startFailed("the front end for " + shown, e);
    }
    RunningRuntime running =
        new RunningRuntime(
            options.shutdownGrace(),
            RunningRuntime.Servers.of(front::join, front::drain, front::stop));
    logServing(
        shown, "legacy RPC mode (front end, runtime at " + target + ")", options, front.port(), "");
    return running;
  }

  /**
   * The app's {@code <env-variables>} against {@code environment} (see {@link EnvVariables}); warns
   * once about each variable the environment keeps. Nothing to do for a front end, which runs no
   * app.
   *
   * @throws StartupException if the app or its descriptor cannot be read
   */
  static EnvVariables.Plan planEnvVariables(
      LaunchOptions options, App app, Map<String, String> environment) {
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

  /** Milliseconds since this runtime's launcher started (the first JVM's, if relaunched). */
  private static long startupMillis(LaunchOptions options) {
    return options
        .relaunchedAt()
        .map(start -> System.currentTimeMillis() - start)
        .orElse(ManagementFactory.getRuntimeMXBean().getUptime());
  }

  /** The start line; end-to-end tests find the port in its {@code at http://HOST:PORT/}. */
  private static void logServing(
      String app, String how, LaunchOptions options, int port, String devNote) {
    String host = options.address().equals("0.0.0.0") ? "localhost" : options.address();
    log.info(
        String.format(
            "Serving %s in %s on Jetty %s at http://%s:%d/ - started in %d ms%s",
            app,
            how,
            HttpConnectorServer.jettyVersion(),
            host,
            port,
            startupMillis(options),
            devNote));
  }

  private static void requireUnixSockets(String what) throws StartupException {
    if (!RpcTransport.unixSocketsSupported()) {
      throw new StartupException(
          what
              + ": Unix domain sockets are not supported on this OS/JVM ("
              + System.getProperty("os.name")
              + " "
              + System.getProperty("os.arch")
              + "); use tcp instead");
    }
  }

  /** A private directory for the socket: short enough for a socket path, and ours alone. */
  private static Path newSocketDirectory(LaunchOptions options) throws StartupException {
    try {
      return options.tempDirectory().isPresent()
          ? Files.createTempDirectory(options.tempDirectory().get(), "aerun-rpc-")
          : Files.createTempDirectory("aerun-rpc-");
    } catch (IOException e) {
      throw new StartupException("cannot create a directory for the RPC socket: " + e, e);
    }
  }

  private static void deleteQuietly(Path socketDirectory) {
    if (socketDirectory == null) {
      return;
    }
    try {
      Files.deleteIfExists(socketDirectory.resolve("runtime.sock"));
      Files.deleteIfExists(socketDirectory);
    } catch (IOException ignored) {
      // A leftover empty directory in the temp dir is harmless.
    }
  }

  private static AppEngineWebXml readDescriptor(StagedApp app) throws StartupException {
    try (InputStream in = app.openDescriptor()) {
      return AppEngineWebXmlParser.parse(in, app.descriptorName());
    } catch (DescriptorException e) {
      throw new StartupException(e.getMessage(), e);
    } catch (IOException e) {
      throw new StartupException(app.descriptorName() + ": cannot read: " + e.getMessage(), e);
    }
  }

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
  private static void logCapacity(Capacity capacity, boolean threadsOnly) {
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
  private static Map<String, String> effective(AppEngineWebXml descriptor, LaunchOptions options) {
    Map<String, String> merged = new LinkedHashMap<>(descriptor.systemProperties());
    merged.putAll(options.systemProperties());
    return merged;
  }

  private static ContractOptions contract(Map<String, String> effective, LaunchOptions options) {
    return ContractOptions.fromProperties(effective, trust(options));
  }

  private static RequestLimits limits(Map<String, String> effective, LaunchOptions options) {
    RequestLimits limits =
        RequestLimits.defaults()
            .withIgnoreResponseSizeLimit(
                Boolean.parseBoolean(
                    effective.get(RequestLimits.IGNORE_RESPONSE_SIZE_LIMIT_PROPERTY)));
    return options.requestBodyTimeout().map(limits::withRequestBodyTimeout).orElse(limits);
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
    // A developer exercises cron, task and signed-in paths with curl on the same machine.
    return options.development() ? TrustPolicy.parse(LOOPBACK) : TrustPolicy.trustNone();
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
   * The app's handler, not started: warm-up in front of static files in front of the webapp. Called
   * again for each redeploy in development.
   */
  static Handler createWebapp(
      StagedApp app,
      RuntimeSelection selection,
      LaunchOptions options,
      AppEngineWebXml descriptor,
      WorkDirectory work)
      throws StartupException {
    Path location = app.war() ? unpack(app, options, work) : app.location();
    try {
      boolean jsp = JspUsage.needsJsp(location);
      if (!jsp) {
        log.info(
            app.displayName() + " has no JSP, tag file or tag library: JSP support is not started");
      }
      WebappHost host =
          WebappHost.load(
              selection.ee(),
              EE_LOADERS.computeIfAbsent(
                  selection.ee() + "/" + jsp, k -> EeClassLoaders.forVersion(selection.ee(), jsp)));
      Handler webapp =
          host.createWebapp(
              new WebappSpec(location, "/", work.scratch())
                  .withSessions(sessions(options, descriptor))
                  .withJsp(jsp)
                  .withLogin(options.loginUrls())
                  .withExtraClasspath(options.classpath())
                  .withDevelopment(options.development()));
      Handler served =
          new WarmupHandler(
              StaticFiles.wrap(
                  descriptor,
                  null,
                  withAppEngineApis(webapp, app, descriptor, options),
                  options.development()),
              warmupEnabled(descriptor),
              path -> host.mapsPath(webapp, path));
      // Development only: anyone may pick a user there, so production never has the page.
      return options.development() ? new DevLoginHandler(served) : served;
    } catch (IOException | RuntimeException e) {
      throw new StartupException(
          app.displayName()
              + ": cannot prepare the "
              + selection.ee()
              + " webapp: "
              + rootMessage(e),
          e);
    }
  }

  /**
   * Unpacks the WAR into the working directory: Jetty is only ever given an exploded app, whose
   * every entry was checked (see {@link WarUnpacker}).
   */
  private static Path unpack(StagedApp app, LaunchOptions options, WorkDirectory work)
      throws StartupException {
    try {
      WarUnpacker.unpack(app.location(), work.app(), options.warLimits(), work::deleting);
      return work.app();
    } catch (WarUnpacker.Refused e) {
      throw new StartupException(app.location() + ": refused: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new StartupException(app.location() + ": cannot unpack the war: " + rootMessage(e), e);
    }
  }

  /**
   * {@code webapp} with the App Engine API SDK's per-request environment when the descriptor turns
   * {@code <app-engine-apis>} on (with the one warning that most of those services are not here).
   */
  private static Handler withAppEngineApis(
      Handler webapp, StagedApp app, AppEngineWebXml descriptor, LaunchOptions options) {
    if (!descriptor.appEngineApis()) {
      return webapp;
    }
    log.warning(
        app.displayName()
            + ": <app-engine-apis> is on: the Users API, the app's ids and the request deadline"
            + " work through ApiProxy; calls to App Engine's other services (Datastore, Memcache,"
            + " Task Queue, Mail ...) fail at once: use the Google Cloud client libraries");
    return new ApiProxyHandler(
        webapp, environment(descriptor, options), options.loginUrls(), app.displayName());
  }

  /**
   * Warm-up requests are on unless {@code <warmup-requests-enabled>false} (the platform's default
   * is on); listing the {@code warmup} inbound service turns them on too.
   */
  static boolean warmupEnabled(AppEngineWebXml descriptor) {
    return descriptor.warmupRequestsEnabled() || descriptor.inboundServices().contains("warmup");
  }

  /**
   * The one line for a server that failed to start: a port that cannot be bound says so itself;
   * anything else names its root cause.
   */
  private static StartupException startFailed(String what, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof PortUnavailableException) {
        return new StartupException(t.getMessage(), e);
      }
    }
    return new StartupException(what + " failed to start: " + rootMessage(e), e);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** Something to stop while already failing. */
  private interface Stoppable {
    void stop() throws Exception;
  }

  private static void stopQuietly(Stoppable server) {
    try {
      server.stop();
    } catch (Exception ignored) {
      // Already failing; the start-up error is the one to report.
    }
  }
}
