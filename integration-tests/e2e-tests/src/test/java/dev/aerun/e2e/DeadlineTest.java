package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code X-AppEngine-Timeout-Ms} from the front end, in both modes: a request still running at its
 * deadline is answered 504 there and then and logged, the instance serves on, and the app's thread
 * finishes in its own time. The app sees its deadline as request attributes (see
 * HeaderContractTest).
 */
class DeadlineTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static RuntimeProcess start(String mode) throws Exception {
    return runtimes.start(
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
            .args("--mode", mode, "--trusted-proxies", "127.0.0.1"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void pastTheDeadline_504AtOnce_logged_andTheInstanceServesOn(String mode) throws Exception {
    RuntimeProcess runtime = start(mode);

    HttpResponse<String> late =
        Http.get(runtime.uri("/sleep?ms=4000"), "X-AppEngine-Timeout-Ms", "500");

    assertEquals(504, late.statusCode(), runtime.output());
    assertEquals("close", late.headers().firstValue("Connection").orElse(""));
    assertFalse(late.body().contains("Exception"), late.body());
    // Answered at the deadline, while the app still sleeps.
    assertEquals("sleeping 1", Http.get(runtime.uri("/sleep")).body().trim());
    runtime.awaitOutput(
        java.util.regex.Pattern.compile(
            "request deadline exceeded: GET /sleep ran past its 500 ms deadline; answered 504"));
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());

    // The app's request ends by itself; nothing was killed.
    Http.awaitSleeping(runtime, 0);
    assertTrue(runtime.output().contains("Serving "), runtime.output());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void withinTheDeadline_answeredNormally(String mode) throws Exception {
    RuntimeProcess runtime = start(mode);

    HttpResponse<String> quick =
        Http.get(runtime.uri("/sleep?ms=10"), "X-AppEngine-Timeout-Ms", "30000");

    assertEquals(200, quick.statusCode());
    assertEquals("slept 10", quick.body());
    assertFalse(runtime.output().contains("request deadline exceeded"), runtime.output());
  }
}
