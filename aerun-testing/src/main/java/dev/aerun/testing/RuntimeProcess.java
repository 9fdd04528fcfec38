package dev.aerun.testing;

import dev.aerun.startline.StartLine;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server in a child JVM, started as users start it, by default the runtime: {@code java [-D…]
 * -jar runtime-main.jar --port 0 --address 127.0.0.1 … APP}. It listens on a port the system picks,
 * read back from its {@link StartLine}, so tests never race for a free port.
 *
 * <p>Everything the child prints goes to a file rather than a pipe (a pipe read races with the JDK
 * draining it when the process exits, and the last lines could be lost): {@link #output()} shows
 * it, and {@link Runtimes} prints it when a test fails. A child is never left behind: {@link
 * #close()} stops it and what it started, and a shutdown hook kills every child still running when
 * this JVM exits.
 */
public final class RuntimeProcess implements AutoCloseable {
  /**
   * How long a start may take by default: a start that relaunches for {@code <env-variables>} runs
   * two JVMs, and on a loaded 2-core machine each may take tens of seconds.
   */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(180);

  /** Variables of the platform (or of a developer's shell) that would change what a server does. */
  private static final Set<String> PLATFORM_VARIABLES =
      Set.of("PORT", "GOOGLE_CLOUD_PROJECT", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");

  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (Process process : RUNNING) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                  }
                },
                "aerun-testing-kill-children"));
  }

  private final String name;
  private final Process process;
  private final Path log;
  private final long startNanos;
  private final Object scanLock = new Object();
  private long scanned;
  private volatile StartLine startLine;

  private RuntimeProcess(String name, Process process, Path log, long startNanos) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.startNanos = startNanos;
  }

  /** A launch of the runtime jar serving {@code app} (null for none), to configure and start. */
  public static Launch launch(Path app) {
    return new Launch(app);
  }

  /**
   * Starts {@code command}, a server that writes the {@link StartLine}, with its standard output
   * and error to {@code log} and no standard input. Its environment is this JVM's without the
   * platform's variables ({@code GAE_*}, {@code AERUN_*}, {@code PORT}, {@code
   * GOOGLE_CLOUD_PROJECT}, {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}), plus {@code env}.
   *
   * @param name what the process is called in failure messages, e.g. {@code runtime}
   */
  public static RuntimeProcess start(
      String name, List<String> command, Map<String, String> env, Path log) throws IOException {
    return start(name, command, null, env, log);
  }

  /**
   * Starts {@code command} as {@link #start(String, List, Map, Path)} does, in {@code directory}
   * (e.g. a staged app folder, where a platform starts its entrypoint), its output to a new
   * temporary file.
   */
  public static RuntimeProcess start(List<String> command, Path directory, Map<String, String> env)
      throws IOException {
    Path log = Files.createTempFile("aerun-runtime-", ".log");
    log.toFile().deleteOnExit();
    return start("runtime", command, directory, env, log);
  }

  private static RuntimeProcess start(
      String name, List<String> command, Path directory, Map<String, String> env, Path log)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory == null ? null : directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    builder
        .environment()
        .keySet()
        .removeIf(
            k -> k.startsWith("GAE_") || k.startsWith("AERUN_") || PLATFORM_VARIABLES.contains(k));
    builder.environment().putAll(env);
    long startNanos = System.nanoTime();
    Process process = builder.start();
    RUNNING.add(process);
    process.onExit().thenRun(() -> RUNNING.remove(process));
    return new RuntimeProcess(name, process, log, startNanos);
  }

  /** The jar built by the reactor's runtime-main module ({@code -Daerun.runtime.jar}). */
  public static Path runtimeJar() {
    return Path.of(
        System.getProperty("aerun.runtime.jar", "../../runtime-main/target/runtime-main.jar"));
  }

  /**
   * A sample app built by the reactor, e.g. {@code sample-ee10-app.war} ({@code -Daerun.apps.dir}).
   */
  public static Path app(String fileName) {
    Path path = Path.of(System.getProperty("aerun.apps.dir", "target/apps")).resolve(fileName);
    if (!Files.exists(path)) {
      throw new IllegalStateException(path + " was not built: run the reactor (mvn verify)");
    }
    return path;
  }

  /**
   * The port the server is serving on, read from its start line; fails if it exits or does not
   * start within {@link #START_TIMEOUT}.
   */
  public int port() {
    return startLine().port();
  }

  /** The start line, once written; fails as {@link #port()} does. */
  public StartLine startLine() {
    return awaitStartLine(START_TIMEOUT);
  }

  /**
   * The start line, once written, waiting at most {@code timeout} (polled every 2 ms: a measured
   * cold start is not late by much more); fails if the process exits first or it does not come.
   */
  public StartLine awaitStartLine(Duration timeout) {
    StartLine line = startLine;
    if (line != null) {
      return line;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      line = scanForStartLine();
      if (line != null) {
        startLine = line;
        return line;
      }
      if (!process.isAlive()) {
        line = scanForStartLine(); // what it wrote before it exited
        if (line != null) {
          startLine = line;
          return line;
        }
        throw new IllegalStateException(
            name + " exited (" + process.exitValue() + ") before serving:\n" + tail(200));
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(name + " did not start in time:\n" + tail(200));
      }
      sleepMillis(2);
    }
  }

  /**
   * Reads the output written since the last call, up to its last complete line, and returns the
   * start line if it is there: a server that logs much before it serves (class loading, say) is not
   * read again and again.
   */
  private StartLine scanForStartLine() {
    synchronized (scanLock) {
      try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
        long size = channel.size();
        if (size <= scanned) {
          return null;
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(size - scanned, 1 << 24));
        channel.read(bytes, scanned);
        int end = bytes.position();
        while (end > 0 && bytes.get(end - 1) != '\n') {
          end--;
        }
        if (end == 0) {
          return null;
        }
        scanned += end;
        String lines = new String(bytes.array(), 0, end, StandardCharsets.UTF_8);
        return StartLine.find(lines).orElse(null);
      } catch (IOException e) {
        return null; // not created yet
      }
    }
  }

  /**
   * Waits until the output matches {@code pattern}, e.g. a line a process without a public port
   * logs, and returns the match; fails if the process exits or it does not come within {@link
   * #START_TIMEOUT}.
   */
  public Matcher awaitOutput(Pattern pattern) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      Matcher m = pattern.matcher(output());
      if (m.find()) {
        return m;
      }
      if (!process.isAlive()) {
        m = pattern.matcher(output());
        if (m.find()) {
          return m;
        }
        throw new IllegalStateException(
            name
                + " exited ("
                + process.exitValue()
                + ") before logging "
                + pattern
                + ":\n"
                + tail(200));
      }
      sleepMillis(20);
    }
    throw new IllegalStateException(name + " did not log " + pattern + " in time:\n" + tail(200));
  }

  /** {@code http://127.0.0.1:<port><path>}. */
  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port() + path);
  }

  /** All the process printed so far. */
  public String output() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "[harness] cannot read " + log + ": " + e;
    }
  }

  /** The last {@code lines} lines the process printed. */
  public String tail(int lines) {
    String[] all = output().split("\n");
    return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
  }

  /** The file the process's output goes to. */
  public Path log() {
    return log;
  }

  /** The process id (the launcher's, when it relaunched itself). */
  public long pid() {
    return process.pid();
  }

  /** The process, e.g. for its descendants. */
  public ProcessHandle toHandle() {
    return process.toHandle();
  }

  /** {@link System#nanoTime()} just before the process was started. */
  public long startNanos() {
    return startNanos;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code once the process has ended within {@code timeout}; empty if it still runs. */
  public Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
        ? Optional.of(process.exitValue())
        : Optional.empty();
  }

  /**
   * Waits for the process to exit by itself and returns its exit code; kills it and fails if it
   * does not within {@code seconds}.
   */
  public int waitFor(long seconds) throws InterruptedException {
    Optional<Integer> code = awaitExit(Duration.ofSeconds(seconds));
    if (code.isEmpty()) {
      process.destroyForcibly();
      throw new IllegalStateException(name + " did not exit in " + seconds + "s:\n" + tail(200));
    }
    return code.get();
  }

  /** Sends SIGTERM, as the platform does to stop an instance, and returns at once. */
  public void sendSigterm() {
    process.destroy();
  }

  /** Asks the process to stop as the platform does (SIGTERM) and waits for it. */
  public int stop() throws InterruptedException {
    process.destroy();
    return waitFor(30);
  }

  /**
   * Stops the process: SIGTERM, then a kill if it has not exited after 30 s; what it started (a
   * launcher that relaunched itself for {@code <env-variables>} has a child JVM) is killed too.
   */
  @Override
  public void close() {
    List<ProcessHandle> descendants = process.descendants().toList();
    try {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      descendants.forEach(ProcessHandle::destroyForcibly);
      RUNNING.remove(process);
    }
  }

  /**
   * Runs {@code jcmd PID COMMAND...} of the JDK whose launcher is {@code java} (e.g. a full GC, a
   * class histogram, a JFR recording) and returns its output; fails with the output if it fails.
   */
  public static String jcmd(Path java, long pid, String... command)
      throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of(java.resolveSibling("jcmd").toString()));
    line.add(Long.toString(pid));
    line.addAll(List.of(command));
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + output);
    }
    return output;
  }

  /** {@link #jcmd(Path, long, String...)} on this process, with the JDK this JVM runs on. */
  public String jcmd(String... command) throws IOException, InterruptedException {
    return jcmd(Path.of(System.getProperty("java.home"), "bin", "java"), pid(), command);
  }

  private static File nullDevice() {
    return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** How to start the runtime jar. */
  public static final class Launch {
    private final Path app;
    private Path javaHome = Path.of(System.getProperty("java.home"));
    private Path jar = RuntimeProcess.runtimeJar();
    private Path log;
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

    /** The launcher jar; {@link #runtimeJar()} by default. */
    public Launch runtimeJar(Path jar) {
      this.jar = jar;
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

    /** Where the output goes; a new temporary file by default. */
    public Launch log(Path file) {
      this.log = file;
      return this;
    }

    /** The command {@link #start()} runs. */
    public List<String> command() {
      List<String> command = new ArrayList<>();
      command.add(javaHome.resolve("bin").resolve("java").toString());
      command.add("-Xmx512m");
      command.addAll(jvmArgs);
      command.add("-jar");
      command.add(jar.toString());
      command.addAll(List.of("--port", "0", "--address", "127.0.0.1"));
      command.addAll(args);
      if (app != null) {
        command.add(app.toString());
      }
      return command;
    }

    /** Starts the runtime on a free port of 127.0.0.1. */
    public RuntimeProcess start() throws IOException {
      Path output = log;
      if (output == null) {
        output = Files.createTempFile("aerun-runtime-", ".log");
        output.toFile().deleteOnExit();
      }
      return RuntimeProcess.start("runtime", command(), env, output);
    }
  }
}
