package dev.aerun.httpconnector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.load.Capacity;
import dev.aerun.testing.RawHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Why HttpConnector mode has no {@code WaitingIsNotIdle} (legacy mode's front end has): a request
 * waiting for a turn, or for an app that answers later, outlives the connection's idle timeout
 * (which a drain cuts to a second) without it. Jetty hands an idle timeout with no read or write
 * pending to the request's failure listeners, and nothing in front of the app registers one here;
 * legacy mode's {@code FrontHandler} does (to cancel the call when its client goes away), so its
 * waits need the guard, as the last test shows.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleTimeoutTest {
  private static final Duration IDLE_TIMEOUT = Duration.ofMillis(300);

  /** Longer than the idle timeout: what each wait below lasts. */
  private static final long WAIT_MILLIS = 1000;

  private final CountDownLatch holding = new CountDownLatch(1);
  private HttpConnectorServer server;

  /** What the failure listener of /listening was told, if anything. */
  private final CompletableFuture<Throwable> failure = new CompletableFuture<>();

  /**
   * /hold keeps its thread for a while; /later answers from another thread after a while;
   * /listening waits with a failure listener, as legacy mode's front end does, until it hears of a
   * failure.
   */
  private final Handler app =
      new Handler.Abstract() {
        @Override
        public boolean handle(Request request, Response response, Callback callback)
            throws Exception {
          switch (Request.getPathInContext(request)) {
            case "/hold" -> {
              holding.countDown();
              Thread.sleep(WAIT_MILLIS);
              response.write(true, StandardCharsets.US_ASCII.encode("held"), callback);
            }
            case "/listening" ->
                // Ends when its failure listener hears of something, however late that comes.
                request.addFailureListener(
                    cause -> {
                      failure.complete(cause);
                      callback.failed(cause);
                    });
            case "/later" -> answerLater(response, callback);
            default -> response.write(true, StandardCharsets.US_ASCII.encode("quick"), callback);
          }
          return true;
        }
      };

  private static void answerLater(Response response, Callback callback) {
    new Thread(
            () -> {
              sleep(WAIT_MILLIS);
              response.write(true, StandardCharsets.US_ASCII.encode("late"), callback);
            })
        .start();
  }

  private int start(Capacity capacity) throws Exception {
    server =
        new HttpConnectorServer(
            HttpConnectorServer.Spec.defaults(app)
                .withServer(
                    s ->
                        s.withHost("127.0.0.1")
                            .withPort(0)
                            .withIdleTimeout(IDLE_TIMEOUT)
                            .withCapacity(capacity)
                            .withRequestLog(false)));
    server.start();
    // A first request loads what serving takes: on a cold, busy JVM a request can otherwise sit
    // between its parsing and its handler for longer than the short idle timeout.
    get(server.port(), "/warm-up");
    return server.port();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void requestWaitingForATurn_outlivesTheIdleTimeout() throws Exception {
    int port = start(new Capacity(1, 20, Duration.ofSeconds(30), false));
    CompletableFuture<String> held = inBackground(port, "/hold");
    assertTrue(holding.await(30, TimeUnit.SECONDS));

    // Waits about a second for the only turn, with nothing to read or write meanwhile.
    String waited = get(port, "/quick");

    assertTrue(held.get(30, TimeUnit.SECONDS).startsWith("HTTP/1.1 200 "), held.get());
    assertTrue(waited.startsWith("HTTP/1.1 200 "), waited);
    assertTrue(waited.endsWith("quick"), waited);
  }

  @Test
  void requestAnsweredLater_outlivesTheIdleTimeout() throws Exception {
    int port = start(new Capacity(4, 4, Duration.ofSeconds(1), false));

    String late = get(port, "/later");

    assertTrue(late.startsWith("HTTP/1.1 200 "), late);
    assertEquals("late", late.substring(late.indexOf("\r\n\r\n") + 4));
  }

  /** The idle timeout does fire during such a wait: a failure listener hears of it. */
  @Test
  void requestWithAFailureListener_hearsOfTheIdleTimeout() throws Exception {
    int port = start(new Capacity(4, 4, Duration.ofSeconds(1), false));

    inBackground(port, "/listening");

    assertTrue(
        failure.get(30, TimeUnit.SECONDS) instanceof TimeoutException,
        String.valueOf(failure.getNow(null)));
  }

  /** One GET on its own connection, which closes after it; the whole response as text. */
  private static String get(int port, String path) throws IOException {
    try (RawHttp connection = RawHttp.connect(port, Duration.ofSeconds(30))) {
      return connection
          .write("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
          .readToEnd();
    }
  }

  private static CompletableFuture<String> inBackground(int port, String path) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return get(port, path);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
