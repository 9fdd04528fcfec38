package dev.aerun.runtime.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.Scheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over of the response between the app's thread and the deadline's timer, under
 * contention: the app keeps changing status and headers while the deadline passes, many times over.
 * Whoever wins, the client gets one whole, consistent response: the app's own, or a clean 504 that
 * carries nothing of the app's.
 *
 * <p>The {@code *_timerLate} cases hold the deadline's timer back (a busy machine can leave its
 * thread unscheduled past the point where the app's thread acts): the outcome must not depend on
 * which thread the scheduler runs first.
 */
class DeadlineHandlerContentionTest {
  private static final int ITERATIONS = 300;

  private final AtomicInteger completions = new AtomicInteger();
  private Server server;
  private LocalConnector connector;

  private void start(Handler app) throws Exception {
    start(app, null);
  }

  /** With {@code scheduler} as the server's timer, or Jetty's own if null. */
  private void start(Handler app, Scheduler scheduler) throws Exception {
    server = new Server(new QueuedThreadPool(), scheduler, null);
    server.setErrorHandler(new NoDetailsErrorHandler());
    connector = new LocalConnector(server);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Wrapper(new DeadlineHandler(app)) {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            long millis = Long.parseLong(request.getHeaders().get("Timeout"));
            request.setAttribute(RequestAttributes.TIMEOUT_MILLIS, millis);
            request.setAttribute(
                RequestAttributes.DEADLINE_NANOS,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
            Request.addCompletionListener(request, failure -> completions.incrementAndGet());
            return super.handle(request, response, callback);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  private HttpTester.Response exchange(long timeoutMillis) throws Exception {
    String raw =
        connector.getResponse(
            "GET /app HTTP/1.1\r\nHost: test\r\nTimeout: "
                + timeoutMillis
                + "\r\nConnection: close\r\n\r\n",
            30,
            TimeUnit.SECONDS);
    assertNotNull(raw, "no response");
    assertEquals(1, raw.split("HTTP/1.1 ", -1).length - 1, "not exactly one response:\n" + raw);
    HttpTester.Response response = HttpTester.parseResponse(raw);
    assertNotNull(response, raw);
    return response;
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void appChangesTheResponseWhileTheDeadlinePasses_theClientGetsOneConsistentAnswer()
      throws Exception {
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(8);
            int i = 0;
            while (System.nanoTime() < until) {
              response.setStatus(201);
              response.getHeaders().put("X-App", "set-" + (i++ % 10));
              response.getHeaders().remove("X-Gone");
              response.getHeaders().add("X-Gone", "x");
            }
            response.write(
                true, ByteBuffer.wrap("app".getBytes(StandardCharsets.US_ASCII)), callback);
            return true;
          }
        });
    int timedOut = 0;
    for (int i = 0; i < ITERATIONS; i++) {
      HttpTester.Response response = exchange(1 + i % 12);
      if (response.getStatus() == 504) {
        timedOut++;
        assertFalse(response.contains("X-App"), "the app's header on the 504:\n" + response);
        assertFalse(response.contains("X-Gone"), "the app's header on the 504:\n" + response);
        assertTrue(response.getContent().contains("HTTP ERROR 504"), response.getContent());
      } else {
        assertEquals(201, response.getStatus(), response.toString());
        assertEquals("app", response.getContent());
        assertTrue(response.get("X-App").startsWith("set-"), response.toString());
      }
    }
    assertTrue(timedOut > 0, "the deadline never passed while the app ran");
  }

  /** An app that sets a header, sleeps past a 5 ms deadline and returns false. */
  private static Handler returnsFalseLate() {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        response.getHeaders().put("X-App", "1");
        sleepQuietly(50); // past the deadline
        return false;
      }
    };
  }

  /** An app that sleeps past a 5 ms deadline and throws. */
  private static Handler throwsLate() {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        sleepQuietly(50); // past the deadline
        throw new IllegalStateException("the app broke late");
      }
    };
  }

  @Test
  void appReturnsFalseAfterTheDeadline_onlyThe504IsWritten() throws Exception {
    start(returnsFalseLate());
    for (int i = 0; i < 20; i++) {
      HttpTester.Response response = exchange(5);

      assertEquals(504, response.getStatus(), response.toString());
      assertFalse(response.contains("X-App"), response.toString());
    }
    awaitCompletions(20);
  }

  @Test
  void appThrowsAfterTheDeadline_onlyThe504IsWritten() throws Exception {
    start(throwsLate());
    for (int i = 0; i < 20; i++) {
      HttpTester.Response response = exchange(5);

      assertEquals(504, response.getStatus(), response.toString());
    }
    awaitCompletions(20);
  }

  @Test
  void appReturnsFalseBeforeTheDeadline_jettyAnswers404() throws Exception {
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.getHeaders().put("X-App", "1");
            return false;
          }
        });

    HttpTester.Response response = exchange(30_000);

    assertEquals(404, response.getStatus(), response.toString());
    awaitCompletions(1);
  }

  @Test
  void appCompletesWithoutWriting_itsStatusAndHeadersGoOut() throws Exception {
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.setStatus(204);
            response.getHeaders().put("X-App", "1");
            callback.succeeded();
            return true;
          }
        });

    HttpTester.Response response = exchange(30_000);

    assertEquals(204, response.getStatus(), response.toString());
    assertEquals("1", response.get("X-App"));
  }

  @Test
  void appReturnsFalseAfterTheDeadline_timerLate_onlyThe504IsWritten() throws Exception {
    start(returnsFalseLate(), new StalledScheduler());

    HttpTester.Response response = exchange(5);

    assertEquals(504, response.getStatus(), response.toString());
    assertFalse(response.contains("X-App"), response.toString());
    awaitCompletions(1);
  }

  @Test
  void appThrowsAfterTheDeadline_timerLate_onlyThe504IsWritten() throws Exception {
    start(throwsLate(), new StalledScheduler());

    HttpTester.Response response = exchange(5);

    assertEquals(504, response.getStatus(), response.toString());
    awaitCompletions(1);
  }

  @Test
  void appCompletesWithoutWritingAfterTheDeadline_timerLate_onlyThe504IsWritten() throws Exception {
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.setStatus(204);
            response.getHeaders().put("X-App", "1");
            sleepQuietly(50); // past the deadline
            callback.succeeded();
            return true;
          }
        },
        new StalledScheduler());

    HttpTester.Response response = exchange(5);

    assertEquals(504, response.getStatus(), response.toString());
    assertFalse(response.contains("X-App"), response.toString());
    awaitCompletions(1);
  }

  @Test
  void appWritesFirstAfterTheDeadline_timerLate_itsWriteFailsAndOnlyThe504IsWritten()
      throws Exception {
    AtomicReference<Throwable> writeFailure = new AtomicReference<>();
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.setStatus(201);
            response.getHeaders().put("X-App", "1");
            sleepQuietly(50); // past the deadline
            response.write(
                true,
                ByteBuffer.wrap("app".getBytes(StandardCharsets.US_ASCII)),
                Callback.from(
                    callback::succeeded,
                    failure -> {
                      writeFailure.set(failure);
                      callback.failed(failure);
                    }));
            return true;
          }
        },
        new StalledScheduler());

    HttpTester.Response response = exchange(5);

    assertEquals(504, response.getStatus(), response.toString());
    assertFalse(response.contains("X-App"), response.toString());
    assertTrue(response.getContent().contains("HTTP ERROR 504"), response.getContent());
    awaitCompletions(1);
    assertTrue(writeFailure.get() instanceof EofException, String.valueOf(writeFailure.get()));
  }

  /**
   * A timer whose thread has not run yet: it takes every task and runs none while the test lasts
   * (the connector's idle timeouts included, which these short exchanges do not need).
   */
  private static final class StalledScheduler extends AbstractLifeCycle implements Scheduler {
    @Override
    public Task schedule(Runnable task, long delay, TimeUnit units) {
      return () -> false;
    }
  }

  private void awaitCompletions(int expected) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (completions.get() < expected && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    if (completions.get() < expected) {
      fail(completions.get() + " of " + expected + " requests completed");
    }
  }
}
