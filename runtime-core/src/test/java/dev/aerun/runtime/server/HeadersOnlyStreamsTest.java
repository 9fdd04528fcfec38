package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.Http2Sessions;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HeadersOnlyStreams} over a real h2c port: only a stream whose {@code HEADERS} frame ended
 * it counts as bodiless; a stream with a body, or with trailers and no body, and HTTP/1.1 do not.
 */
class HeadersOnlyStreamsTest {
  private final BlockingQueue<Boolean> seen = new LinkedBlockingQueue<>();
  private Server server;
  private HTTP2Client client;
  private Session session;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    ServerConnector connector =
        new ServerConnector(
            server, new HttpConnectionFactory(http), new H2cConnectionFactory(http, false));
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            seen.add(HeadersOnlyStreams.endedWithHeaders(request));
            // Read the whole body (and trailers) before answering.
            Content.Source.consumeAll(request, callback);
            return true;
          }
        });
    server.start();
    client = new HTTP2Client();
    client.start();
    session =
        Http2Sessions.connect(
            client,
            new InetSocketAddress("127.0.0.1", connector.getLocalPort()),
            new Session.Listener() {},
            Duration.ofSeconds(10));
  }

  @AfterEach
  void stop() throws Exception {
    client.stop();
    server.stop();
  }

  private MetaData.Request request(String method) {
    return new MetaData.Request(
        method,
        HttpURI.from("http://127.0.0.1:" + server.getURI().getPort() + "/"),
        HttpVersion.HTTP_2,
        HttpFields.EMPTY);
  }

  private static Stream.Listener answered(CompletableFuture<Integer> status) {
    return new Stream.Listener() {
      @Override
      public void onHeaders(Stream stream, HeadersFrame frame) {
        if (frame.getMetaData() instanceof MetaData.Response response) {
          status.complete(response.getStatus());
        }
      }
    };
  }

  @Test
  void aGetEndedByItsHeadersIsBodiless() throws Exception {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    session.newStream(new HeadersFrame(request("GET"), null, true), answered(status));
    assertEquals(Boolean.TRUE, seen.poll(10, TimeUnit.SECONDS));
    assertEquals(200, status.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aStreamWithABodyIsNot() throws Exception {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    Stream stream =
        session
            .newStream(new HeadersFrame(request("POST"), null, false), answered(status))
            .get(10, TimeUnit.SECONDS);
    stream.data(new DataFrame(stream.getId(), ByteBuffer.wrap(new byte[] {1}), true));
    assertEquals(Boolean.FALSE, seen.poll(10, TimeUnit.SECONDS));
    assertEquals(200, status.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aStreamEndedByTrailersIsNot() throws Exception {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    Stream stream =
        session
            .newStream(new HeadersFrame(request("POST"), null, false), answered(status))
            .get(10, TimeUnit.SECONDS);
    HttpFields trailers = HttpFields.build().put("X-Trailer", "1");
    stream.headers(
        new HeadersFrame(stream.getId(), new MetaData(HttpVersion.HTTP_2, trailers), null, true));
    assertEquals(Boolean.FALSE, seen.poll(10, TimeUnit.SECONDS));
    assertEquals(200, status.get(10, TimeUnit.SECONDS));
  }

  @Test
  void http11IsNot() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.getURI().getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
    }
    assertEquals(Boolean.FALSE, seen.poll(10, TimeUnit.SECONDS));
  }
}
