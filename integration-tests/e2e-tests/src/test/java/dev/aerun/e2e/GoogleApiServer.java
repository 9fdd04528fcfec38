package dev.aerun.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Google's own API server of the local services ({@code HttpApiServer} of appengine-api-stubs, on
 * Jetty 9.4), in a JVM of its own on a port it picks: an API host that a runtime is pointed at with
 * {@code API_HOST} and {@code API_PORT}, as on the platform.
 */
final class GoogleApiServer implements AutoCloseable {
  private static final Pattern STARTED =
      Pattern.compile("Started ServerConnector@\\S+\\{[^}]*\\}\\{[^:]*:(\\d+)\\}");

  private final Process process;
  private final Path log;

  private GoogleApiServer(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** The jars of Google's API server and staging tools, copied by this module's build. */
  static Path jars() {
    return Path.of(System.getProperty("aerun.google.api.server"));
  }

  /** The jars of {@link #jars()}, as a class path. */
  static String classPath() throws IOException {
    List<String> classpath = new ArrayList<>();
    try (Stream<Path> files = Files.list(jars())) {
      files.filter(f -> f.toString().endsWith(".jar")).forEach(f -> classpath.add(f.toString()));
    }
    return String.join(java.io.File.pathSeparator, classpath);
  }

  static GoogleApiServer start() throws IOException {
    Path log = Files.createTempFile("aerun-google-api-server-", ".log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            // Jetty 9.4 logs its bound port through its own stderr logger.
            "-Dorg.eclipse.jetty.util.log.class=org.eclipse.jetty.util.log.StdErrLog",
            "-cp",
            classPath(),
            "com.google.appengine.tools.development.HttpApiServer",
            "--api_server_port=0",
            "--runtime_server_host=127.0.0.1",
            "--runtime_server_port=1");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new GoogleApiServer(process, log);
  }

  /** The port it serves on, once it says so. */
  int portBlocking() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher started = STARTED.matcher(Files.readString(log));
      if (started.find()) {
        return Integer.parseInt(started.group(1));
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("Google's HttpApiServer did not start:\n" + Files.readString(log));
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
