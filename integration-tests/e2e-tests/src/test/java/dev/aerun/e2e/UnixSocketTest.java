package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Unix-domain listener ({@code --unix-socket PATH}), over a real socket with the JDK's own
 * Unix-domain client: both modes, HTTP/1.1 and h2c, the file's permissions, trust, a stale socket
 * replaced and a live one refused, the file removed at exit, and {@code --port none}.
 */
class UnixSocketTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final ObjectMapper JSON = new ObjectMapper();
  private Path directory;
  private Path socket;

  @BeforeEach
  void directory() throws IOException {
    // Short: a socket path has at most 107 bytes.
    directory = Files.createTempDirectory(Path.of("/tmp"), "proto-uds-");
    socket = directory.resolve("app.sock");
  }

  @AfterEach
  void clean() throws IOException {
    Files.deleteIfExists(socket);
    try (var files = Files.list(directory)) {
      for (Path p : files.toList()) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(directory);
  }

  private RuntimeProcess start(String... args) throws IOException {
    RuntimeProcess runtime =
        runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")).args(args));
    runtime.awaitOutput(Pattern.compile("unix:" + Pattern.quote(socket.toString())));
    return runtime;
  }

  /** Sends {@code request} on the socket and reads until the server closes. */
  private static byte[] exchange(Path socket, byte[] request) throws IOException {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(ByteBuffer.wrap(request));
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (channel.read(buffer) >= 0) {
        received.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      return received.toByteArray();
    }
  }

  private static JsonNode requestInfo(Path socket, String... headers) throws IOException {
    StringBuilder request =
        new StringBuilder("GET /request-info HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    String response =
        new String(
            exchange(socket, request.append("\r\n").toString().getBytes(StandardCharsets.UTF_8)),
            StandardCharsets.UTF_8);
    assertTrue(response.startsWith("HTTP/1.1 200 "), response);
    return JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void servesHttpBesideTheTcpPortWithNoPeerAddress(String mode) throws Exception {
    RuntimeProcess runtime = start("--mode", mode, "--unix-socket", socket.toString());
    JsonNode seen = requestInfo(socket, "X-AppEngine-User-IP: 203.0.113.9");
    // Documented: the app sees 0.0.0.0, port 0, for a peer on the socket, in both modes.
    assertEquals("0.0.0.0", seen.get("remoteAddr").asText(), seen.toString());
    assertEquals(0, seen.get("remotePort").asInt());
    // Untrusted by default: the platform header is gone.
    assertFalse(seen.get("headers").toString().contains("203.0.113.9"), seen.toString());
    // The TCP port serves too.
    assertEquals(200, Http.get(runtime.uri("/hello")).statusCode());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
  }

  @Test
  void speaksH2cWithPriorKnowledge() throws Exception {
    start("--unix-socket", socket.toString());
    byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    byte[] settings = {0, 0, 0, 4, 0, 0, 0, 0, 0};
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(ByteBuffer.wrap(preface));
      channel.write(ByteBuffer.wrap(settings));
      ByteBuffer frame = ByteBuffer.allocate(9);
      while (frame.hasRemaining() && channel.read(frame) >= 0) {
        // a frame header
      }
      assertEquals(4, frame.get(3), "the server's first frame is SETTINGS");
    }
  }

  @Test
  void trustedAsUnixGroupAccessAndRemovedAtExit() throws Exception {
    RuntimeProcess runtime =
        start(
            "--unix-socket", socket.toString(), "--unix-socket-group", "--trusted-proxies", "unix");
    assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
    JsonNode seen = requestInfo(socket, "X-AppEngine-User-IP: 203.0.113.9");
    assertEquals("203.0.113.9", seen.get("remoteAddr").asText(), seen.toString());
    assertEquals(0, runtime.stop());
    assertFalse(Files.exists(socket), "the socket file is removed at exit");
  }

  @Test
  void aStaleSocketIsReplacedALiveOneRefused() throws Exception {
    // Left by a process that died: bound, closed, the file still there.
    ServerSocketChannel stale = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    stale.bind(UnixDomainSocketAddress.of(socket));
    stale.close();
    assertTrue(Files.exists(socket));
    RuntimeProcess runtime = start("--unix-socket", socket.toString());
    requestInfo(socket);
    assertEquals(0, runtime.stop());

    try (ServerSocketChannel live = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      live.bind(UnixDomainSocketAddress.of(socket));
      RuntimeProcess refused =
          runtimes.start(
              RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                  .args("--unix-socket", socket.toString()));
      assertEquals(1, refused.waitFor(120));
      assertTrue(
          refused.output().contains("error: cannot listen on unix:" + socket), refused.output());
      assertTrue(Files.exists(socket), "the live socket was left alone");
    }
  }

  @Test
  void portNoneServesOnTheSocketOnly() throws Exception {
    RuntimeProcess runtime = start("--port", "none", "--unix-socket", socket.toString());
    assertTrue(runtime.output().contains(" at unix:" + socket), runtime.output());
    assertNotEquals(null, requestInfo(socket));
  }
}
