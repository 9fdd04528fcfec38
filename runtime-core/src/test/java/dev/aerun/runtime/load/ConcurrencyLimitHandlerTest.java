package dev.aerun.runtime.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The limit on a real server, with an app whose {@code /block} requests wait to be released. */
class ConcurrencyLimitHandlerTest {
  private final Semaphore entered = new Semaphore(0);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostRunning = new AtomicInteger();
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private Server server;
  private ServerConnector connector;
  private ConcurrencyLimitHandler limit;

  private void start(Capacity capacity) throws Exception {
    server = new Server(capacity.newThreadPool("test"));
    server.setErrorHandler(new NoDetailsErrorHandler());
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    limit =
        new ConcurrencyLimitHandler(
            capacity,
            new Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback)
                  throws Exception {
                int now = running.incrementAndGet();
                mostRunning.accumulateAndGet(now, Math::max);
                try {
                  if (request.getHttpURI().getPath().equals("/block")) {
                    entered.release();
                    release.await(30, TimeUnit.SECONDS);
                  }
                } finally {
                  running.decrementAndGet();
                }
                response.write(
                    true, ByteBuffer.wrap("app".getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
              }
            });
    server.setHandler(limit);
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    if (server != null) {
      server.stop();
    }
  }

  private CompletableFuture<HttpResponse<String>> send(String path) {
    return client.sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + connector.getLocalPort() + path))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static Capacity capacity(int running, int queued, Duration wait) {
    return new Capacity(running, queued, wait, false);
  }

  @Test
  void beyondRunningAndQueued_fast503WithRetryAfter_andNoDetails() throws Exception {
    start(capacity(2, 1, Duration.ofSeconds(30)));
    CompletableFuture<HttpResponse<String>> first = send("/block");
    CompletableFuture<HttpResponse<String>> second = send("/block");
    assertTrue(entered.tryAcquire(2, 30, TimeUnit.SECONDS));
    CompletableFuture<HttpResponse<String>> queued = send("/block");
    // The queued one waits; it holds no thread and does not reach the app.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (limit.waitingCount() < 1 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(1, limit.waitingCount());

    HttpResponse<String> rejected = send("/other").get(30, TimeUnit.SECONDS);

    assertEquals(503, rejected.statusCode());
    assertEquals("1", rejected.headers().firstValue("Retry-After").orElse(""));
    assertFalse(rejected.body().contains("Exception"), rejected.body());
    assertFalse(queued.isDone());
    assertEquals(1, limit.rejectedCount());

    release.countDown();
    assertEquals(200, first.get(30, TimeUnit.SECONDS).statusCode());
    assertEquals(200, second.get(30, TimeUnit.SECONDS).statusCode());
    assertEquals(200, queued.get(30, TimeUnit.SECONDS).statusCode());
    assertEquals(2, mostRunning.get());
  }

  @Test
  void queuedPastTheWait_gets503WithRetryAfter() throws Exception {
    start(capacity(1, 4, Duration.ofMillis(200)));
    CompletableFuture<HttpResponse<String>> blocking = send("/block");
    assertTrue(entered.tryAcquire(1, 30, TimeUnit.SECONDS));

    HttpResponse<String> waited = send("/other").get(30, TimeUnit.SECONDS);

    assertEquals(503, waited.statusCode());
    assertEquals("1", waited.headers().firstValue("Retry-After").orElse(""));
    assertFalse(blocking.isDone());
  }

  @Test
  void queueTimeoutZero_meansNoWaiting_503AtOnceEvenWithRoomInTheQueue() throws Exception {
    start(capacity(1, 4, Duration.ZERO));
    CompletableFuture<HttpResponse<String>> blocking = send("/block");
    assertTrue(entered.tryAcquire(1, 30, TimeUnit.SECONDS));

    // A zero wait means no waiting, not "wait forever": this must be answered at once.
    HttpResponse<String> rejected = send("/other").get(30, TimeUnit.SECONDS);

    assertEquals(503, rejected.statusCode());
    assertEquals("1", rejected.headers().firstValue("Retry-After").orElse(""));
    assertEquals(0, limit.waitingCount());
    assertFalse(blocking.isDone());
    release.countDown();
    assertEquals(200, blocking.get(30, TimeUnit.SECONDS).statusCode());
  }

  @Test
  void queueTimeoutRange_theShortestWaitStillWaits_aLongOneGetsItsTurn() throws Exception {
    // 1 ms: a wait that ends (503), not "no expiry"; the long-wait case is
    // waitingRequestGetsItsTurnWhenOneCompletes.
    start(capacity(1, 4, Duration.ofMillis(1)));
    CompletableFuture<HttpResponse<String>> blocking = send("/block");
    assertTrue(entered.tryAcquire(1, 30, TimeUnit.SECONDS));

    assertEquals(503, send("/other").get(30, TimeUnit.SECONDS).statusCode());
    assertFalse(blocking.isDone());
  }

  @Test
  void waitingRequestGetsItsTurnWhenOneCompletes() throws Exception {
    start(capacity(1, 1, Duration.ofSeconds(30)));
    CompletableFuture<HttpResponse<String>> blocking = send("/block");
    assertTrue(entered.tryAcquire(1, 30, TimeUnit.SECONDS));
    CompletableFuture<HttpResponse<String>> waiting = send("/other");

    release.countDown();

    assertEquals("app", waiting.get(30, TimeUnit.SECONDS).body());
    assertEquals(200, blocking.get(30, TimeUnit.SECONDS).statusCode());
  }

  @Test
  void manyAtOnce_neverMoreThanTheLimitRun_everyOneIsAnsweredAndItRecovers() throws Exception {
    start(capacity(3, 3, Duration.ofMillis(100)));
    List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      burst.add(send("/block"));
    }
    assertTrue(entered.tryAcquire(3, 30, TimeUnit.SECONDS));
    // Everything beyond the 3 running is rejected: 3 by the wait, the rest at once.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (limit.rejectedCount() < 27 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    release.countDown();

    int ok = 0;
    int unavailable = 0;
    for (CompletableFuture<HttpResponse<String>> response : burst) {
      int status = response.get(30, TimeUnit.SECONDS).statusCode();
      if (status == 200) {
        ok++;
      } else if (status == 503) {
        unavailable++;
      }
    }
    assertEquals(3, ok);
    assertEquals(27, unavailable);
    assertEquals(3, mostRunning.get());
    assertEquals(200, send("/after").get(30, TimeUnit.SECONDS).statusCode());
  }

  @Test
  void manyWaitingAtOnce_eachGetsATurn_noneIsForgotten() throws Exception {
    // Turns given back while others join the queue: a turn missed there leaves a request waiting
    // until its 30 s are up (503).
    start(capacity(2, 200, Duration.ofSeconds(30)));
    List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      all.add(send("/quick"));
    }

    for (CompletableFuture<HttpResponse<String>> response : all) {
      assertEquals(200, response.get(60, TimeUnit.SECONDS).statusCode());
    }
    assertTrue(mostRunning.get() <= 2, "at most 2 at once: " + mostRunning.get());
    assertEquals(0, limit.waitingCount());
    assertEquals(0, limit.rejectedCount());
  }

  @Test
  void overloadIsLogged_notOncePerRejection() throws Exception {
    try (LogCapture logs = new LogCapture(ConcurrencyLimitHandler.class)) {
      start(capacity(1, 0, Duration.ZERO));
      send("/block");
      assertTrue(entered.tryAcquire(1, 30, TimeUnit.SECONDS));

      for (int i = 0; i < 5; i++) {
        assertEquals(503, send("/other").get(30, TimeUnit.SECONDS).statusCode());
      }

      assertEquals(1, logs.messages().size(), logs.all());
      assertTrue(logs.all().contains("overloaded: answered 503"), logs.all());
      assertTrue(logs.all().contains("GET /other (the queue is full)"), logs.all());
      assertTrue(logs.all().contains("at most 1 requests run at once and 0 wait"), logs.all());
    }
  }
}
