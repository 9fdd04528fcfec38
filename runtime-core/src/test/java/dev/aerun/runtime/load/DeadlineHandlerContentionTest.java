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
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over of the response between the app's thread and the deadline's timer, under
 * contention: the app keeps changing status and headers while the deadline passes, many times over.
 * Whoever wins, the client gets one whole, consistent response: the app's own, or a clean 504 that
 * carries nothing of the app's.
 */
class DeadlineHandlerContentionTest {
  private static final int ITERATIONS = 300;

  private final AtomicInteger completions = new AtomicInteger();
  private Server server;
  private LocalConnector connector;

  private void start(Handler app) throws Exception {
    server = new Server();
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

  @Test
  void appReturnsFalseAfterTheDeadline_onlyThe504IsWritten() throws Exception {
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.getHeaders().put("X-App", "1");
            sleepQuietly(50); // past the deadline
            return false;
          }
        });
    for (int i = 0; i < 20; i++) {
      HttpTester.Response response = exchange(5);

      assertEquals(504, response.getStatus(), response.toString());
      assertFalse(response.contains("X-App"), response.toString());
    }
    awaitCompletions(20);
  }

  @Test
  void appThrowsAfterTheDeadline_onlyThe504IsWritten() throws Exception {
    start(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            sleepQuietly(50); // past the deadline
            throw new IllegalStateException("the app broke late");
          }
        });
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
