package dev.aerun.runtime.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who the developer is, over real sockets: a loopback TCP peer naming a loopback host (or a {@code
 * --dev-hosts} name); never a peer on a Unix-domain socket, never a request naming another host.
 */
class DeveloperHandlerTest {
  @TempDir Path temp;
  private Server server;
  private ServerConnector tcp;
  private UnixDomainServerConnector unix;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    tcp = new ServerConnector(server);
    tcp.setHost("127.0.0.1");
    tcp.setPort(0);
    server.addConnector(tcp);
    unix = new UnixDomainServerConnector(server, new HttpConnectionFactory());
    // Short: a Unix socket path has a small length limit.
    Path socket = Files.createTempDirectory(Path.of("/tmp"), "sec-ud").resolve("s");
    unix.setUnixDomainPath(socket);
    server.addConnector(unix);
    server.setHandler(
        new DeveloperHandler(
            DevelopmentHosts.withNames(List.of("devbox.test", "fd00::2")), new Answer()));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
    Files.deleteIfExists(unix.getUnixDomainPath());
    Files.deleteIfExists(unix.getUnixDomainPath().getParent());
  }

  /** Answers whether the request was found the developer's. */
  private static final class Answer extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      Content.Sink.write(
          response, true, "developer=" + DeveloperHandler.isDeveloper(request), callback);
      return true;
    }
  }

  private String overTcp(String head) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", tcp.getLocalPort())) {
      socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      socket.getInputStream().transferTo(out);
      return body(out.toString(StandardCharsets.ISO_8859_1));
    }
  }

  private String overUnixSocket(String head) throws IOException {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(unix.getUnixDomainPath()));
      channel.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1)));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Channels.newInputStream(channel).transferTo(out);
      return body(out.toString(StandardCharsets.ISO_8859_1));
    }
  }

  private static String body(String response) {
    return response.substring(response.indexOf("\r\n\r\n") + 4);
  }

  private static String get(String host) {
    return "GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
  }

  @Test
  void loopbackPeer_namingALoopbackHostOrADevHost_isTheDeveloper() throws Exception {
    int port = tcp.getLocalPort();
    for (String host :
        List.of(
            "localhost",
            "LOCALHOST:" + port,
            "127.0.0.1",
            "127.1.2.3:" + port,
            "[::1]",
            "[::1]:" + port,
            "devbox.test",
            "DevBox.Test:8080",
            "[fd00::2]:1")) {
      assertEquals("developer=true", overTcp(get(host)), host);
    }
  }

  @Test
  void loopbackPeer_namingAnotherHost_isNot() throws Exception {
    for (String host :
        List.of(
            "rebind.evil.example",
            "rebind.evil.example:" + tcp.getLocalPort(),
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "10.0.0.1",
            "[::2]",
            "0.0.0.0",
            "devbox.test.evil.example")) {
      assertEquals("developer=false", overTcp(get(host)), host);
    }
    assertEquals(
        "developer=false",
        overTcp(
            "GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"));
  }

  @Test
  void aPeerOnAUnixDomainSocket_isNotLoopback_whateverHostItNames() throws Exception {
    for (String host : List.of("localhost", "127.0.0.1", "[::1]", "devbox.test")) {
      assertEquals("developer=false", overUnixSocket(get(host)), host);
    }
  }
}
