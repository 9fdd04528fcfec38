package dev.aerun.main;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Starts the runtime again in a child JVM whose environment has the app's {@code <env-variables>}
 * (see {@link EnvVariables}), or whose heap fits {@code GAE_MEMORY_MB} ({@link HeapSize}), and
 * stands in for it until it exits.
 *
 * <p>The child is this JVM again: the same {@code java}, the same JVM options (heap, {@code -D},
 * agents), the same class path and arguments; it shares this process's standard streams. Every stop
 * signal (SIGTERM or SIGINT) is passed on to the child as SIGTERM: the first makes it drain as
 * usual, another during the drain stops it at once, as the same signal twice does to a runtime that
 * was not relaunched. This process then exits with the child's exit code. A debugger agent ({@code
 * -agentlib:jdwp}) stays with this JVM only, since the child could not listen on the same port. If
 * this process is killed outright (SIGKILL) the child is not stopped: send stop signals, as
 * platforms do.
 */
final class Relaunch {
  private static final Logger log = Logger.getLogger(Relaunch.class.getName());

  private Relaunch() {}

  /**
   * The command that starts {@link Main} again in a new JVM with {@code args}, and {@code
   * jvmOptions} after this JVM's own.
   */
  static List<String> command(String[] args, List<String> jvmOptions) {
    List<String> command = new ArrayList<>();
    command.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (option.startsWith("-agentlib:jdwp") || option.startsWith("-Xrunjdwp")) {
        log.warning("the debugger agent stays with the launcher JVM: " + option);
        continue;
      }
      command.add(option);
    }
    command.addAll(jvmOptions);
    String classPath = System.getProperty("java.class.path");
    if (LegacyJars.startedFromJar()) {
      // As this JVM was started: java -jar, whose launcher agent puts legacy mode's jars on the
      // class path when the app serves in that mode.
      command.addAll(List.of("-jar", classPath));
    } else {
      command.addAll(List.of("-cp", classPath, Main.class.getName()));
    }
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Runs the child with {@code environment} as its whole environment, blocks until it exits, and
   * returns its exit code.
   */
  static int run(String[] args, List<String> jvmOptions, Map<String, String> environment) {
    ProcessBuilder builder = new ProcessBuilder(command(args, jvmOptions)).inheritIO();
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process child;
    try {
      child = builder.start();
    } catch (IOException e) {
      System.err.println("error: cannot start the app's JVM again: " + e);
      return Launcher.EXIT_START_FAILED;
    }
    // SIGTERM each time: the child drains on the first and stops at once on the next. (A
    // terminal's Ctrl-C also reaches the child itself, as SIGINT: the child takes a SIGTERM after a
    // SIGINT as the same request, so one Ctrl-C still drains.)
    Signals.handle(Signals.STOP_SIGNALS, name -> child.destroy());
    // Whatever else ends this JVM must not leave the child serving.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(child), "aerun-relaunch-exit"));
    while (true) {
      try {
        return child.waitFor();
      } catch (InterruptedException e) {
        // Keep waiting: this process stands in for the child until it is gone.
      }
    }
  }

  private static void stop(Process child) {
    if (child.isAlive()) {
      child.destroy();
      try {
        child.waitFor();
      } catch (InterruptedException e) {
        child.destroyForcibly();
      }
    }
  }
}
