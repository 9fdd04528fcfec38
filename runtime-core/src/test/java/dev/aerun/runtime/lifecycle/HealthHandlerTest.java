package dev.aerun.runtime.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HealthHandlerTest {
  private final AtomicInteger appRequests = new AtomicInteger();
  private Server server;
  private LocalConnector connector;
  private DrainHandler drain;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    drain =
        new DrainHandler(
            new Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                appRequests.incrementAndGet();
                response.write(
                    true, ByteBuffer.wrap("app".getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
              }
            });
    server.setHandler(new HealthHandler(drain, drain));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private HttpTester.Response get(String path) throws Exception {
    return HttpTester.parseResponse(
        connector.getResponse("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n"));
  }

  @Test
  void health_isOkAndNeverReachesTheApp() throws Exception {
    HttpTester.Response health = get("/_ah/health");

    assertEquals(200, health.getStatus());
    assertEquals("ok\n", health.getContent());
    assertEquals("no-store", health.get("Cache-Control"));
    assertEquals(0, appRequests.get());
    assertEquals(0, drain.inFlightCount());
    assertEquals("app", get("/other").getContent());
    assertEquals(1, appRequests.get());
  }

  @Test
  void health_onceADrainBegan_is503Draining() throws Exception {
    assertTrue(drain.drain(null, Duration.ZERO));

    HttpTester.Response health = get("/_ah/health");

    assertEquals(503, health.getStatus());
    assertEquals("draining\n", health.getContent());
    assertEquals(0, appRequests.get());
  }
}
