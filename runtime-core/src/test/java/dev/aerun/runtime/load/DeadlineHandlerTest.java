package dev.aerun.runtime.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.testing.RawHttp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deadline on a real server. A stand-in for the request contract turns a {@code Timeout: N}
 * header into the deadline attributes; the app's {@code /wait} requests wait until {@link
 * #release}, then write {@code late}, and report how that write went.
 */
class DeadlineHandlerTest {
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final BlockingQueue<Object> lateWrites = new LinkedBlockingQueue<>();
  private final AtomicInteger appCalls = new AtomicInteger();
  private final AtomicInteger completed = new AtomicInteger();
  private Server server;
  private ServerConnector connector;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    server.setErrorHandler(new NoDetailsErrorHandler());
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    Handler app =
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            appCalls.incrementAndGet();
            String path = request.getHttpURI().getPath();
            if (path.equals("/commit-then-wait")) {
              try (Blocker.Callback flushed = Blocker.callback()) {
                response.write(false, ascii("early "), flushed);
                flushed.block();
              }
            }
            if (!path.equals("/quick")) {
              entered.countDown();
              release.await(30, TimeUnit.SECONDS);
            }
            try (Blocker.Callback written = Blocker.callback()) {
              response.write(true, ascii("late"), written);
              written.block();
              lateWrites.add("written");
            } catch (IOException e) {
              lateWrites.add(e);
            }
            callback.succeeded();
            return true;
          }
        };
    Handler.Wrapper contract =
        new Handler.Wrapper(new DeadlineHandler(app)) {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            String timeout = request.getHeaders().get("Timeout");
            if (timeout != null) {
              long millis = Long.parseLong(timeout);
              request.setAttribute(RequestAttributes.TIMEOUT_MILLIS, millis);
              request.setAttribute(
                  RequestAttributes.DEADLINE_NANOS,
                  System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
            }
            Request.addCompletionListener(request, failure -> completed.incrementAndGet());
            return super.handle(request, response, callback);
          }
        };
    server.setHandler(contract);
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    server.stop();
  }

  private static ByteBuffer ascii(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
  }

  /** Sends a GET and reads the answer: up to its end, or what came before a close or reset. */
  private String exchange(String path, String... headers) throws IOException {
    StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: test\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    try (RawHttp connection = RawHttp.connect(connector.getLocalPort())) {
      return connection.write(request.append("\r\n").toString()).readResponse(false).raw();
    }
  }

  @Test
  void pastTheDeadline_clientGets504AtOnce_theAppsLaterWriteFails() throws Exception {
    try (LogCapture logs = new LogCapture(DeadlineHandler.class)) {
      String response = exchange("/wait", "Timeout: 200");

      assertTrue(response.startsWith("HTTP/1.1 504 Gateway Timeout\r\n"), response);
      assertTrue(response.contains("\r\nConnection: close\r\n"), response);
      assertFalse(response.contains("late"), response);
      assertFalse(response.contains("Exception"), response);
      assertEquals(0, entered.getCount(), "the app was not running");
      assertEquals(0, completed.get(), "the request completed while the app still ran");
      assertEquals(
          "request deadline exceeded: GET /wait ran past its 200 ms deadline; answered 504",
          logs.all());

      release.countDown();
      Object late = lateWrites.poll(30, TimeUnit.SECONDS);
      assertInstanceOf(IOException.class, late);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (completed.get() == 0 && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertEquals(1, completed.get(), "the request never completed after the app returned");
    }
  }

  @Test
  void appDoneBeforeTheDeadline_answersNormally_nothingLogged() throws Exception {
    try (LogCapture logs = new LogCapture(DeadlineHandler.class)) {
      String response = exchange("/quick", "Timeout: 30000", "Connection: close");

      assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
      assertTrue(response.endsWith("late"), response);
      assertEquals("written", lateWrites.poll(30, TimeUnit.SECONDS));
      assertTrue(logs.messages().isEmpty(), logs.all());
    }
  }

  @Test
  void committedBeforeTheDeadline_isCutShort() throws Exception {
    try (LogCapture logs = new LogCapture(DeadlineHandler.class)) {
      Thread releaser =
          new Thread(
              () -> {
                try {
                  entered.await(30, TimeUnit.SECONDS);
                  Thread.sleep(400); // past the 200 ms deadline
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                release.countDown();
              });
      releaser.start();

      String response = exchange("/commit-then-wait", "Timeout: 200");

      assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
      assertTrue(response.contains("early "), response);
      assertFalse(response.contains("late"), response);
      assertFalse(response.endsWith("0\r\n\r\n"), "the chunked body was terminated:\n" + response);
      assertInstanceOf(IOException.class, lateWrites.poll(30, TimeUnit.SECONDS));
      assertTrue(
          logs.all().contains("the response was already committed: it is cut short"), logs.all());
      releaser.join();
    }
  }

  @Test
  void deadlineAlreadyPassedOnArrival_504WithoutRunningTheApp() throws Exception {
    String response = exchange("/quick", "Timeout: 0");

    assertTrue(response.startsWith("HTTP/1.1 504 Gateway Timeout\r\n"), response);
    assertEquals(0, appCalls.get());
  }

  @Test
  void noDeadline_passesThrough() throws Exception {
    String response = exchange("/quick", "Connection: close");

    assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
    assertTrue(response.endsWith("late"), response);
    assertEquals("written", lateWrites.poll(30, TimeUnit.SECONDS));
  }
}
