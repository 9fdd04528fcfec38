package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static dev.aerun.e2e.BundledServices.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The runtime's API client against Google's own API server of the local services ({@code
 * HttpApiServer} of appengine-api-stubs, on Jetty 9.4, in a JVM of its own), named with {@code
 * API_HOST} and {@code API_PORT} as on the platform: the dialect, not only our own host, is right.
 */
class GoogleApiServerCrossCheckTest {
  private static final Pattern STARTED =
      Pattern.compile("Started ServerConnector@\\S+\\{[^}]*\\}\\{[^:]*:(\\d+)\\}");
  @RegisterExtension static final Runtimes runtimes = new Runtimes();
  private Process server;

  @AfterEach
  void stopServer() throws InterruptedException {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void datastorePutGetThroughGooglesHttpApiServer() throws Exception {
    Path log = Files.createTempFile("aerun-google-api-server-", ".log");
    server = startGoogleServer(log);
    int port = portOf(log);
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-apis-ee10.war"))
                .args("--log-format", "text")
                .env("API_HOST", "127.0.0.1")
                .env("API_PORT", Integer.toString(port)));
    runtime.port();
    assertTrue(runtime.output().contains("API host 127.0.0.1:" + port), runtime.output());
    call(runtime, "put?name=cross&value=v-cross");
    assertEquals("v-cross", value(call(runtime, "get?name=cross"), "value"));
    String memcache = call(runtime, "memcache");
    assertEquals("hello", value(memcache, "get"));
  }

  private static Process startGoogleServer(Path log) throws IOException {
    Path jars = Path.of(System.getProperty("aerun.google.api.server"));
    List<String> classpath = new ArrayList<>();
    try (Stream<Path> files = Files.list(jars)) {
      files.filter(f -> f.toString().endsWith(".jar")).forEach(f -> classpath.add(f.toString()));
    }
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            // Jetty 9.4 logs its bound port through its own stderr logger.
            "-Dorg.eclipse.jetty.util.log.class=org.eclipse.jetty.util.log.StdErrLog",
            "-cp",
            String.join(java.io.File.pathSeparator, classpath),
            "com.google.appengine.tools.development.HttpApiServer",
            "--api_server_port=0",
            "--runtime_server_host=127.0.0.1",
            "--runtime_server_port=1");
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  private int portOf(Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher started = STARTED.matcher(Files.readString(log));
      if (started.find()) {
        return Integer.parseInt(started.group(1));
      }
      if (!server.isAlive()) {
        break;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("Google's HttpApiServer did not start:\n" + Files.readString(log));
  }
}
