package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request log's default: off when output goes to a pipe or a file (a platform, whose front end
 * logs requests), on with {@code --development}, and {@code --request-log} either way. The child's
 * stdout is a file here, as on a platform. Each runtime is stopped before its output is read, so
 * every line it would write is written (the log is flushed at exit).
 */
class RequestLogTest {
  private static final String WAR = "sample-logging-ee10-app.war";

  @RegisterExtension final Runtimes runtimes = new Runtimes();

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void offByDefaultWhenOutputIsNotATerminal(String mode) throws Exception {
    String output = servedThenStopped("/log?id=default", "--mode", mode);
    assertTrue(output.contains("jul line default"), output); // the app's own lines still are
    assertFalse(output.contains("/log?id=default"), output);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void onWhenAskedFor(String mode) throws Exception {
    String output = servedThenStopped("/log?id=on", "--mode", mode, "--request-log", "on");
    assertTrue(output.contains("\"requestUrl\":\"/log?id\\u003don\""), output);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void onInDevelopment(String mode) throws Exception {
    String output = servedThenStopped("/log?id=dev", "--mode", mode, "--development");
    assertTrue(output.contains(" aerun.request - GET /log?id=dev 200 "), output);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void offInDevelopmentWhenAskedFor(String mode) throws Exception {
    String output =
        servedThenStopped(
            "/log?id=devoff", "--mode", mode, "--development", "--request-log", "off");
    assertTrue(output.contains("jul line devoff"), output);
    assertFalse(output.contains("/log?id=devoff"), output);
  }

  /** Serves one request to {@code path}, stops the runtime, and returns all it printed. */
  private String servedThenStopped(String path, String... args) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(WAR)).args(args));
    assertEquals(200, Http.get(runtime.uri(path)).statusCode(), runtime.output());
    assertEquals(0, runtime.stop(), runtime.output());
    return runtime.output();
  }
}
