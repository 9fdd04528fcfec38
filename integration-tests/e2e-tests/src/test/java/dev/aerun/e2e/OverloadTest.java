package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many times more requests than the instance takes on, in both modes: the excess gets a fast 503
 * with {@code Retry-After}, admitted requests complete, the health path stays up, memory stays
 * bounded, and the instance serves normally once the load stops.
 */
class OverloadTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static RuntimeProcess start(String mode, RuntimeProcess.Launch launch, String... args)
      throws IOException {
    List<String> all = new ArrayList<>(List.of("--mode", mode));
    all.addAll(List.of(args));
    return runtimes.start(launch.args(all.toArray(String[]::new)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void tenTimesTheLimit_excessGets503WithRetryAfter_admittedComplete_andItRecovers(String mode)
      throws Exception {
    RuntimeProcess runtime =
        start(
            mode,
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")),
            "--max-concurrent-requests",
            "2",
            "--max-queued-requests",
            "2",
            "--queue-timeout",
            "300ms");
    java.net.http.HttpClient client = Http.newClient();
    List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      burst.add(
          client.sendAsync(
              HttpRequest.newBuilder(runtime.uri("/sleep?ms=1500"))
                  .timeout(Duration.ofSeconds(60))
                  .build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    runtime.awaitOutput(Pattern.compile("overloaded: answered 503"));

    // The platform's probe is answered in front of the limit, overloaded or not.
    assertEquals(200, Http.get(runtime.uri("/_ah/health")).statusCode());

    int ok = 0;
    for (CompletableFuture<HttpResponse<String>> request : burst) {
      HttpResponse<String> response = request.get(60, TimeUnit.SECONDS);
      if (response.statusCode() == 200) {
        assertEquals("slept 1500", response.body());
        ok++;
        continue;
      }
      assertEquals(503, response.statusCode(), response.body());
      assertEquals("1", response.headers().firstValue("Retry-After").orElse(""));
      assertNoDetails(response.body());
    }
    // The 2 running complete; the 2 waiting may get their turn or time out; the rest never ran.
    assertTrue(ok >= 2 && ok <= 4, ok + " requests were served:\n" + runtime.output());
    assertEquals("Hello from EE10", Http.get(runtime.uri("/hello")).body().trim());
    assertTrue(
        runtime.output().contains("at most 2 requests run at once and 2 wait"), runtime.output());
  }

  /**
   * 120 uploads of 1 MiB at once against a 192 MiB heap and the default limit: unbounded, legacy
   * mode would buffer every body and response at once. Each upload announces itself with {@code
   * Expect: 100-continue}, as large uploads do, so a rejected one never sends its body.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void manyLargeUploadsAtOnce_everyOneAnswered_noOutOfMemory(String mode) throws Exception {
    RuntimeProcess runtime =
        start(
            mode,
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")).jvmOption("-Xmx192m"));
    byte[] body = new byte[1024 * 1024];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) i;
    }
    HttpClient jetty = new HttpClient();
    jetty.setMaxConnectionsPerDestination(200);
    jetty.start();
    try {
      List<CompletableFuture<Upload>> uploads = new ArrayList<>();
      for (int i = 0; i < 120; i++) {
        CompletableFuture<Upload> done = new CompletableFuture<>();
        uploads.add(done);
        jetty
            .POST(runtime.uri("/echo"))
            .headers(h -> h.put(HttpHeader.EXPECT, "100-continue"))
            .body(new BytesRequestContent(body))
            .timeout(120, TimeUnit.SECONDS)
            .send(
                new BufferingResponseListener(2 * body.length) {
                  @Override
                  public void onComplete(Result result) {
                    // A 503 instead of 100 Continue fails the request side (its body is never
                    // sent); only a failed response is an error here.
                    done.complete(
                        new Upload(
                            result.getResponseFailure(),
                            result.getResponse().getStatus(),
                            result.getResponse().getHeaders().get(HttpHeader.RETRY_AFTER),
                            getContent()));
                  }
                });
      }

      int ok = 0;
      int unavailable = 0;
      for (CompletableFuture<Upload> pending : uploads) {
        Upload upload = pending.get(180, TimeUnit.SECONDS);
        if (upload.failure() != null) {
          throw new AssertionError("an upload got no answer", upload.failure());
        }
        if (upload.status() == 200) {
          assertEquals(body.length, upload.content().length);
          ok++;
        } else {
          assertEquals(503, upload.status());
          assertEquals("1", upload.retryAfter());
          unavailable++;
        }
      }
      String output = runtime.output();
      assertFalse(output.contains("OutOfMemoryError"), output);
      // 192 MiB of heap: 24 run at once (one per 8 MiB), 24 more may wait.
      assertTrue(output.contains("At most 24 requests run at once and 24 wait"), output);
      assertTrue(ok >= 24, ok + " served, " + unavailable + " refused:\n" + output);
      assertEquals(120, ok + unavailable);
    } finally {
      jetty.stop();
    }
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
  }

  /** What one upload got: a response, or a failure to get one. */
  private record Upload(Throwable failure, int status, String retryAfter, byte[] content) {}

  private static void assertNoDetails(String body) {
    assertFalse(body.contains("Exception"), body);
    assertFalse(body.contains("at org."), body);
    assertFalse(body.contains("at dev."), body);
  }
}
