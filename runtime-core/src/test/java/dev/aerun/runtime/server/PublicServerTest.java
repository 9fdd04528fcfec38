package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.load.Capacity;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublicServerTest {
  private static PublicServerSpec serving(int port) {
    return new PublicServerSpec(
        "127.0.0.1",
        port,
        ContractOptions.defaults(),
        RequestLimits.defaults(),
        Duration.ofSeconds(5),
        new Capacity(8, 8, Duration.ofSeconds(1), false),
        false);
  }

  /** An app that answers nothing, and records whether the port accepted before it started. */
  private static final class App extends Handler.Abstract {
    final boolean fails;
    boolean acceptingWhileDeploying;

    App(boolean fails) {
      this.fails = fails;
    }

    @Override
    protected void doStart() throws Exception {
      acceptingWhileDeploying = getServer().getConnectors().length > 0;
      if (fails) {
        throw new IllegalStateException("cannot deploy");
      }
      super.doStart();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      return false;
    }
  }

  private static PublicServer server(App app, int port) {
    return new PublicServer("aerun-test", serving(port), new DrainHandler(app), null);
  }

  @Test
  void start_acceptsOnlyAfterDeploying() throws Exception {
    App app = new App(false);
    PublicServer server = server(app, 0);

    server.start();
    try {
      assertTrue(server.port() > 0);
      assertFalse(app.acceptingWhileDeploying);
      new Socket("127.0.0.1", server.port()).close();
    } finally {
      server.stop();
    }
  }

  @Test
  void start_failedDeployment_neverAccepts_andClosesThePort() {
    App app = new App(true);
    PublicServer server = server(app, 0);

    assertThrows(IllegalStateException.class, server::start);

    // Bound while the app deployed (so a port in use fails first), closed again, never accepting.
    assertEquals(-2, server.port());
    assertEquals(0, server.server().getConnectors().length);
  }

  @Test
  void start_portInUse_failsBeforeDeploying() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.setReuseAddress(false);
      taken.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
      App app = new App(false);
      PublicServer server = server(app, taken.getLocalPort());

      Exception failure = assertThrows(Exception.class, server::start);

      assertInstanceOf(PortUnavailableException.class, failure);
      assertFalse(app.isStarted(), "the app deployed although the port was taken");
    }
  }

  @Test
  void aRequestPathWithoutDrainHandler_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new PublicServer("aerun-test", serving(0), new App(false), null));
  }

  /** An app that answers 200 with a body. */
  private static final class Hello extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      Content.Sink.write(response, true, "hello", callback);
      return true;
    }
  }

  private static String getOverUnixSocket(Path socket) throws Exception {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(
          ByteBuffer.wrap(
              "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII)));
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(4096);
      while (channel.read(buffer) >= 0) {
        received.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      return received.toString(StandardCharsets.US_ASCII);
    }
  }

  @Test
  void unixSocket_ownerOnly_servesAndIsRemovedAtStop(@TempDir Path directory) throws Exception {
    Path socket = directory.resolve("s.sock");
    PublicServer server =
        new PublicServer(
            "aerun-test",
            serving(0)
                .withUnixSocket(new UnixSocket(socket, false))
                .withPort(PublicServerSpec.NO_PORT),
            new DrainHandler(new Hello()),
            null);
    server.start();
    try {
      assertEquals("unix:" + socket, server.endpoint());
      assertEquals(
          "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
      String response = getOverUnixSocket(socket);
      assertTrue(response.startsWith("HTTP/1.1 200 "), response);
      // Nothing left beside it: the private directory it was bound in is gone.
      try (var files = Files.list(directory)) {
        assertEquals(1, files.count());
      }
    } finally {
      server.stop();
    }
    assertFalse(Files.exists(socket));
  }

  @Test
  void unixSocket_staleIsReplaced_liveIsRefused(@TempDir Path directory) throws Exception {
    Path socket = directory.resolve("s.sock");
    ServerSocketChannel stale = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    stale.bind(UnixDomainSocketAddress.of(socket));
    stale.close();
    UnixSocket unix = new UnixSocket(socket, true);
    PublicServer server =
        new PublicServer(
            "aerun-test", serving(0).withUnixSocket(unix), new DrainHandler(new Hello()), null);
    server.start();
    try {
      assertTrue(server.endpoint().endsWith(" and unix:" + socket), server.endpoint());
      assertEquals(
          "rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
      // A second server finds the first one answering there.
      PortUnavailableException e =
          assertThrows(PortUnavailableException.class, () -> PublicServers.checkBindable(unix));
      assertTrue(e.getMessage().contains("another process answers on it"), e.getMessage());
    } finally {
      server.stop();
    }
  }
}
