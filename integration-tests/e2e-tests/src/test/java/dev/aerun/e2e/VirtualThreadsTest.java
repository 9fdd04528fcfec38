package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code appengine.use.virtualthreads=true}: requests run on virtual threads on Java 21 and later
 * (here the newest JDK of the machine, see {@link Jdks}), in both modes and still within the
 * concurrency limit, on EE8 and EE10 alike; on Java 17 the runtime says they are unavailable and
 * uses platform threads.
 */
class VirtualThreadsTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static RuntimeProcess start(
      Path javaHome, String war, String mode, boolean virtualThreads) throws Exception {
    RuntimeProcess.Launch launch =
        RuntimeProcess.launch(RuntimeProcess.app(war))
            .javaHome(javaHome)
            .args("--log-format", "text", "--mode", mode, "--max-concurrent-requests", "3");
    if (virtualThreads) {
      launch.property("appengine.use.virtualthreads", "true");
    }
    return runtimes.start(launch);
  }

  @ParameterizedTest
  @CsvSource({
    "sample-ee10-app.war, http",
    "sample-ee10-app.war, legacy",
    "sample-ee8-app.war, http",
    "sample-ee8-app.war, legacy"
  })
  void onJava21OrLater_requestsRunOnVirtualThreads_withinTheLimit(String war, String mode)
      throws Exception {
    Optional<Path> jdk = Jdks.atLeast(21);
    assumeTrue(
        jdk.isPresent(),
        "no JDK 21 or later on this machine (give one with -Daerun.test.jdk21=<java home>)");
    RuntimeProcess runtime = start(jdk.get(), war, mode, true);

    assertEquals("virtual=true", Http.get(runtime.uri("/thread")).body(), runtime.output());
    assertTrue(
        runtime
            .output()
            .contains(
                "At most 3 requests run at once and 3 wait for a turn (up to 1s),"
                    + " on virtual threads"),
        runtime.output());
  }

  @ParameterizedTest
  @CsvSource({"sample-ee10-app.war, http", "sample-ee8-app.war, legacy"})
  void withoutTheProperty_platformThreads(String war, String mode) throws Exception {
    Path current = Path.of(System.getProperty("java.home"));
    RuntimeProcess runtime = start(current, war, mode, false);

    assertEquals("virtual=false", Http.get(runtime.uri("/thread")).body(), runtime.output());
  }

  @Test
  void onJava17_saysTheyAreUnavailable_andUsesPlatformThreads() throws Exception {
    Path current = Path.of(System.getProperty("java.home"));
    assumeTrue(
        Runtime.version().feature() < 21, "the tests run on Java " + Runtime.version().feature());
    RuntimeProcess runtime = start(current, "sample-ee10-app.war", "http", true);

    assertEquals("virtual=false", Http.get(runtime.uri("/thread")).body(), runtime.output());
    assertTrue(
        runtime
            .output()
            .contains(
                "appengine.use.virtualthreads=true, but virtual threads need Java 21 or later"
                    + " (this is Java "
                    + Runtime.version().feature()
                    + "): requests run on platform threads"),
        runtime.output());
  }
}
