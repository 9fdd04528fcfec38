package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The instance's lifecycle in both modes: health, warm-up and start requests, a graceful drain on
 * SIGTERM, and an app that fails to start.
 */
class LifecycleTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static RuntimeProcess start(String app, String mode, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("--mode", mode));
    all.addAll(List.of(args));
    return runtimes.start(
        RuntimeProcess.launch(RuntimeProcess.app(app)).args(all.toArray(String[]::new)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void healthAnswersOkWithoutReachingTheApp(String mode) throws Exception {
    RuntimeProcess runtime = start("sample-ee10-app.war", mode);

    HttpResponse<String> health = Http.get(runtime.uri("/_ah/health"));

    assertEquals(200, health.statusCode());
    assertEquals("ok", health.body().trim());
    assertFalse(health.headers().firstValue("X-Sample-Filter").isPresent(), "reached the app");
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void warmupGoesToTheAppsOwnServlet_startIsAnsweredByTheRuntime(String mode) throws Exception {
    RuntimeProcess runtime = start("sample-ee10-app.war", mode);

    HttpResponse<String> warmup = Http.get(runtime.uri("/_ah/warmup"));
    HttpResponse<String> start = Http.get(runtime.uri("/_ah/start"));

    assertEquals(200, warmup.statusCode());
    assertEquals("warmed up by the app 1", warmup.body().trim());
    assertEquals(200, start.statusCode());
    assertEquals("ready", start.body().trim());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void warmupWithoutAnAppServletIsAnsweredByTheRuntime(String mode) throws Exception {
    // An app with warm-up on (the default) and no servlet of its own at /_ah/warmup.
    RuntimeProcess runtime = start("sample-logging-ee10-app.war", mode);

    HttpResponse<String> warmup = Http.get(runtime.uri("/_ah/warmup"));

    assertEquals(200, warmup.statusCode());
    assertEquals("ready", warmup.body().trim());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void sigterm_requestsInFlightAllComplete_newConnectionsRefused_exit0(String mode)
      throws Exception {
    RuntimeProcess runtime = start("sample-ee10-app.war", mode);
    HttpClient client = Http.newClient();
    List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      inFlight.add(
          client.sendAsync(
              HttpRequest.newBuilder(runtime.uri("/sleep?ms=2500"))
                  .timeout(Duration.ofSeconds(60))
                  .build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    Http.awaitSleeping(runtime, 4);
    // A connection opened before the signal: the health check on it sees the drain.
    try (Socket open = new Socket("127.0.0.1", runtime.port())) {
      runtime.sendSigterm();
      runtime.awaitOutput(Pattern.compile("SIGTERM: draining"));

      // The port closes right after that line: wait for it, within bounds.
      awaitRefused(runtime.port());
      assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", runtime.port()).close());
      String health = exchange(open, "GET /_ah/health HTTP/1.1\r\nHost: x\r\n\r\n");
      assertTrue(health.startsWith("HTTP/1.1 503"), health);
      assertTrue(health.contains("draining"), health);
    }

    for (CompletableFuture<HttpResponse<String>> request : inFlight) {
      HttpResponse<String> response = request.get(60, TimeUnit.SECONDS);
      assertEquals(200, response.statusCode(), runtime.output());
      assertEquals("slept 2500", response.body());
    }
    assertEquals(0, runtime.waitFor(60), runtime.output());
    assertTrue(runtime.output().contains("drained: every request finished"), runtime.output());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void sigterm_requestPastTheGracePeriodIsEndedAndLogged(String mode) throws Exception {
    RuntimeProcess runtime = start("sample-ee10-app.war", mode, "--shutdown-grace", "1s");
    CompletableFuture<HttpResponse<String>> slow =
        Http.newClient()
            .sendAsync(
                HttpRequest.newBuilder(runtime.uri("/sleep?ms=30000"))
                    .timeout(Duration.ofSeconds(60))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Http.awaitSleeping(runtime, 1);

    runtime.sendSigterm();

    assertEquals(0, runtime.waitFor(30), runtime.output());
    String output = runtime.output();
    assertTrue(
        Pattern.compile("GET /sleep still running after \\d+ ms at the end of the 1s grace period")
            .matcher(output)
            .find(),
        output);
    assertTrue(output.contains("stopped after the grace period"), output);
    // The client learns the request was ended: an error, or a non-200 answer.
    try {
      assertTrue(slow.get(30, TimeUnit.SECONDS).statusCode() != 200);
    } catch (java.util.concurrent.ExecutionException expected) {
      // the connection was closed
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"listener", "init"})
  void failingAppExitsNonZeroWithOneClearMessage_portNeverOpens(String failAt) throws Exception {
    for (String mode : List.of("http", "legacy")) {
      RuntimeProcess runtime =
          runtimes.start(
              RuntimeProcess.launch(RuntimeProcess.app("sample-failing-app.war"))
                  .property("sample.fail.at", failAt)
                  .args("--mode", mode));

      assertEquals(1, runtime.waitFor(60), runtime.output());
      String output = runtime.output();
      String cause =
          failAt.equals("listener")
              ? "the sample listener cannot reach its database"
              : "the sample servlet cannot load its configuration";
      assertTrue(
          output.lines().anyMatch(l -> l.startsWith("error: ") && l.contains(cause)),
          mode + ":\n" + output);
      assertFalse(output.contains("Serving "), output);
      assertFalse(output.contains("Started ServerConnector"), output);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void appThatStartsServes(String mode) throws Exception {
    RuntimeProcess runtime = start("sample-failing-app.war", mode);

    assertEquals("started", Http.get(runtime.uri("/ok")).body());
  }

  private static void awaitRefused(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Socket probe = new Socket("127.0.0.1", port)) {
        Thread.sleep(20);
      } catch (ConnectException refused) {
        return;
      }
    }
  }

  /** Writes a raw request on {@code socket} and reads the response head and a little body. */
  private static String exchange(Socket socket, String request) throws IOException {
    socket.setSoTimeout(20_000);
    OutputStream out = socket.getOutputStream();
    out.write(request.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    StringBuilder text = new StringBuilder();
    int n;
    while ((n = in.read(buffer)) > 0) {
      text.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
      if (text.indexOf("\r\n\r\n") >= 0 && text.toString().contains("draining")) {
        break;
      }
    }
    return text.toString();
  }
}
