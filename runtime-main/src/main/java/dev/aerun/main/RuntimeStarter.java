package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.appengine.descriptor.DescriptorException;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.httpconnector.HttpConnectorServer;
import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.logging.LogFormat;
import dev.aerun.runtime.logging.RuntimeLogs;
import dev.aerun.runtime.server.PortUnavailableException;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.PublicServers;
import dev.aerun.runtime.server.RuntimeServer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceConfigurationError;
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
      LegacyJars.settle(true);
      return LegacyStarts.startFront(options);
    }
    StagedApp app = read.staged();
    AppEngineWebXml descriptor = read.descriptor();
    RuntimeSelection selection = AppSettings.select(descriptor, options);
    selection.warnings().forEach(w -> log.warning(app.descriptorName() + ": " + w));
    // Before the webapp, which hides the jars of the class path from it.
    LegacyJars.settle(options.role() == Role.RUNTIME || selection.mode() == ServingMode.LEGACY_RPC);
    StartFailures.EeChoice choice =
        new StartFailures.EeChoice(
            selection.ee(),
            selection.runtimeId(),
            StartFailures.trueFlag(
                AppSettings.effective(descriptor, options),
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
    Map<String, String> properties = AppSettings.appSystemProperties(descriptor, options);
    properties.forEach(System::setProperty);

    Capacity capacity = AppSettings.capacity(descriptor, options, Runtime.getRuntime().maxMemory());
    AppSettings.logCapacity(capacity, options.role() == Role.RUNTIME);
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
    // Up before the webapp deploys: its servlets may call the services while they start.
    BundledServices apis =
        BundledServices.start(
            options, app, descriptor, AppSettings.environment(descriptor, options));
    Handler webapp = AppHandlers.create(app, selection, options, descriptor, work, apis);
    DevServer dev = null;
    String devNote = "";
    if (options.development()) {
      dev = new DevServer(options, app, descriptor, selection, webapp, work, apis);
      webapp = dev.wrap(webapp);
      devNote = dev.startNote();
    }
    Deployed deployed =
        new Deployed(app, descriptor, selection, webapp, options, capacity, devNote, apis::served);
    RunningRuntime runtime;
    if (options.role() == Role.RUNTIME) {
      runtime = LegacyStarts.startRuntime(deployed);
    } else if (selection.mode() == ServingMode.LEGACY_RPC) {
      runtime = LegacyStarts.startLegacy(deployed);
    } else {
      runtime = startHttp(deployed);
    }
    if (dev != null) {
      dev.started(runtime);
    }
    return runtime;
  }

  /**
   * What every role and mode starts from: the app deployed as a handler, with what chose and sizes
   * its serving.
   */
  record Deployed(
      StagedApp app,
      AppEngineWebXml descriptor,
      RuntimeSelection selection,
      Handler webapp,
      LaunchOptions options,
      Capacity capacity,
      String devNote,
      java.util.function.IntConsumer served) {}

  /** HttpConnector mode: one server, its connector streaming into the app. */
  private static RunningRuntime startHttp(Deployed deployed) throws StartupException {
    StagedApp app = deployed.app();
    LaunchOptions options = deployed.options();
    HttpConnectorServer server =
        new HttpConnectorServer(
            new HttpConnectorServer.Spec(
                deployed.webapp(),
                publicServer(
                    AppSettings.effective(deployed.descriptor(), options),
                    options,
                    deployed.capacity(),
                    deployed.descriptor().appEngineApis())));
    RunningRuntime running = start(app.displayName(), options, server);
    deployed.served().accept(server.port());
    logServing(
        app.displayName(),
        "HttpConnector mode (" + deployed.selection().ee() + ")",
        options,
        server.port(),
        deployed.devNote());
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
  static PublicServerSpec publicServer(
      Map<String, String> effective, LaunchOptions options, Capacity capacity, boolean apiTicket)
      throws StartupException {
    return new PublicServerSpec(
        options.address(),
        options.port(),
        AppSettings.contract(effective, options).withApiTicket(apiTicket),
        AppSettings.limits(effective, options),
        IDLE_TIMEOUT,
        capacity,
        options.requestLog(LogFormat::hasTerminal));
  }

  /** Milliseconds since this runtime's launcher started (the first JVM's, if relaunched). */
  static long startupMillis(LaunchOptions options) {
    return options
        .relaunchedAt()
        .map(start -> System.currentTimeMillis() - start)
        .orElse(ManagementFactory.getRuntimeMXBean().getUptime());
  }

  /** The start line; end-to-end tests find the port in its {@code at http://HOST:PORT/}. */
  static void logServing(String app, String how, LaunchOptions options, int port, String devNote) {
    String host = options.address().equals("0.0.0.0") ? "localhost" : options.address();
    RuntimeLogs.announce( // at once: people and tools wait for this line
        log,
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

  static AppEngineWebXml readDescriptor(StagedApp app) throws StartupException {
    try (InputStream in = app.openDescriptor()) {
      return AppEngineWebXmlParser.parse(in, app.descriptorName());
    } catch (DescriptorException e) {
      throw new StartupException(e.getMessage(), e);
    } catch (IOException e) {
      throw new StartupException(app.descriptorName() + ": cannot read: " + e.getMessage(), e);
    }
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

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /**
   * Starts {@code server}; if that fails (its parts already started are stopped again), fails with
   * one line naming {@code what}. Returns the runtime that drains and stops it on a signal: stop
   * signals are ours before the start line, which is when a platform may send one.
   */
  static RunningRuntime start(String what, LaunchOptions options, RuntimeServer server)
      throws StartupException {
    try {
      server.start();
    } catch (Exception | LinkageError e) {
      throw startFailed(what, e);
    }
    return new RunningRuntime(options.shutdownGrace(), server);
  }
}
