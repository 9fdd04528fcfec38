package dev.aerun.runtime.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
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
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DrainHandlerTest {
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpClient client = HttpClient.newHttpClient();
  private Server server;
  private ServerConnector connector;
  private DrainHandler drain;

  /** An app whose /block requests wait for {@link #release}; everything else answers "app". */
  private void start() throws Exception {
    server = new Server();
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    drain =
        new DrainHandler(
            new org.eclipse.jetty.server.Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback)
                  throws Exception {
                if (request.getHttpURI().getPath().equals("/block")) {
                  entered.countDown();
                  release.await(30, TimeUnit.SECONDS);
                }
                response.write(
                    true, ByteBuffer.wrap("app".getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
              }
            });
    server.setHandler(drain);
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    if (server != null) {
      server.stop();
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + connector.getLocalPort() + path))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void drain_waitsForTheRequestInFlight_andRefusesNewConnections() throws Exception {
    start();
    CompletableFuture<HttpResponse<String>> blocked =
        client.sendAsync(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/block"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertTrue(entered.await(30, TimeUnit.SECONDS));
    int port = connector.getLocalPort();
    assertEquals(1, drain.inFlightCount());

    CompletableFuture<Boolean> drained =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return drain.drain(connector, Duration.ofSeconds(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (connector.isOpen() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(drain.isDraining());
    assertFalse(connector.isOpen(), "the drain did not stop accepting");
    assertFalse(drained.isDone(), "the drain did not wait for the request");
    // The listening socket goes when its channel is closed, or, if a selector still holds it, at
    // that selector's next round: a connection a moment after the close may still get in.
    assertTrue(refusesConnections(port, deadline), "the port still accepts connections");

    release.countDown();

    assertTrue(drained.get(30, TimeUnit.SECONDS));
    assertEquals(200, blocked.get(30, TimeUnit.SECONDS).statusCode());
    assertEquals(0, drain.inFlightCount());
  }

  @Test
  void drain_pastTheGrace_logsTheRequestStillRunning() throws Exception {
    start();
    StringBuilder logged = new StringBuilder();
    Logger logger = Logger.getLogger(DrainHandler.class.getName());
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.append(record.getMessage()).append('\n');
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(capture);
    try {
      client.sendAsync(
          HttpRequest.newBuilder(
                  URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/block"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(entered.await(30, TimeUnit.SECONDS));

      assertFalse(drain.drain(connector, Duration.ofMillis(200)));

      assertTrue(logged.toString().contains("GET /block still running after"), logged.toString());
      assertTrue(logged.toString().contains("200ms grace period"), logged.toString());
    } finally {
      logger.removeHandler(capture);
    }
  }

  @Test
  void drain_withNothingInFlight_returnsAtOnce() throws Exception {
    start();

    assertTrue(drain.drain(connector, Duration.ofSeconds(30)));
    assertTrue(drain.isDraining());
  }

  @Test
  void requestsInFlight_areCountedOut_inAnyOrder_eachOnce() throws Exception {
    // The handler's own bookkeeping, without a server: requests held by the app, then completed
    // newest, oldest and middle first, one of them twice.
    List<Callback> held = new ArrayList<>();
    DrainHandler handler =
        new DrainHandler(
            new org.eclipse.jetty.server.Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                held.add(callback);
                return true;
              }
            });
    for (int i = 0; i < 5; i++) {
      assertTrue(handler.handle(null, null, Callback.NOOP));
    }
    assertEquals(5, handler.inFlightCount());

    held.get(4).succeeded();
    held.get(0).failed(new IOException("gone"));
    held.get(2).succeeded();
    held.get(2).succeeded(); // a second completion takes nothing more out
    assertEquals(2, handler.inFlightCount());
    held.get(1).succeeded();
    held.get(3).succeeded();

    assertEquals(0, handler.inFlightCount());
    assertTrue(handler.drain(null, Duration.ZERO), "nothing left in flight");
  }

  /** Whether connecting to {@code port} is refused before {@code deadline} (nanoTime). */
  private static boolean refusesConnections(int port, long deadline) throws InterruptedException {
    while (System.nanoTime() < deadline) {
      try {
        new java.net.Socket("127.0.0.1", port).close();
      } catch (ConnectException refused) {
        return true;
      } catch (IOException other) {
        // not an answer either way; try again
      }
      Thread.sleep(5);
    }
    return false;
  }
}
