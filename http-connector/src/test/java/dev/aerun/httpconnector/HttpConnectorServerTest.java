package dev.aerun.httpconnector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.testing.RawHttp;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpConnectorServerTest {
  private static final int MIB = 1024 * 1024;

  /** /echo streams the body back; /count reads it all, then answers how many bytes came. */
  static final class TestApp extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      switch (Request.getPathInContext(request)) {
        case "/echo" -> Content.copy(request, response, callback);
        case "/count" -> countThenAnswer(request, response, callback, 0);
        default -> {
          return false;
        }
      }
      return true;
    }

    private static void countThenAnswer(
        Request request, Response response, Callback callback, long countSoFar) {
      long count = countSoFar;
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          long seen = count;
          request.demand(() -> countThenAnswer(request, response, callback, seen));
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          callback.failed(chunk.getFailure());
          return;
        }
        count += chunk.remaining();
        chunk.release();
        if (chunk.isLast()) {
          Content.Sink.write(response, true, Long.toString(count), callback);
          return;
        }
      }
    }
  }

  private HttpConnectorServer server;
  private HttpClient client;

  @BeforeEach
  void start() throws Exception {
    server =
        new HttpConnectorServer(
            HttpConnectorServer.Spec.defaults(new TestApp())
                .withServer(
                    s ->
                        s.withHost("127.0.0.1")
                            .withPort(0)
                            .withContract(new ContractOptions(TrustPolicy.trustNone(), false))));
    server.start();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  @Test
  void start_bindsAnEphemeralPort() {
    assertNotEquals(0, server.port());
    assertNotEquals(-1, server.port());
  }

  @Test
  void echo_fiveMebibytesStreamBackIntact() throws Exception {
    byte[] body = new byte[5 * MIB];
    new Random(7).nextBytes(body);

    HttpResponse<byte[]> response =
        client.send(
            HttpRequest.newBuilder(uri("/echo"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());

    assertEquals(200, response.statusCode());
    assertArrayEquals(body, response.body());
  }

  @Test
  void streamedUploadOverLimit_gets413() throws Exception {
    byte[] body = new byte[33 * MIB];

    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(uri("/count"))
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertEquals(413, response.statusCode());
    assertFalse(response.body().contains("too large:"), response.body());
  }

  @Test
  void contentLengthOverLimit_gets413BeforeBodyIsSent() throws Exception {
    // A raw socket: the JDK 17 HttpClient hangs on a final status in answer to Expect:
    // 100-continue.
    try (RawHttp connection = RawHttp.connect(server.port())) {
      String statusLine =
          connection
              .write(
                  "POST /count HTTP/1.1\r\nHost: a\r\nContent-Length: " + (33 * MIB) + "\r\n\r\n")
              .readResponse(false)
              .statusLine();

      assertEquals("HTTP/1.1 413 Payload Too Large", statusLine);
    }
  }

  @Test
  void responses_carryNoServerVersion() throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(uri("/count"))
                .POST(HttpRequest.BodyPublishers.ofString("abc"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertEquals("3", response.body());
    assertFalse(response.headers().firstValue("Server").isPresent());
    assertFalse(response.headers().firstValue("Date").isEmpty());
  }

  @Test
  void failingDeployment_neverOpensThePort() throws Exception {
    Handler failing =
        new Handler.Abstract() {
          @Override
          protected void doStart() throws Exception {
            throw new IllegalStateException("deployment failed");
          }

          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            return false;
          }
        };
    HttpConnectorServer broken =
        new HttpConnectorServer(
            HttpConnectorServer.Spec.defaults(failing)
                .withServer(s -> s.withHost("127.0.0.1").withPort(0)));

    Exception thrown = assertThrows(Exception.class, broken::start);

    assertTrue(thrown.getMessage().contains("deployment failed"), thrown.toString());
    assertEquals(0, broken.server().getConnectors().length);
    // Bound while the app deployed (so a port in use fails first), closed again, never accepting.
    assertTrue(broken.port() < 0, "port " + broken.port());
  }

  @Test
  void jettyVersion_isTwelve() {
    assertEquals("12", HttpConnectorServer.jettyVersion().split("\\.")[0]);
  }
}
