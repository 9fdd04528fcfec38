package dev.aerun.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The raw client against a server on a real socket that answers with canned bytes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RawHttpTest {
  private ServerSocket server;
  private final CompletableFuture<String> received = new CompletableFuture<>();

  @AfterEach
  void closeServer() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  /**
   * Serves one connection: reads {@code requests} request heads, after each writes the next of
   * {@code answers}, then closes if {@code close}. What it read goes to {@link #received}.
   */
  private int serve(boolean close, String... answers) throws IOException {
    closeServer();
    server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread thread =
        new Thread(
            () -> {
              try (Socket socket = server.accept()) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                StringBuilder all = new StringBuilder();
                for (String answer : answers) {
                  all.append(readHead(in));
                  out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
                  out.flush();
                }
                received.complete(all.toString());
                if (!close) {
                  in.transferTo(OutputStream.nullOutputStream()); // until the client closes
                }
              } catch (IOException e) {
                received.completeExceptionally(e);
              }
            });
    thread.setDaemon(true);
    thread.start();
    return server.getLocalPort();
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void get_sendsExactlyThis_andReadsTheAnswer() throws Exception {
    int port =
        serve(true, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");

    RawResponse response = RawResponse.get(port, "/a%20b?x", "X-B: 1", "x-a: 2");

    assertEquals(
        "GET /a%20b?x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-B: 1\r\nx-a: 2\r\nConnection: close\r\n\r\n",
        received.get());
    assertEquals(200, response.status());
    assertEquals("HTTP/1.1 200 OK", response.statusLine());
    assertEquals(List.of("Content-Type: text/plain", "Content-Length: 2"), response.headers());
    assertEquals("text/plain", response.header("content-type"));
    assertNull(response.header("X-Missing"));
    assertEquals("ok", response.body());
    assertTrue(response.complete());
    assertNull(response.error());
    assertTrue(response.raw().startsWith("HTTP/1.1 200 OK\r\n") && response.raw().endsWith("ok"));
  }

  @Test
  void keepAlive_responsesAreReadOneByOne() throws Exception {
    String chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n"
            + "3\r\nabc\r\n0\r\nX-Checksum: 9\r\n\r\n";
    int port = serve(false, chunked, "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n");

    try (RawHttp connection = RawHttp.connect(port)) {
      RawResponse first =
          connection.write("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n").readResponse(false);
      RawResponse second =
          connection.write("GET /2 HTTP/1.1\r\nHost: a\r\n\r\n").readResponse(false);

      assertEquals("abc", first.body());
      assertEquals(List.of("a=1", "b=2"), first.headerValues("set-cookie"));
      assertEquals(List.of("9"), first.trailerValues("X-Checksum"));
      assertTrue(first.complete());
      assertEquals(304, second.status());
      assertEquals("", second.body());
      assertTrue(second.complete());
      assertTrue(connection.localPort() > 0);
    }
  }

  @Test
  void head_hasNoBodyWhateverItsLength() throws Exception {
    int port = serve(true, "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n");

    RawResponse response = RawResponse.send(port, "HEAD", "/hello");

    assertEquals("11", response.header("Content-Length"));
    assertEquals("", response.body());
    assertTrue(response.complete());
    assertTrue(response.raw().endsWith("\r\n\r\n"), response.raw());
  }

  @Test
  void interimAnswers_areKept_andToldAsTheyCome() throws Exception {
    int port =
        serve(
            true,
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx");
    AtomicInteger told = new AtomicInteger();
    ByteArrayOutputStream body = new ByteArrayOutputStream();

    try (RawHttp connection = RawHttp.connect(port)) {
      connection.write("POST / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n");
      RawResponse response = connection.readResponse(false, body, told::incrementAndGet);

      assertEquals(List.of("HTTP/1.1 100 Continue"), response.interim());
      assertEquals(1, told.get());
      assertEquals(201, response.status());
      assertEquals("x", body.toString(StandardCharsets.ISO_8859_1));
      assertEquals("", response.body(), "the body went to the sink");
    }
  }

  @Test
  void bodyWithoutFraming_endsWithTheConnection() throws Exception {
    int port = serve(true, "HTTP/1.0 200 OK\r\n\r\nuntil the end");

    RawResponse response = RawResponse.get(port, "/");

    assertEquals("until the end", response.body());
    assertTrue(response.complete());
  }

  @Test
  void connectionEndingEarly_givesWhatCameAndSaysHow() throws Exception {
    int port = serve(true, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");

    try (RawHttp connection = RawHttp.connect(port)) {
      RawResponse response = connection.write("GET / HTTP/1.1\r\n\r\n").readResponse(false);

      assertEquals(200, response.status());
      assertEquals("short", response.body());
      assertFalse(response.complete());
      assertEquals("closed", response.error());
    }
  }

  @Test
  void noAnswerAtAll_isClosedBeforeAResponse_andGetFails() throws Exception {
    int port = serve(true, "");
    try (RawHttp connection = RawHttp.connect(port)) {
      RawResponse response = connection.write("GET / HTTP/1.1\r\n\r\n").readResponse(false);

      assertNull(response.statusLine());
      assertEquals(-1, response.status());
      assertEquals("closed before a response", response.error());
    }

    int again = serve(true, "");
    assertThrows(AssertionError.class, () -> RawResponse.get(again, "/"));
  }

  @Test
  void notHttp_isUnparseable() throws Exception {
    int port = serve(true, "SSH-2.0-OpenSSH_9\r\n\r\n");
    try (RawHttp connection = RawHttp.connect(port)) {
      RawResponse response = connection.write("GET / HTTP/1.1\r\n\r\n").readResponse(false);

      assertTrue(response.error().startsWith("unparseable: "), response.error());
    }
  }

  @Test
  void exchange_returnsEverythingUntilTheServerCloses() throws Exception {
    int port = serve(true, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nno");

    String raw = RawHttp.exchange(port, "GARBAGE\r\n\r\n");

    assertEquals("GARBAGE\r\n\r\n", received.get());
    assertEquals("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nno", raw);
    assertEquals(400, RawResponse.parse(raw).status());
  }

  @Test
  void chunked_encodesInPiecesOfTheGivenSize() {
    assertArrayEquals(
        "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
        RawHttp.chunked("abcde".getBytes(StandardCharsets.US_ASCII), 3));
  }
}
