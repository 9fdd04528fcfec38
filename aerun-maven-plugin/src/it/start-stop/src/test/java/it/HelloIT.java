package it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/**
 * Runs against the app aerun:start serves; the port comes from the aerun.port property, the
 * Unix-domain socket's path from aerun.unixSocket (the plugin's {@code <unixSocket>}).
 */
class HelloIT {
  @Test
  void helloAnswersFromTheRealRuntime() throws Exception {
    String port = System.getProperty("aerun.port");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    assertEquals("Hello EE10 from aerun in Development", response.body());
  }

  @Test
  void helloAnswersOnTheUnixSocketToo() throws Exception {
    Path socket = Path.of(System.getProperty("aerun.unixSocket"));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(
          ByteBuffer.wrap(
              "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII)));
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (channel.read(buffer) >= 0) {
        answer.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      String text = answer.toString(StandardCharsets.UTF_8);
      assertTrue(text.startsWith("HTTP/1.1 200 "), text);
      assertTrue(text.endsWith("Hello EE10 from aerun in Development"), text);
    }
  }
}
