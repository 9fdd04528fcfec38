package dev.aerun.runtime.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WarmupHandlerTest {
  private Server server;
  private LocalConnector connector;

  private void start(boolean warmupEnabled, Set<String> appPaths) throws Exception {
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    server.setHandler(
        new WarmupHandler(
            new org.eclipse.jetty.server.Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(appPaths.contains(request.getHttpURI().getPath()) ? 200 : 404);
                response.write(
                    true, ByteBuffer.wrap("app".getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
              }
            },
            warmupEnabled,
            appPaths::contains));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private String get(String path) throws Exception {
    return connector.getResponse(
        "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  }

  @Test
  void unmappedWarmupAndStart_areAnsweredByTheRuntime() throws Exception {
    start(true, Set.of());

    String warmup = get("/_ah/warmup");
    String start = get("/_ah/start");

    assertEquals(true, warmup.startsWith("HTTP/1.1 200"), warmup);
    assertEquals(true, warmup.endsWith("ready\n"), warmup);
    assertEquals(true, start.startsWith("HTTP/1.1 200"), start);
  }

  @Test
  void appsOwnWarmupServlet_answers() throws Exception {
    start(true, Set.of("/_ah/warmup", "/_ah/start"));

    assertEquals(true, get("/_ah/warmup").endsWith("app"));
    assertEquals(true, get("/_ah/start").endsWith("app"));
  }

  @Test
  void warmupDisabled_isAnOrdinaryPathOfTheApp() throws Exception {
    start(false, Set.of());

    String warmup = get("/_ah/warmup");

    assertEquals(true, warmup.startsWith("HTTP/1.1 404"), warmup);
    assertEquals(true, get("/_ah/start").startsWith("HTTP/1.1 200"));
  }

  @Test
  void otherPaths_goToTheApp() throws Exception {
    start(true, Set.of("/x"));

    assertEquals(true, get("/x").endsWith("app"));
    assertEquals(true, get("/_ah/other").startsWith("HTTP/1.1 404"));
  }
}
