package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that logging as the runtime does makes no network call, looks up no credentials and
 * creates no gRPC channel — and, as a control that the probe can see one, that the library's own
 * {@code LoggingHandler} with its stdout target does call the metadata server. Each case runs
 * {@link NoNetworkProbe} in a fresh JVM with no Google Cloud variables and {@code -verbose:class},
 * so the classes it loaded are known exactly.
 */
class NoNetworkTest {
  /**
   * Classes that exist only to reach Google Cloud: a gRPC channel, an HTTP transport, credentials,
   * the metadata server, the Logging API client.
   */
  private static final List<String> NETWORK_CLASSES =
      List.of(
          "io.grpc.ManagedChannel",
          "io.grpc.netty",
          "com.google.auth.",
          "com.google.cloud.MetadataConfig",
          "com.google.cloud.ServiceOptions",
          "com.google.cloud.logging.LoggingOptions",
          "com.google.cloud.logging.LoggingImpl",
          "com.google.api.gax.grpc",
          "com.google.api.client.http");

  @TempDir Path temp;

  @Test
  void runtimeLoggingMakesNoNetworkCallAndCreatesNoClient() throws Exception {
    String output = probe("ours");
    assertTrue(output.contains("\"message\":\"through CloudJsonHandler\""), output);
    assertTrue(output.contains("\"httpRequest\":{"), output);
    assertFalse(output.contains("network-attempt="), output);
    for (String prefix : NETWORK_CLASSES) {
      assertFalse(
          output.contains("[class,load] " + prefix), prefix + " was loaded:\n" + loaded(output));
    }
  }

  @Test
  void controlTheLibrarysOwnHandlerAsksTheMetadataServer() throws Exception {
    String output = probe("library");
    assertTrue(
        output.contains("network-attempt=http://metadata.google.internal/computeMetadata/v1/"),
        output);
  }

  private String probe(String mode) throws IOException, InterruptedException {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path log = temp.resolve(mode + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-verbose:class",
                "-cp",
                classPath,
                NoNetworkProbe.class.getName(),
                mode)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("GOOGLE_") || k.startsWith("GAE_"));
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("probe did not finish:\n" + Files.readString(log));
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), output);
    return output;
  }

  private static String loaded(String output) {
    StringBuilder classes = new StringBuilder();
    for (String line : output.split("\n")) {
      for (String prefix : NETWORK_CLASSES) {
        if (line.contains("[class,load] " + prefix)) {
          classes.append(line).append('\n');
        }
      }
    }
    return classes.toString();
  }
}
