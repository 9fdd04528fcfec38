package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static dev.aerun.e2e.BundledServices.seenBlocking;
import static dev.aerun.e2e.BundledServices.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import dev.aerun.testing.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bundled services' smoke set (a Datastore put and get, a push task dispatched to the app) on
 * the other paths: EE8 in legacy RPC mode, EE11 on Java 25, and an app on the SDK's 2.0.x line.
 */
class BundledServicesSmokeTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  static Stream<Arguments> apps() {
    return Stream.of(
        Arguments.of("sample-apis-ee8.war", "legacy", 17, "legacy RPC mode (EE8"),
        Arguments.of("sample-apis-ee11.war", "http", 25, "HttpConnector mode (EE11)"),
        Arguments.of("sample-apis-sdk2.war", "http", 17, "HttpConnector mode (EE8)"));
  }

  @ParameterizedTest(name = "{0} in {3} on Java {2}")
  @MethodSource("apps")
  void datastoreAndATask(String war, String mode, int java, String serving) throws Exception {
    Path jdk =
        Jdks.atLeast(java)
            .orElseThrow(() -> new AssertionError("no JDK " + java + " under /usr/lib/jvm"));
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war))
                .javaHome(jdk)
                .args(
                    "--development",
                    "--mode",
                    mode,
                    "--log-format",
                    "text",
                    "--api-data",
                    TempDirs.deletedAtExit("aerun-apis-smoke-").toString()));
    runtime.port();
    assertTrue(runtime.output().contains(serving), runtime.output());
    call(runtime, "put?name=smoke&value=v-smoke");
    assertEquals("v-smoke", value(call(runtime, "get?name=smoke"), "value"));
    call(runtime, "task?queue=default&id=t-smoke");
    String seen = seenBlocking(runtime, "t-smoke", Duration.ofSeconds(30));
    assertTrue(seen.contains("queue=default") && seen.contains("trustedQueue=default"), seen);
    assertEquals("deferred ran", ranDeferred(runtime));
  }

  private static String ranDeferred(RuntimeProcess runtime) throws Exception {
    call(runtime, "deferred?id=d-smoke");
    return seenBlocking(runtime, "d-smoke", Duration.ofSeconds(30));
  }
}
