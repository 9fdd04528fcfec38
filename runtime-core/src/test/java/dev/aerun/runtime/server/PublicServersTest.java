package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.runtime.load.Capacity;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

class PublicServersTest {
  @Test
  void newServer_hasNamedThreadsAndTheNoDetailsErrorPage() {
    Capacity capacity = new Capacity(8, 8, java.time.Duration.ofSeconds(1), false);
    Server server = PublicServers.newServer("aerun-test", capacity);
    QueuedThreadPool threads = (QueuedThreadPool) server.getThreadPool();
    assertEquals("aerun-test", threads.getName());
    assertEquals(capacity.maxThreads(), threads.getMaxThreads());
    assertInstanceOf(NoDetailsErrorHandler.class, server.getErrorHandler());
  }

  @Test
  void httpConfiguration_sendsDateButNoServerHeader_andLimitsHeaders() {
    HttpConfiguration http = PublicServers.newHttpConfiguration(RequestLimits.defaults());
    assertTrue(http.getSendDateHeader());
    assertFalse(http.getSendServerVersion());
    assertFalse(http.getSendXPoweredBy());
    assertEquals(RequestLimits.DEFAULT_REQUEST_HEADER_SIZE, http.getRequestHeaderSize());
  }

  @Test
  void startThenOpen_opensThePortAfterDeploying() throws Exception {
    Server server =
        PublicServers.newServer(
            "aerun-test", new Capacity(8, 8, java.time.Duration.ofSeconds(1), false));
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            return false;
          }
        });
    ServerConnector connector =
        PublicServers.newConnector(
            server, RequestLimits.defaults(), "127.0.0.1", 0, Duration.ofSeconds(5));
    PublicServers.startThenOpen(server, connector);
    try {
      assertTrue(connector.getLocalPort() > 0);
      assertEquals(5000, connector.getIdleTimeout());
    } finally {
      server.stop();
    }
  }

  @Test
  void startThenOpen_neverOpensThePortWhenDeploymentFails() {
    Server server =
        PublicServers.newServer(
            "aerun-test", new Capacity(8, 8, java.time.Duration.ofSeconds(1), false));
    server.setHandler(
        new Handler.Abstract() {
          @Override
          protected void doStart() {
            throw new IllegalStateException("cannot deploy");
          }

          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            return false;
          }
        });
    ServerConnector connector =
        PublicServers.newConnector(
            server, RequestLimits.defaults(), "127.0.0.1", 0, Duration.ofSeconds(5));

    assertThrows(Exception.class, () -> PublicServers.startThenOpen(server, connector));
    assertFalse(connector.isStarted());
    // Bound while the app deployed (so a port in use fails first), closed again, never accepting.
    assertEquals(-2, connector.getLocalPort());
  }
}
