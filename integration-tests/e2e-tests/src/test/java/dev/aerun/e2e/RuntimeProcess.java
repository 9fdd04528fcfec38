package dev.aerun.e2e;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real runtime in a child JVM, started exactly as users start it: {@code java [-D…] -jar
 * runtime-main.jar --port 0 …}. It listens on a port the system picks, which is read back from the
 * runtime's start-up line, so tests never race for a free port.
 *
 * <p>Everything the child prints is kept; {@link #output()} shows it when a test fails.
 *
 * <p>Public for the test packages below {@code dev.aerun.e2e} (the parity suite).
 */
public final class RuntimeProcess implements AutoCloseable {
  private static final Pattern STARTED = Pattern.compile(" at http://([^/]+):(\\d+)/");
  // Generous: a start that relaunches for <env-variables> runs two JVMs, and on a loaded 2-core
  // machine each may take tens of seconds.
  private static final long START_TIMEOUT_SECONDS = 180;

  private final Process process;
  private final Path log;
  private volatile int port = -1;

  private RuntimeProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * The runtime started by {@code command} as it stands (the first word a {@code java}), in {@code
   * directory}, with the test JVM's environment less its {@code GAE_*} and {@code PORT}, plus
   * {@code env}: for a runtime started the way a platform starts it.
   */
  public static RuntimeProcess start(List<String> command, Path directory, Map<String, String> env)
      throws IOException {
    Path log = Files.createTempFile("aerun-runtime-", ".log");
    log.toFile().deleteOnExit();
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("GAE_") || k.equals("PORT"));
    builder.environment().putAll(env);
    return new RuntimeProcess(builder.start(), log);
  }

  /** A launch to configure before {@link Launch#start()}. */
  public static Launch launch(Path app) {
    return new Launch(app);
  }

  /** The jar built by the reactor's runtime-main module. */
  public static Path runtimeJar() {
    return Path.of(
        System.getProperty("aerun.runtime.jar", "../../runtime-main/target/runtime-main.jar"));
  }

  /** A sample app built by the reactor, e.g. {@code sample-ee10-app.war}. */
  public static Path app(String fileName) {
    Path path = Path.of(System.getProperty("aerun.apps.dir", "target/apps")).resolve(fileName);
    if (!Files.exists(path)) {
      throw new IllegalStateException(path + " was not built: run the reactor (mvn verify)");
    }
    return path;
  }

  /**
   * The port the runtime is serving on, read from its start-up line; fails if it exits or does not
   * start in time.
   */
  public int port() {
    if (port > 0) {
      return port;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      Matcher m = STARTED.matcher(output());
      if (m.find()) {
        port = Integer.parseInt(m.group(2));
        return port;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "runtime exited (" + process.exitValue() + ") before serving:\n" + output());
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    throw new IllegalStateException("runtime did not start in time:\n" + output());
  }

  /**
   * Waits until the output matches {@code pattern}, e.g. a line a process without a public port
   * logs, and returns the match; fails if the process exits or it does not come in time.
   */
  public Matcher awaitOutput(Pattern pattern) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      Matcher m = pattern.matcher(output());
      if (m.find()) {
        return m;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "runtime exited ("
                + process.exitValue()
                + ") before logging "
                + pattern
                + ":\n"
                + output());
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    throw new IllegalStateException("runtime did not log " + pattern + " in time:\n" + output());
  }

  /** {@code http://127.0.0.1:<port><path>}. */
  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port() + path);
  }

  /**
   * All the runtime printed so far. The child writes to a file rather than a pipe: a pipe read
   * races with the JDK draining it when the process exits, and the last lines could be lost.
   */
  public String output() {
    try {
      return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "[harness] cannot read " + log + ": " + e;
    }
  }

  /** The runtime's process id (the launcher's, when it relaunched itself). */
  public long pid() {
    return process.pid();
  }

  /** Waits for the process to exit by itself and returns its exit code. */
  public int waitFor(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("runtime did not exit in " + seconds + "s:\n" + output());
    }
    return process.exitValue();
  }

  /** Sends SIGTERM, as the platform does to stop an instance, and returns at once. */
  public void sendSigterm() {
    process.destroy();
  }

  /** Asks the runtime to stop as the platform does (SIGTERM) and waits for it. */
  public int stop() throws InterruptedException {
    process.destroy();
    return waitFor(30);
  }

  @Override
  public void close() {
    // A launcher that relaunched itself for <env-variables> has a child JVM: never leave it behind.
    List<ProcessHandle> descendants = process.descendants().toList();
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  /** How to start the runtime. */
  public static final class Launch {
    private final Path app;
    private Path javaHome = Path.of(System.getProperty("java.home"));
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();

    private Launch(Path app) {
      this.app = app;
    }

    /** A {@code -Dname=value} for the runtime's JVM. */
    public Launch property(String name, String value) {
      jvmArgs.add("-D" + name + "=" + value);
      return this;
    }

    /** A JVM option, e.g. {@code -Xmx256m} (a later one wins over the default {@code -Xmx512m}). */
    public Launch jvmOption(String option) {
      jvmArgs.add(option);
      return this;
    }

    /** The JDK to run on; the one running the tests by default. */
    public Launch javaHome(Path home) {
      this.javaHome = home;
      return this;
    }

    /** Runtime options placed before the app. */
    public Launch args(String... more) {
      args.addAll(List.of(more));
      return this;
    }

    /** An environment variable for the runtime. */
    public Launch env(String name, String value) {
      env.put(name, value);
      return this;
    }

    /** Starts the runtime on a free port of 127.0.0.1. */
    public RuntimeProcess start() throws IOException {
      List<String> command = new ArrayList<>();
      command.add(javaHome.resolve("bin").resolve("java").toString());
      command.add("-Xmx512m");
      command.addAll(jvmArgs);
      command.add("-jar");
      command.add(runtimeJar().toString());
      command.add("--port");
      command.add("0");
      command.add("--address");
      command.add("127.0.0.1");
      command.addAll(args);
      if (app != null) {
        command.add(app.toString());
      }
      Path log = Files.createTempFile("aerun-runtime-", ".log");
      log.toFile().deleteOnExit();
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().keySet().removeIf(k -> k.startsWith("GAE_") || k.equals("PORT"));
      builder.environment().putAll(env);
      return new RuntimeProcess(builder.start(), log);
    }
  }
}
