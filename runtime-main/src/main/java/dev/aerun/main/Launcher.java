package dev.aerun.main;

import dev.aerun.runtime.logging.RuntimeLogs;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns a command line into a running runtime, or into one clear message and an exit code.
 *
 * <p>Exit codes: 0 served and stopped, or {@code --help}; 1 the app could not be started (bad
 * descriptor, missing app, failing app, port in use); 2 the command line was wrong; 3 (only with
 * {@code --watch}) a change needs a new JVM.
 *
 * <p>{@code stage ...} as the first argument runs the staging subcommand instead ({@link
 * StageCommand}), with the same exit codes.
 */
public final class Launcher {
  private static final Logger log = Logger.getLogger(Launcher.class.getName());

  static final int EXIT_OK = 0;
  static final int EXIT_START_FAILED = 1;
  static final int EXIT_USAGE = 2;

  /**
   * {@code -Daerun.log.debug=true}: log exceptions during start-up with their stack traces, and the
   * start failure's own, besides its one {@code error:} line.
   */
  static final String DEBUG_PROPERTY = "aerun.log.debug";

  /**
   * With {@code --watch}: the app changed in a way that needs a new JVM (mode, EE version, {@code
   * <env-variables>}, system properties); the runtime drained and stopped for its starter to run it
   * again.
   */
  static final int EXIT_RESTART = 3;

  private Launcher() {}

  /** Starts the runtime and blocks until it stops; returns the process exit code. */
  static int run(Map<String, String> environment, Map<String, String> properties, String[] args) {
    return run(environment, properties, args, System.out, System.err);
  }

  static int run(
      Map<String, String> environment,
      Map<String, String> properties,
      String[] args,
      PrintStream out,
      PrintStream err) {
    if (StageCommand.isStage(args)) {
      return StageCommand.run(StageCommand.rest(args), out, err);
    }
    LaunchOptions options;
    try {
      options = LaunchOptions.parse(environment, properties, args);
    } catch (UsageException e) {
      if (e.isHelp()) {
        out.print(e.getMessage());
        return EXIT_OK;
      }
      err.println("error: " + e.getMessage());
      err.println("Run with --help for usage.");
      return EXIT_USAGE;
    } catch (StartupException e) { // the environment's fault, not the command line's
      return startFailed(e.getMessage(), e, false, err);
    }
    RuntimeLogs.install(options.logFormat(), options.platform()); // before anything logs
    // Until the app serves, an exception in a log line is one line, unless asked for details:
    // a start failure ends in one error line, not in pages of stack traces.
    boolean details = Boolean.parseBoolean(properties.get(DEBUG_PROPERTY));
    RuntimeLogs.briefExceptions(!details);
    RunningRuntime runtime;
    try {
      RuntimeStarter.App app = RuntimeStarter.readApp(options);
      EnvVariables.Plan plan = AppSettings.planEnvVariables(options, app, environment);
      Optional<String> heap =
          options.relaunchedAt().isPresent()
              ? Optional.empty()
              : HeapSize.relaunchOption(environment.get(HeapSize.VARIABLE));
      if (plan.needsRelaunch() || heap.isPresent()) {
        if (options.relaunchedAt().isPresent()) {
          throw new StartupException(
              "the environment still lacks " + plan.missing().keySet() + " after a relaunch");
        }
        if (plan.needsRelaunch()) {
          log.info(
              "Starting the app's JVM again with "
                  + plan.missing().size()
                  + " variable(s) from <env-variables>: "
                  + String.join(", ", plan.missing().keySet()));
        }
        heap.ifPresent(
            option ->
                log.info(
                    "Starting the app's JVM again with "
                        + option
                        + ": "
                        + HeapSize.VARIABLE
                        + " is below the memory this JVM sized its heap for"));
        return Relaunch.run(
            args,
            heap.stream().toList(),
            plan.childEnvironment(environment, System.currentTimeMillis() - uptimeMillis()));
      }
      // The heap, read here at the edge as the environment is: what sizes capacity and caches.
      runtime = RuntimeStarter.start(options, app, Runtime.getRuntime().maxMemory());
    } catch (StartupException e) {
      return startFailed(e.getMessage(), e, details, err);
    } catch (RuntimeException | LinkageError e) {
      return startFailed(
          "the runtime failed to start: "
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage()),
          e,
          details,
          err);
    } finally {
      RuntimeLogs.briefExceptions(false);
    }
    runtime.join();
    return runtime.exitCode();
  }

  /** One {@code error:} line; the exception itself only with {@value #DEBUG_PROPERTY}. */
  private static int startFailed(String line, Throwable e, boolean details, PrintStream err) {
    if (details) {
      log.log(Level.SEVERE, "start-up failed", e);
    }
    err.println("error: " + line.replaceAll("[\\r\\n]+", " "));
    return EXIT_START_FAILED;
  }

  private static long uptimeMillis() {
    return ManagementFactory.getRuntimeMXBean().getUptime();
  }

  /** The system properties given with {@code -D} on this JVM's command line. */
  static Map<String, String> commandLineProperties() {
    Map<String, String> given = new LinkedHashMap<>();
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (argument.startsWith("-D")) {
        int eq = argument.indexOf('=');
        String name = eq < 0 ? argument.substring(2) : argument.substring(2, eq);
        String value = System.getProperty(name);
        if (!name.isEmpty() && value != null) {
          given.put(name, value);
        }
      }
    }
    return given;
  }
}
