package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.appengine.descriptor.DescriptorException;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.httpconnector.HttpConnectorServer;
import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.runtime.dev.Development;
import dev.aerun.runtime.logging.RuntimeLogs;
import dev.aerun.runtime.server.PortUnavailableException;
import dev.aerun.runtime.server.PublicServer;
import dev.aerun.runtime.server.PublicServers;
import dev.aerun.runtime.server.RuntimeServer;
import dev.aerun.runtime.server.UnixSocket;
import dev.aerun.runtime.webapp.Deployment;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.function.IntConsumer;
import java.util.logging.Logger;

/**
 * The start-up sequence, in order: read the descriptor, work out the runtime's configuration once
 * ({@link RuntimeConfig}: mode, EE version, capacity, limits ...), give the app its system
 * properties, deploy the webapp, build the one server of the mode and role, and only then open the
 * port.
 *
 * <p>Every step before the port opens fails with a {@link StartupException} carrying one line for
 * the user; nothing is left half-started.
 */
final class RuntimeStarter {
  private static final Logger log = Logger.getLogger(RuntimeStarter.class.getName());

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

  /**
   * Starts the runtime for {@code read} on a JVM whose heap may grow to {@code maxHeapBytes}, and
   * returns it serving.
   */
  static RunningRuntime start(LaunchOptions options, App read, long maxHeapBytes)
      throws StartupException {
    RuntimeConfig config = RuntimeConfig.of(options, read, maxHeapBytes);
    config.selectionWarnings().forEach(log::warning);
    // Before the webapp, which hides the jars of the class path from it.
    LegacyJars.settle(config.legacy());
    RunningRuntime runtime;
    if (config.role() == Role.FRONT) {
      AppSettings.logCapacity(config.server().capacity(), false);
      runtime = serve(config, null, Optional.empty(), "", port -> {});
    } else {
      runtime = explainingFailures(config);
    }
    options.parentPid().ifPresent(pid -> stopWithParent(pid, runtime));
    if (options.relaunchedAt().isPresent()) {
      // The launcher that started this JVM anew stops it on every way out but SIGKILL: then this
      // JVM would go on serving with nobody to stop it.
      ProcessHandle.current()
          .parent()
          .ifPresent(launcher -> stopWithParent(launcher.pid(), runtime));
    }
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

  /** Deploys and serves the app; a failure that says what to do about it gets that line. */
  private static RunningRuntime explainingFailures(RuntimeConfig config) throws StartupException {
    RuntimeSelection selection = config.selection();
    StartFailures.EeChoice choice =
        new StartFailures.EeChoice(
            selection.ee(),
            selection.runtimeId(),
            StartFailures.trueFlag(
                config.effective(),
                RuntimeSelection.USE_EE8,
                RuntimeSelection.USE_EE10,
                RuntimeSelection.USE_EE11));
    try {
      return deployAndServe(config);
    } catch (StartupException e) {
      Throwable cause = e.getCause();
      throw cause == null
          ? e
          : StartFailures.explain(cause, config.name(), choice)
              .map(line -> new StartupException(line, e))
              .orElse(e);
    } catch (RuntimeException | LinkageError | ServiceConfigurationError e) {
      // Loading the app's classes: Jetty lets errors such as NoClassDefFoundError through.
      throw new StartupException(
          StartFailures.explain(e, config.name(), choice)
              .orElse(config.name() + " failed to start: " + rootMessage(e)),
          e);
    }
  }

  /** Sets the app's system properties, deploys it in a new working directory, and serves it. */
  private static RunningRuntime deployAndServe(RuntimeConfig config) throws StartupException {
    LaunchOptions options = config.options();
    config.appSystemProperties().forEach(System::setProperty);
    NativeCodecs.useBundled(); // before the server's compression loads the codecs
    AppSettings.logCapacity(config.server().capacity(), config.role() == Role.RUNTIME);
    if (config.role() == Role.ALL) {
      try {
        PublicServers.checkBindable(options.address(), options.port());
        if (options.unixSocket().isPresent()) {
          if (!UnixSocket.supported()) {
            throw new StartupException(
                "--unix-socket: Unix-domain sockets are not supported on this OS/JVM ("
                    + System.getProperty("os.name")
                    + ")");
          }
          PublicServers.checkBindable(options.unixSocket().get());
        }
      } catch (PortUnavailableException e) {
        throw new StartupException(e.getMessage(), e); // before the app is deployed
      }
    }
    WorkDirectory work = newWorkDirectory(options);
    try {
      work.enter();
      try {
        // Up before the webapp deploys: its servlets may call the services while they start.
        BundledServices apis =
            BundledServices.start(options, config.app(), config.descriptor(), config.environment());
        Deployment deployment =
            AppDeployer.deploy(config, config.descriptor(), config.selection(), work, apis);
        RunningRuntime runtime;
        if (!options.development()) {
          runtime = serve(config, deployment, Optional.empty(), "", apis::served);
        } else {
          DevServer dev = new DevServer(config, work, apis);
          IntConsumer served = apis::served;
          runtime =
              serve(
                  config,
                  deployment,
                  Optional.of(dev.development()),
                  dev.startNote(),
                  served.andThen(dev::served));
          dev.started(runtime);
        }
        work.sweepLeftoversInBackground(); // what killed runtimes left, now that this one serves
        return runtime;
      } finally {
        work.leave();
      }
    } catch (IOException e) {
      work.delete();
      throw new StartupException(config.name() + " failed to start: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      boolean exiting = work.deleting(); // a stop signal arrived while the app deployed
      work.delete();
      if (exiting) {
        throw new StartupException(
            config.name() + " stopped while starting: the runtime is shutting down", e);
      }
      throw e;
    } catch (StartupException | Error e) {
      work.delete();
      throw e;
    }
  }

  /**
   * Builds the one server of the configured mode and role, starts it, and announces it. If it fails
   * to start (its parts already started are stopped again), fails with one line. Returns the
   * runtime that drains and stops it on a signal: stop signals are ours before the start line,
   * which is when a platform may send one.
   *
   * @param deployment the app; null for a front end
   * @param devNote what development adds to the start line, or empty
   * @param served told the public port the app serves on, once it does (before the start line)
   */
  private static RunningRuntime serve(
      RuntimeConfig config,
      Deployment deployment,
      Optional<Development> development,
      String devNote,
      IntConsumer served)
      throws StartupException {
    RuntimeServer server =
        config.legacy()
            ? LegacyServers.create(config, deployment, development)
            : new HttpConnectorServer(
                new HttpConnectorServer.Spec(deployment, development, config.server()));
    try {
      server.start();
    } catch (Exception | LinkageError e) {
      String what =
          config.role() == Role.FRONT ? "the front end for " + config.name() : config.name();
      throw startFailed(what, e);
    }
    RunningRuntime running = new RunningRuntime(config.options().shutdownGrace(), server);
    PublicServer publicPort = server.getBean(PublicServer.class);
    if (publicPort != null) {
      served.accept(publicPort.port());
    }
    RuntimeLogs.announce( // at once: people and tools wait for this line
        log, config.startLine(server.endpoint(), startupMillis(config.options()), devNote));
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

  /** Milliseconds since this runtime's launcher started (the first JVM's, if relaunched). */
  private static long startupMillis(LaunchOptions options) {
    return options
        .relaunchedAt()
        .map(start -> System.currentTimeMillis() - start)
        .orElse(ManagementFactory.getRuntimeMXBean().getUptime());
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
}
