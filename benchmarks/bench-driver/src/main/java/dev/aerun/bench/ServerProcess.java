package dev.aerun.bench;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.TempDirs;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One peer's server JVM, started by the test harness ({@link RuntimeProcess}): its output goes to a
 * file, its port is read back from its start line, and it is stopped when closed, or killed when
 * this JVM exits by any way short of a hard kill.
 *
 * @param temp where the server unpacks the app, deleted when it stops
 * @param knownPort the port a custom peer was told, or -1 for one that prints it
 */
record ServerProcess(Peer peer, String ee, RuntimeProcess process, Path temp, int knownPort)
    implements AutoCloseable {
  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

  private static final String RUNTIME_JAR = "runtime-main/target/runtime-main.jar";
  private static final String BARE_JAR = "benchmarks/bare-jetty/target/bare-jetty.jar";
  private static final String APPS = "benchmarks/bench-driver/target/apps/bench-app-";

  /** Fails naming what is missing in {@code repo}: the driver runs the reactor's build output. */
  static void checkBuilt(Path repo, List<String> ees) {
    Stream<String> built =
        Stream.concat(Stream.of(RUNTIME_JAR, BARE_JAR), ees.stream().map(ee -> APPS + ee + ".war"));
    for (Path path : built.map(repo::resolve).toList()) {
      if (!Files.isRegularFile(path)) {
        throw new IllegalStateException(
            path + " is missing: build first (mvn -B -q package -DskipTests)");
      }
    }
  }

  /** Starts {@code peer} serving the {@code ee} app on a free port of 127.0.0.1. */
  static ServerProcess start(BenchOptions options, Peer peer, String ee, Path workDir, String name)
      throws IOException {
    Path temp = Files.createDirectories(workDir.resolve(name + "-tmp"));
    Path log = workDir.resolve(name + ".log");
    Path war = options.repo().resolve(APPS + ee + ".war");
    List<String> command = new ArrayList<>();
    int knownPort = -1;
    if (peer.isCustom()) { // its own command, told a port free on 127.0.0.1 a moment ago
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        knownPort = socket.getLocalPort();
      }
      command.addAll(peer.command(options.java(), options.jvmFlags(), knownPort, war));
    } else {
      boolean bare = peer == Peer.BARE;
      command.add(options.java().toString());
      command.addAll(options.jvmFlags());
      command.addAll(
          List.of("-jar", options.repo().resolve(bare ? BARE_JAR : RUNTIME_JAR).toString()));
      command.addAll(bare ? List.of("--ee", ee) : peer.runtimeOptions);
      command.addAll(
          List.of("--port", "0", "--address", "127.0.0.1", "--temp-dir", temp.toString()));
      command.add(war.toString());
    }
    // The platform's variables would change what the runtime does; the peers run off-platform
    // (the harness leaves them out).
    RuntimeProcess process = RuntimeProcess.start(peer.label, command, Map.of(), log);
    return new ServerProcess(peer, ee, process, temp, knownPort); // a built-in peer prints its port
  }

  /** The port, once the start line is out; fails if the server exits or takes too long. */
  int awaitPort() {
    if (knownPort > 0) {
      return knownPort;
    }
    long left = process.startNanos() + START_TIMEOUT_NANOS - System.nanoTime();
    return process.awaitStartLine(Duration.ofNanos(Math.max(left, 0))).port();
  }

  /**
   * Waits for the first {@code 200} to {@code GET path} on a new connection, polling from the start
   * line on, and returns the nanoseconds from the process's start to that answer.
   */
  long awaitFirstOk(String path) throws IOException, InterruptedException {
    int p = awaitPort();
    long startNanos = process.startNanos();
    long deadline = startNanos + START_TIMEOUT_NANOS;
    while (System.nanoTime() < deadline) {
      try {
        if (RawResponse.get(p, path).status() == 200) {
          return System.nanoTime() - startNanos;
        }
      } catch (ConnectException | AssertionError notYet) {
        // The start line can come just before the port accepts, and a closed connection answers
        // nothing.
      } catch (IOException notYet) {
        if (!peer.isCustom()) {
          throw notYet;
        }
        // A custom peer prints no start line: its port may be half-open while it starts.
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(peer.label + " exited:\n" + process.tail(40));
      }
      Thread.sleep(2);
    }
    throw new IllegalStateException(peer.label + " never answered 200 on " + path);
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Resident set size now, in bytes, or -1 where /proc is not there. */
  long rssBytes() {
    return procStatusKib("VmRSS:") * 1024;
  }

  /** The largest resident set size so far, in bytes, or -1. */
  long peakRssBytes() {
    return procStatusKib("VmHWM:") * 1024;
  }

  private long procStatusKib(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or the process is gone.
    }
    return -1;
  }

  /** Stops the server (SIGTERM, then a kill) and deletes what it unpacked. */
  @Override
  public void close() {
    process.close();
    if (!process.isAlive()) {
      TempDirs.deleteQuietly(temp);
    }
  }
}
