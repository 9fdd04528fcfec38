package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.runtime.load.Capacity;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
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
}
