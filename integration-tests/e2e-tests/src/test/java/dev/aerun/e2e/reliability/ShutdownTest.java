package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.e2e.Http;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a shutdown ends: a second signal, a request still running when the grace ends, and the
 * keep-alive connections of requests that finish during the drain.
 */
class ShutdownTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static CompletableFuture<HttpResponse<String>> sleep(RuntimeProcess runtime, int ms) {
    return Http.newClient()
        .sendAsync(
            HttpRequest.newBuilder(runtime.uri("/sleep?ms=" + ms))
                .timeout(Duration.ofSeconds(120))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The sample app's descriptor has {@code <env-variables>} the test's environment lacks, so the
   * launcher runs the runtime in a child JVM; the platform signals the launcher only.
   */
  @Test
  void secondSigtermToARelaunchingLauncher_stopsTheRuntimeAtOnce() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--log-format", "text", "--shutdown-grace", "120s"));
    runtime.port();
    assertEquals(1, ProcessHandle.of(runtime.pid()).orElseThrow().children().count(), "relaunched");
    CompletableFuture<HttpResponse<String>> slow = sleep(runtime, 90_000);
    Http.awaitSleeping(runtime, 1);

    runtime.sendSigterm();
    runtime.awaitOutput(Pattern.compile("SIGTERM: draining"));
    runtime.sendSigterm();

    // Before, the launcher passed on the first signal only: the drain went on for the whole
    // request (90 s), and this wait failed.
    assertEquals(1, runtime.waitFor(45), runtime.output());
    assertTrue(runtime.output().contains("SIGTERM again during the drain"), runtime.output());
    slow.handle((r, e) -> null).get(60, TimeUnit.SECONDS);
  }

  /**
   * A request still running when the grace period ends: its connection is closed in both modes
   * (legacy mode answered 500 and logged gRPC's stack trace), and its request-log line says what
   * the client got (HttpConnector mode logged the 503 the app's ending produced for nobody).
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void requestStillRunningAtTheEndOfTheGrace_clientGetsNoResponse_logSaysSo(String mode)
      throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .env("SAMPLE_ENV", "from-appengine-web-xml")
                .args(
                    "--mode",
                    mode,
                    "--log-format",
                    "text",
                    "--request-log",
                    "on",
                    "--shutdown-grace",
                    "1s"));
    CompletableFuture<HttpResponse<String>> slow = sleep(runtime, 30_000);
    Http.awaitSleeping(runtime, 1);

    runtime.sendSigterm();

    assertEquals(0, runtime.waitFor(60), runtime.output());
    ExecutionException noAnswer =
        assertThrows(ExecutionException.class, () -> slow.get(60, TimeUnit.SECONDS));
    assertTrue(noAnswer.getCause() instanceof java.io.IOException, noAnswer.toString());
    String output = runtime.output();
    assertTrue(
        Pattern.compile("aerun\\.request - GET /sleep\\?ms=30000 0 0 B ").matcher(output).find(),
        output);
    assertFalse(output.contains("StatusRuntimeException"), output);
  }

  /**
   * Requests in flight at SIGTERM, some running and some waiting for a turn, all complete with 200.
   * The connector's graceful shutdown cuts its connections' idle timeout to a second; legacy mode's
   * front end let that fail a request that waited for a turn longer, and answered 500.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void requestsWaitingForATurnAtSigterm_allComplete(String mode) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .env("SAMPLE_ENV", "from-appengine-web-xml")
                .args(
                    "--mode",
                    mode,
                    "--log-format",
                    "text",
                    "--shutdown-grace",
                    "60s",
                    "--max-concurrent-requests",
                    "2",
                    "--max-queued-requests",
                    "10",
                    "--queue-timeout",
                    "60s"));
    List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
    inFlight.add(sleep(runtime, 6_000));
    // The probe takes the second turn while it runs.
    Http.awaitSleeping(runtime, 1);
    inFlight.add(sleep(runtime, 6_000));
    for (int i = 0; i < 4; i++) {
      inFlight.add(sleep(runtime, 10));
    }
    // Nothing outside shows a request waiting for its turn: a generous pause lets the four reach
    // the server and queue behind the two sleeping ones.
    Thread.sleep(2_000);

    runtime.sendSigterm();
    runtime.awaitOutput(Pattern.compile("SIGTERM: draining"));

    for (CompletableFuture<HttpResponse<String>> request : inFlight) {
      HttpResponse<String> response = request.get(90, TimeUnit.SECONDS);
      assertEquals(200, response.statusCode(), response.body() + "\n" + runtime.output());
    }
    assertEquals(0, runtime.waitFor(60), runtime.output());
  }

  /**
   * A keep-alive request that finishes during the drain is answered with {@code Connection: close}
   * and its connection closed after it, so its client never sends another request on a connection
   * the server is about to close (the HTTP/1.1 race a close of a busy connection would open).
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void keepAliveRequestFinishingDuringTheDrain_getsConnectionClose(String mode) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .env("SAMPLE_ENV", "from-appengine-web-xml")
                .args("--mode", mode, "--log-format", "text", "--shutdown-grace", "60s"));
    try (Socket socket = new Socket("127.0.0.1", runtime.port())) {
      socket.setSoTimeout(60_000);
      socket
          .getOutputStream()
          .write(
              "GET /sleep?ms=8000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      Http.awaitSleeping(runtime, 1);

      runtime.sendSigterm();
      runtime.awaitOutput(Pattern.compile("SIGTERM: draining"));

      // Read to the end of the stream: the server closes the connection after the response.
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      in.transferTo(received);
      String response = received.toString(StandardCharsets.ISO_8859_1);
      String head = response.substring(0, Math.max(0, response.indexOf("\r\n\r\n")));
      assertTrue(head.startsWith("HTTP/1.1 200 "), response + "\n" + runtime.output());
      assertTrue(
          head.toLowerCase(Locale.ROOT).contains("\r\nconnection: close"),
          response + "\n" + runtime.output());
      assertTrue(response.endsWith("slept 8000"), response);
    }
    assertEquals(0, runtime.waitFor(60), runtime.output());
  }
}
