package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.Http2Sessions;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PingFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HTTP/2 cleartext on the public port, over real sockets with Jetty's HTTP/2 client: prior
 * knowledge on by default in both modes, the HTTP/1.1 {@code Upgrade: h2c} path only with {@code
 * --h2c upgrade}, and {@code --h2c off}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class H2cTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Map<String, RuntimeProcess> byMode = new java.util.HashMap<>();
  private RuntimeProcess upgrade;
  private RuntimeProcess off;
  private HttpClient h2;
  private HTTP2Client raw;

  @BeforeAll
  void start() throws Exception {
    for (String mode : new String[] {"http", "legacy"}) {
      byMode.put(
          mode,
          runtimes.start(
              RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                  .args("--mode", mode)));
    }
    upgrade =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--h2c", "upgrade"));
    off =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")).args("--h2c", "off"));
    h2 = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
    h2.start();
    raw = new HTTP2Client();
    raw.start();
  }

  @AfterAll
  void stopClient() throws Exception {
    h2.stop();
    raw.stop();
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void priorKnowledgeSpeaksHttp2AndTheAppSeesOnlyTheProtocol(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    ContentResponse response =
        h2.newRequest(runtime.uri("/request-info?q=1"))
            .headers(h -> h.put("X-AppEngine-User-Email", "forged@example.com"))
            .timeout(30, TimeUnit.SECONDS)
            .send();
    assertEquals(200, response.getStatus());
    assertEquals(HttpVersion.HTTP_2, response.getVersion());
    JsonNode seen = JSON.readTree(response.getContent());
    assertEquals("HTTP/2.0", seen.get("protocol").asText(), seen.toString());
    assertEquals("GET", seen.get("method").asText());
    // Forged platform headers are removed over HTTP/2 too (its names arrive lower-cased).
    assertFalse(seen.get("headers").toString().toLowerCase().contains("forged"), seen.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void theAppSeesTheSameRequestOverHttp11AndHttp2(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    HttpClient http11 = new HttpClient();
    http11.start();
    try {
      JsonNode one = view(http11, runtime);
      JsonNode two = view(h2, runtime);
      assertEquals("HTTP/1.1", one.get("protocol").asText());
      assertEquals("HTTP/2.0", two.get("protocol").asText());
      for (String field :
          List.of(
              "method",
              "uri",
              "query",
              "remoteAddr",
              "scheme",
              "secure",
              "serverName",
              "serverPort",
              "bodyLength",
              "bodySha256",
              "attributes")) {
        assertEquals(one.get(field), two.get(field), field);
      }
      // The same headers, but for their letter case (HTTP/2 sends names in lower case).
      assertEquals(lowerCased(one.get("headers")), lowerCased(two.get("headers")));
    } finally {
      http11.stop();
    }
  }

  /** What {@code /request-info} saw of a POST with a query, headers and a body. */
  private static JsonNode view(HttpClient client, RuntimeProcess runtime) throws Exception {
    ContentResponse response =
        client
            .POST(runtime.uri("/request-info?a=1&b=two"))
            .headers(
                h -> {
                  h.put("X-Custom", "value");
                  h.put("X-AppEngine-Cron", "true");
                  h.put("User-Agent", "parity");
                  h.remove("Accept-Encoding");
                })
            .body(new BytesRequestContent("text/plain", "a body".getBytes()))
            .timeout(30, TimeUnit.SECONDS)
            .send();
    assertEquals(200, response.getStatus());
    return JSON.readTree(response.getContent());
  }

  private static Map<String, String> lowerCased(JsonNode headers) {
    Map<String, String> out = new java.util.TreeMap<>();
    headers
        .fields()
        .forEachRemaining(
            e -> {
              String name = e.getKey().toLowerCase(java.util.Locale.ROOT);
              // Framing and connection headers belong to the protocol, not the request.
              if (!List.of("connection", "te", "transfer-encoding").contains(name)) {
                out.put(name, e.getValue().toString());
              }
            });
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void theBodyLimitHoldsOverHttp2(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    // A raw stream: its HEADERS are seen before the reset that follows them. (Jetty's HttpClient
    // may fail the exchange on that reset before it reports the answer it already read.)
    Session session = connect(runtime, new Watched());
    CompletableFuture<Integer> status = new CompletableFuture<>();
    int length = 33 * 1024 * 1024;
    MetaData.Request post =
        new MetaData.Request(
            "POST",
            HttpURI.from(runtime.uri("/request-info").toString()),
            HttpVersion.HTTP_2,
            HttpFields.build().put("Content-Length", String.valueOf(length)));
    Stream stream =
        session
            .newStream(new HeadersFrame(post, null, false), statusTo(status))
            .get(10, TimeUnit.SECONDS);
    byte[] frame = new byte[16 * 1024];
    try {
      for (int sent = 0; sent < length && !status.isDone(); sent += frame.length) {
        stream
            .data(
                new DataFrame(
                    stream.getId(), java.nio.ByteBuffer.wrap(frame), sent + frame.length >= length))
            .get(30, TimeUnit.SECONDS);
      }
    } catch (ExecutionException resetAfterTheAnswer) {
      // Having answered, the server resets the stream (NO_ERROR) to stop the rest of the upload.
    }
    assertEquals(413, status.get(60, TimeUnit.SECONDS));
  }

  @Test
  void anUpgradeRequestIsAnsweredOverHttp11ByDefault() throws Exception {
    String answer =
        Http.raw(
            byMode.get("http").port(),
            "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n"
                + "Connection: close\r\n\r\n");
    assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
  }

  @Test
  void anUpgradeRequestSwitchesWithH2cUpgrade() throws Exception {
    String answer =
        Http.raw(
            upgrade.port(),
            "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n");
    assertTrue(answer.startsWith("HTTP/1.1 101 "), answer);
  }

  @Test
  void h2cOffRefusesPriorKnowledge() throws Exception {
    String answer = Http.raw(off.port(), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    assertFalse(answer.contains(" 200 "), answer);
    assertTrue(answer.startsWith("HTTP/1.1 4"), answer);
  }

  /** A raw HTTP/2 session to {@code runtime} that records whether the server ended it. */
  private static final class Watched implements Session.Listener {
    final CountDownLatch closed = new CountDownLatch(1);
    final CountDownLatch settings = new CountDownLatch(1);
    volatile GoAwayFrame goAway;

    @Override
    public void onSettings(Session session, SettingsFrame frame) {
      settings.countDown();
    }

    @Override
    public void onGoAway(Session session, GoAwayFrame frame) {
      goAway = frame;
    }

    @Override
    public void onClose(Session session, GoAwayFrame frame, Callback callback) {
      if (goAway == null) {
        goAway = frame;
      }
      closed.countDown();
      callback.succeeded();
    }

    @Override
    public void onFailure(Session session, Throwable failure, Callback callback) {
      closed.countDown();
      callback.succeeded();
    }
  }

  /** A stream listener that completes {@code status} with its response's status. */
  private static Stream.Listener statusTo(CompletableFuture<Integer> status) {
    return new Stream.Listener() {
      @Override
      public void onHeaders(Stream stream, HeadersFrame frame) {
        if (frame.getMetaData() instanceof MetaData.Response response) {
          status.complete(response.getStatus());
        }
      }
    };
  }

  /**
   * A stream listener that completes {@code answer} with the response's status and body, or with
   * the error code of a reset in its stead ({@code "reset N"}).
   */
  private static Stream.Listener answerTo(CompletableFuture<String> answer) {
    return new Stream.Listener() {
      private final StringBuilder body = new StringBuilder();
      private int status;

      @Override
      public void onHeaders(Stream stream, HeadersFrame frame) {
        if (frame.getMetaData() instanceof MetaData.Response response) {
          status = response.getStatus();
          if (frame.isEndStream()) {
            answer.complete(status + " ");
          } else {
            stream.demand();
          }
        }
      }

      @Override
      public void onDataAvailable(Stream stream) {
        Stream.Data data = stream.readData();
        if (data == null) {
          stream.demand();
          return;
        }
        body.append(java.nio.charset.StandardCharsets.UTF_8.decode(data.frame().getByteBuffer()));
        boolean last = data.frame().isEndStream();
        data.release();
        if (last) {
          answer.complete(status + " " + body);
        } else {
          stream.demand();
        }
      }

      @Override
      public void onReset(Stream stream, ResetFrame frame, Callback callback) {
        answer.complete("reset " + frame.getError());
        callback.succeeded();
      }

      @Override
      public void onFailure(
          Stream stream, int error, String reason, Throwable failure, Callback callback) {
        answer.complete("failed " + error + " " + reason);
        callback.succeeded();
      }
    };
  }

  private Session connect(RuntimeProcess runtime, Watched watched) throws Exception {
    return Http2Sessions.connect(
        raw, new InetSocketAddress("127.0.0.1", runtime.port()), watched, Duration.ofSeconds(30));
  }

  private static HeadersFrame get(RuntimeProcess runtime, String path) {
    MetaData.Request request =
        new MetaData.Request(
            "GET",
            HttpURI.from(runtime.uri(path).toString()),
            HttpVersion.HTTP_2,
            HttpFields.EMPTY);
    return new HeadersFrame(request, null, true);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void rapidResetClosesTheConnection(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    Watched watched = new Watched();
    Session session = connect(runtime, watched);
    // Open a stream and cancel it at once, far more often than any honest client does.
    for (int i = 0; i < 1000 && watched.closed.getCount() > 0; i++) {
      try {
        Stream stream =
            session
                .newStream(get(runtime, "/hello"), new Stream.Listener() {})
                .get(10, TimeUnit.SECONDS);
        stream.reset(
            new ResetFrame(stream.getId(), ErrorCode.CANCEL_STREAM_ERROR.code), Callback.NOOP);
      } catch (ExecutionException | java.util.concurrent.TimeoutException closedOrStalled) {
        // Closed meanwhile, or no longer taking streams: whether it closes is asserted below.
        break;
      }
    }
    assertTrue(watched.closed.await(30, TimeUnit.SECONDS), "the server kept the connection");
    // The runtime still serves everyone else.
    assertEquals(200, h2.GET(runtime.uri("/hello")).getStatus());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void aPingFloodClosesTheConnection(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    Watched watched = new Watched();
    Session session = connect(runtime, watched);
    for (int i = 0; i < 2000 && watched.closed.getCount() > 0; i++) {
      session.ping(new PingFrame(i, false), Callback.NOOP);
    }
    assertTrue(watched.closed.await(30, TimeUnit.SECONDS), "the server kept the connection");
    assertEquals(200, h2.GET(runtime.uri("/hello")).getStatus());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void sigtermSendsGoAwayAndTheStreamInFlightFinishes(String mode) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--mode", mode, "--shutdown-grace", "20s"));
    runtime.port();
    Watched watched = new Watched();
    Session session = connect(runtime, watched);
    CompletableFuture<Integer> status = new CompletableFuture<>();
    session.newStream(get(runtime, "/sleep?ms=3000"), statusTo(status)).get(10, TimeUnit.SECONDS);
    Http.awaitSleeping(runtime, 1);
    runtime.sendSigterm();
    assertEquals(200, status.get(30, TimeUnit.SECONDS));
    assertTrue(watched.closed.await(30, TimeUnit.SECONDS));
    assertTrue(watched.goAway != null, "the server said GOAWAY");
    assertEquals(0, runtime.waitFor(60));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aStreamThatNeverSendsItsBodyGets408(boolean withLength) throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--request-body-timeout", "2s"));
    runtime.port();
    Session session = connect(runtime, new Watched());
    CompletableFuture<Integer> status = new CompletableFuture<>();
    HttpFields fields =
        withLength ? HttpFields.build().put("Content-Length", "1000") : HttpFields.EMPTY;
    MetaData.Request post =
        new MetaData.Request(
            "POST",
            HttpURI.from(runtime.uri("/request-info").toString()),
            HttpVersion.HTTP_2,
            fields);
    // Headers without END_STREAM, then (without a length, one byte) nothing: the body never ends.
    Stream stream =
        session
            .newStream(new HeadersFrame(post, null, false), statusTo(status))
            .get(10, TimeUnit.SECONDS);
    if (!withLength) {
      stream.data(
          new DataFrame(stream.getId(), java.nio.ByteBuffer.wrap(new byte[] {'x'}), false),
          Callback.NOOP);
    }
    assertEquals(408, status.get(60, TimeUnit.SECONDS));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void aSettingsFloodClosesTheConnection(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    Watched watched = new Watched();
    Session session = connect(runtime, watched);
    // Each SETTINGS costs the server an acknowledgement and a reconfiguration, and no request.
    for (int i = 0; i < 2000 && watched.closed.getCount() > 0; i++) {
      session.settings(new SettingsFrame(Map.of(), false), Callback.NOOP);
    }
    assertTrue(watched.closed.await(30, TimeUnit.SECONDS), "the server kept the connection");
    assertTrue(watched.goAway != null, "the server said GOAWAY");
    assertEquals(ErrorCode.ENHANCE_YOUR_CALM_ERROR.code, watched.goAway.getError());
    assertEquals(200, h2.GET(runtime.uri("/hello")).getStatus());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void aHeaderBlockOver64KibIsRefusedWithoutA5xx(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    Watched watched = new Watched();
    Session session = connect(runtime, watched);
    assertTrue(watched.settings.await(30, TimeUnit.SECONDS));
    // Jetty's client keeps to the server's SETTINGS_MAX_HEADER_LIST_SIZE (64 KiB); this client
    // does not, as an abusive one would not.
    ((HTTP2Session) session).getGenerator().getHpackEncoder().setMaxHeaderListSize(1 << 20);
    HttpFields.Mutable fields = HttpFields.build().put("X-Big", "a".repeat(70 * 1024));
    MetaData.Request request =
        new MetaData.Request(
            "GET", HttpURI.from(runtime.uri("/hello").toString()), HttpVersion.HTTP_2, fields);
    CompletableFuture<String> answer = new CompletableFuture<>();
    session.newStream(new HeadersFrame(request, null, true), answerTo(answer));
    // Jetty's HPACK decoder refuses the block for the whole connection: GOAWAY PROTOCOL_ERROR,
    // the stream failed, never served and never a 5xx.
    String outcome = answer.get(30, TimeUnit.SECONDS);
    assertTrue(outcome.startsWith("failed "), outcome);
    assertTrue(watched.closed.await(30, TimeUnit.SECONDS), "the server kept the connection");
    assertEquals(
        ErrorCode.PROTOCOL_ERROR.code, watched.goAway.getError(), watched.goAway.toString());
    // Nothing wedged: the runtime serves everyone else.
    assertEquals(200, h2.GET(runtime.uri("/hello")).getStatus());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void trailersAfterNoBodyAreStillFiltered(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    Session session = connect(runtime, new Watched());
    MetaData.Request post =
        new MetaData.Request(
            "POST",
            HttpURI.from(runtime.uri("/request-info").toString()),
            HttpVersion.HTTP_2,
            HttpFields.EMPTY);
    CompletableFuture<String> answer = new CompletableFuture<>();
    // HEADERS without END_STREAM, then trailers that end the stream: no DATA at all.
    Stream stream =
        session
            .newStream(new HeadersFrame(post, null, false), answerTo(answer))
            .get(10, TimeUnit.SECONDS);
    HttpFields trailers =
        HttpFields.build()
            .put("X-AppEngine-User-Email", "forged@example.com")
            .put("X-Honest", "kept");
    stream.headers(
        new HeadersFrame(stream.getId(), new MetaData(HttpVersion.HTTP_2, trailers), null, true),
        Callback.NOOP);
    String seen = answer.get(30, TimeUnit.SECONDS);
    assertTrue(seen.startsWith("200 "), seen);
    JsonNode info = JSON.readTree(seen.substring(4));
    assertEquals(0, info.get("bodyLength").asInt(), seen);
    assertEquals("kept", info.get("trailers").path("x-honest").asText(), seen);
    assertFalse(seen.toLowerCase().contains("forged"), seen);
  }
}
