package dev.aerun.rpc.front;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.proto.AppLogLine;
import dev.aerun.rpc.proto.HttpHeader;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RawResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.jetty.http.DateParser;
import org.eclipse.jetty.http.HttpStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The front end against a fake runtime on an in-process gRPC server, over real sockets. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FrontHandlerTest {
  private static final AppEnvironment ENVIRONMENT =
      new AppEnvironment("s~demo", "v7", "web", "aerun/test", false);
  private static final int LIMIT = 64 * 1024;

  private final FakeRuntime runtime = new FakeRuntime();
  private Server grpcServer;
  private LegacyRpcServer front;

  private int start(TrustPolicy trust) throws Exception {
    return start(trust, new RequestLimits(LIMIT, LIMIT, false, 64 * 1024));
  }

  private int start(TrustPolicy trust, RequestLimits limits) throws Exception {
    return start(trust, limits, Duration.ofSeconds(30));
  }

  private int start(TrustPolicy trust, RequestLimits limits, Duration idleTimeout)
      throws Exception {
    return start(trust, limits, idleTimeout, new Capacity(20, 20, Duration.ofSeconds(1), false));
  }

  private int start(
      TrustPolicy trust, RequestLimits limits, Duration idleTimeout, Capacity capacity)
      throws Exception {
    String name = InProcessServerBuilder.generateName();
    grpcServer =
        InProcessServerBuilder.forName(name).directExecutor().addService(runtime).build().start();
    front =
        LegacyRpcServer.frontEnd(
            new LegacyRpcServer.Front(
                new PublicServerSpec(
                    "127.0.0.1",
                    0,
                    new ContractOptions(trust, false).withForwardedFrom(forwardedFrom),
                    limits,
                    idleTimeout,
                    capacity),
                ENVIRONMENT),
            RpcTransport.inProcess(name),
            new BodyMemory(1L << 30));
    front.start();
    return front.port();
  }

  /** Peers trusted for the forwarding headers only, in the front end {@link #start} starts. */
  private TrustPolicy forwardedFrom = TrustPolicy.trustNone();

  @AfterEach
  void stop() throws Exception {
    if (front != null) {
      front.stop();
    }
    if (grpcServer != null) {
      grpcServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** A GET's head for {@link #send}: {@code Host: front.test}, {@code headers}, and close. */
  private static String getHead(String path, String... headers) {
    StringBuilder head = new StringBuilder("GET " + path + " HTTP/1.1\nHost: front.test\n");
    for (String header : headers) {
      head.append(header).append('\n');
    }
    return head.append("Connection: close\n").toString();
  }

  /** {@code GET path} on a fresh connection ({@link #getHead}). */
  private static RawResponse get(int port, String path, String... headers) throws IOException {
    return send(port, getHead(path, headers), null);
  }

  /** Sends the head (its lines ended by CRLFs) and body on a fresh connection; reads the answer. */
  private static RawResponse send(int port, String head, byte[] body) throws IOException {
    try (RawHttp connection = RawHttp.connect(port)) {
      return send(connection, head, body);
    }
  }

  private static RawResponse send(RawHttp connection, String head, byte[] body) throws IOException {
    connection.write(head.replace("\n", "\r\n") + "\r\n");
    if (body != null) {
      connection.write(body);
    }
    return connection.readResponse(head.startsWith("HEAD "));
  }

  /**
   * An answer of the runtime's: {@code status}, {@code body} (null for none) and header fields
   * given as name, value, name, value...
   */
  private static UPResponse answer(int status, String body, String... namesAndValues) {
    UPResponse.Builder answer = UPResponse.newBuilder().setHttpStatus(status);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      answer.addHeaders(FakeRuntime.header(namesAndValues[i], namesAndValues[i + 1]));
    }
    if (body != null) {
      answer.setBody(ByteString.copyFromUtf8(body));
    }
    return answer.build();
  }

  /** Header or trailer fields as {@code Name: value} lines. */
  private static List<String> lines(List<HttpHeader> fields) {
    return fields.stream().map(h -> h.getName() + ": " + h.getValue()).toList();
  }

  @Test
  void untrustedCaller_platformHeadersRemovedAndPeerIsTheClient() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawResponse response;
    int clientPort;
    try (RawHttp connection = RawHttp.connect(port)) {
      response =
          send(
              connection,
              getHead(
                  "/path/a%20b?q=x%2Fy&r",
                  "X-AppEngine-User-IP: 203.0.113.9",
                  "X-AppEngine-Cron: true",
                  "X-AppEngine-User-Email: mallory@example.com",
                  "X-Forwarded-For: 198.51.100.1",
                  "X-Custom: kept"),
              null);
      clientPort = connection.localPort();
    }
    UPRequest up = runtime.nextRequest();
    HttpRequest http = up.getRequest();

    assertEquals(200, response.status());
    assertEquals("hello", response.body());
    assertEquals("GET", http.getMethod());
    assertEquals("http://front.test/path/a%20b?q=x%2Fy&r", http.getUrl());
    assertEquals("HTTP/1.1", http.getHttpVersion());
    assertEquals(
        List.of("Host: front.test", "X-Custom: kept", "Connection: close"),
        lines(http.getHeadersList()));
    assertEquals("127.0.0.1", http.getUserIp());
    assertEquals(clientPort, http.getUserPort());
    assertEquals("127.0.0.1", http.getLocalAddress());
    assertEquals(port, http.getLocalPort());
    assertFalse(http.getTrusted());
    assertFalse(http.getIsHttps());
    assertFalse(http.getChunked());
    assertFalse(http.getBodyOverLimit());
    assertTrue(http.getBody().isEmpty());
    assertFalse(up.hasUser());
    assertFalse(up.hasTask());
    assertFalse(up.hasTrace());
    assertEquals(0, up.getTimeoutMillis());
    assertEquals("s~demo", up.getAppId());
    assertEquals("v7", up.getVersionId());
    assertEquals("web", up.getServiceId());
  }

  @Test
  void trustedCaller_requestFieldsComeFromPlatformHeaders() throws Exception {
    int port = start(TrustPolicy.parse("127.0.0.1"));

    get(
        port,
        "/task",
        "X-AppEngine-User-IP: 203.0.113.9",
        "X-AppEngine-Https: on",
        "X-AppEngine-Request-Log-Id: log-1",
        "X-AppEngine-Default-Version-Hostname: demo.appspot.com",
        "X-AppEngine-Timeout-Ms: 60000",
        "X-AppEngine-User-Email: ada@example.com",
        "X-AppEngine-User-Id: 42",
        "X-AppEngine-User-Is-Admin: 1",
        "X-AppEngine-QueueName: default",
        "X-AppEngine-TaskName: t1",
        "X-AppEngine-TaskRetryCount: 2",
        "X-AppEngine-Cron: true",
        "X-Cloud-Trace-Context: 0123456789abcdef0123456789abcdef/5;o=1");
    UPRequest up = runtime.nextRequest();
    HttpRequest http = up.getRequest();

    assertTrue(http.getTrusted());
    assertEquals("203.0.113.9", http.getUserIp());
    assertEquals(0, http.getUserPort());
    assertTrue(http.getIsHttps());
    assertTrue(http.getUrl().startsWith("http://front.test/task"), http.getUrl());
    assertEquals("log-1", up.getRequestLogId());
    assertEquals("demo.appspot.com", up.getDefaultVersionHostname());
    assertEquals(60000, up.getTimeoutMillis());
    assertEquals("ada@example.com", up.getUser().getEmail());
    assertEquals("42", up.getUser().getId());
    assertTrue(up.getUser().getIsAdmin());
    assertEquals("default", up.getTask().getQueueName());
    assertEquals("t1", up.getTask().getTaskName());
    assertEquals(2, up.getTask().getRetryCount());
    assertTrue(up.getTask().getCron());
    assertEquals("0123456789abcdef0123456789abcdef", up.getTrace().getTraceId());
    assertEquals("0000000000000005", up.getTrace().getSpanId());
    assertTrue(up.getTrace().getSampled());
    // Private headers are hidden; task, cron and trace headers stay visible.
    assertEquals(
        List.of(
            "Host: front.test",
            "X-AppEngine-QueueName: default",
            "X-AppEngine-TaskName: t1",
            "X-AppEngine-TaskRetryCount: 2",
            "X-AppEngine-Cron: true",
            "X-Cloud-Trace-Context: 0123456789abcdef0123456789abcdef/5;o=1",
            "Connection: close"),
        lines(http.getHeadersList()));
  }

  @Test
  void headers_keepOrderRepeatsAndNames() throws Exception {
    int port = start(TrustPolicy.trustNone());

    get(port, "/", "X-B: 1", "x-a: 2", "X-B: 3");

    assertEquals(
        List.of("Host: front.test", "X-B: 1", "x-a: 2", "X-B: 3", "Connection: close"),
        lines(runtime.nextRequest().getRequest().getHeadersList()));
  }

  @Test
  void contentLengthBody_isBufferedWhole() throws Exception {
    int port = start(TrustPolicy.trustNone());
    byte[] body = new byte[LIMIT];
    new Random(1).nextBytes(body);

    RawResponse response =
        send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nContent-Length: "
                + body.length
                + "\nConnection: close\n",
            body);
    HttpRequest http = runtime.nextRequest().getRequest();

    assertEquals(200, response.status());
    assertArrayEquals(body, http.getBody().toByteArray());
    assertFalse(http.getChunked());
    assertFalse(http.getBodyOverLimit());
  }

  @Test
  void chunkedBody_isBufferedWholeAndFlaggedChunked() throws Exception {
    int port = start(TrustPolicy.trustNone());
    byte[] body = new byte[40_000];
    new Random(2).nextBytes(body);

    send(
        port,
        "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nConnection: close\n",
        RawHttp.chunked(body, 1000));
    HttpRequest http = runtime.nextRequest().getRequest();

    assertArrayEquals(body, http.getBody().toByteArray());
    assertTrue(http.getChunked());
    assertFalse(http.getBodyOverLimit());
  }

  private static final String FORGED_TRAILERS =
      "0\r\nX-AppEngine-Cron: true\r\nX-AppEngine-User-Email: evil@example.com\r\n"
          + "X-Forwarded-For: 198.51.100.1\r\nForwarded: for=198.51.100.1\r\n"
          + "X-Google-Internal-Skip: 1\r\nX-Checksum: abc123\r\n\r\n";

  private HttpRequest postWithTrailers(TrustPolicy trust) throws Exception {
    int port = start(trust);
    send(
        port,
        "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nConnection: close\n",
        ("3\r\nabc\r\n" + FORGED_TRAILERS).getBytes(StandardCharsets.US_ASCII));
    return runtime.nextRequest().getRequest();
  }

  @Test
  void trailersFromAnUntrustedCaller_platformFieldsRemoved_othersSent() throws Exception {
    HttpRequest http = postWithTrailers(TrustPolicy.trustNone());

    assertEquals("abc", http.getBody().toStringUtf8());
    assertEquals(List.of("X-Checksum: abc123"), lines(http.getTrailersList()));
  }

  /**
   * A front end trusted for forwarding headers only: the runtime gets the scheme and the client's
   * address the way the protocol carries them ({@code is_https}, {@code user_ip}/{@code
   * user_port}), the forwarding headers, and none of the client's {@code X-AppEngine-*}.
   */
  @Test
  void forwardingOnlyPeer_schemeAndClientTravelAsTheProtocolsOwnFields() throws Exception {
    forwardedFrom = TrustPolicy.parseForwarders("127.0.0.1");
    int port = start(TrustPolicy.trustNone());

    RawResponse response =
        get(
            port,
            "/secure",
            "X-Forwarded-For: 192.0.2.99, 198.51.100.7:4711",
            "X-Forwarded-Proto: https",
            "X-AppEngine-User-Email: mallory@example.com",
            "X-AppEngine-Cron: true",
            "X-AppEngine-User-IP: 203.0.113.9");
    UPRequest up = runtime.nextRequest();
    HttpRequest http = up.getRequest();

    assertEquals(200, response.status());
    assertTrue(http.getIsHttps());
    assertEquals("198.51.100.7", http.getUserIp());
    assertEquals(4711, http.getUserPort());
    assertFalse(http.getTrusted());
    assertFalse(up.hasUser());
    assertFalse(up.hasTask());
    assertEquals(
        List.of(
            "Host: front.test",
            "X-Forwarded-For: 192.0.2.99, 198.51.100.7:4711",
            "X-Forwarded-Proto: https",
            "Connection: close"),
        lines(http.getHeadersList()));
  }

  @Test
  void trailersFromATrustedCaller_followTheHeaderRule() throws Exception {
    HttpRequest http = postWithTrailers(TrustPolicy.trustAll());

    assertEquals(
        List.of(
            "X-AppEngine-Cron: true",
            "X-Forwarded-For: 198.51.100.1",
            "Forwarded: for=198.51.100.1",
            "X-Checksum: abc123"),
        lines(http.getTrailersList()));
  }

  @Test
  void contentLengthOverLimit_gets413WithoutReachingTheRuntime() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawResponse response =
        send(port, "POST /upload HTTP/1.1\nHost: a\nContent-Length: " + (LIMIT + 1) + "\n", null);

    assertEquals(413, response.status());
    assertFalse(runtime.receivedAny());
  }

  @Test
  void chunkedBodyOverLimit_isCutAtTheLimitAndFlagged() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setError(UPResponse.Error.BAD_REQUEST)
            .setHttpStatus(413)
            .setErrorMessage("request body too large")
            .build());
    byte[] body = new byte[3 * LIMIT];
    new Random(3).nextBytes(body);

    RawResponse response =
        send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            RawHttp.chunked(body, 4096));
    HttpRequest http = runtime.nextRequest().getRequest();

    assertEquals(LIMIT, http.getBody().size());
    assertArrayEquals(java.util.Arrays.copyOf(body, LIMIT), http.getBody().toByteArray());
    assertTrue(http.getBodyOverLimit());
    assertTrue(http.getChunked());
    assertEquals(413, response.status());
  }

  /** The app's answer closes the connection when the front end cut the body, and only then. */
  @ParameterizedTest(name = "{0} bytes in chunks of {1}: Connection {2}")
  @CsvSource({"196608, 4096, close", "100, 40, "})
  void appResponseToAChunkedBody_closesTheConnectionOnlyIfTheBodyWasCut(
      int size, int chunk, String connection) throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(answer(200, "did not read", "X-App", "1"));

    RawResponse response =
        send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            RawHttp.chunked(new byte[size], chunk));

    assertEquals(200, response.status());
    assertEquals(connection, response.header("Connection"));
  }

  @Test
  void asteriskForm_travelsAsTheAuthorityFollowedByAnAsterisk() throws Exception {
    int port = start(TrustPolicy.trustNone());

    send(port, "OPTIONS * HTTP/1.1\nHost: front.test:8080\nConnection: close\n", null);

    assertEquals("http://front.test:8080*", runtime.nextRequest().getRequest().getUrl());
  }

  @Test
  void malformedChunking_isSentAsFarAsReadWithItsStatus() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(answer(400, "the app's own error page"));

    RawResponse response =
        send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            "3\r\nabc\r\nzz\r\nmore\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    HttpRequest http = runtime.nextRequest().getRequest();

    assertEquals("abc", http.getBody().toStringUtf8());
    assertEquals(400, http.getBodyErrorStatus());
    assertFalse(http.getBodyOverLimit());
    assertEquals(400, response.status());
    assertEquals("the app's own error page", response.body());
    assertEquals("close", response.header("Connection"));
  }

  @Test
  void appResponseWithoutDate_getsTheFrontsOwn() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(FakeRuntime.ok(200, "no date"));

    RawResponse response = get(port, "/");

    assertEquals(200, response.status());
    assertEquals(1, response.headerValues("Date").size());
    assertTrue(DateParser.parseDate(response.header("Date")) > 0, response.header("Date"));
  }

  @Test
  void appResponse_statusHeadersInOrderAndBody_withTheRuntimesDate() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        answer(
            201,
            "created",
            "X-Z",
            "1",
            "Date",
            "Thu, 01 Jan 1970 00:00:00 GMT",
            "Set-Cookie",
            "a=1",
            "X-A",
            "2",
            "Set-Cookie",
            "b=2"));

    RawResponse response = get(port, "/");

    assertEquals(201, response.status());
    assertEquals("created", response.body());
    assertEquals("7", response.header("Content-Length"));
    assertEquals(List.of("Thu, 01 Jan 1970 00:00:00 GMT"), response.headerValues("Date"));
    assertEquals(List.of("a=1", "b=2"), response.headerValues("Set-Cookie"));
    assertTrue(
        response.raw().indexOf("X-Z: 1") < response.raw().indexOf("Set-Cookie: a=1")
            && response.raw().indexOf("Set-Cookie: a=1") < response.raw().indexOf("X-A: 2"),
        response.raw());
    assertNull(response.header("Server"));
  }

  @Test
  void chunkedResponse_isStreamedWithoutALength() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(200)
            .addHeaders(FakeRuntime.header("Content-Type", "text/plain"))
            .setBody(ByteString.copyFromUtf8("streamed"))
            .setChunked(true)
            .build());

    RawResponse response = send(port, "GET / HTTP/1.1\nHost: a\n", null); // keep-alive

    assertEquals(200, response.status());
    assertEquals("streamed", response.body());
    assertEquals("chunked", response.header("Transfer-Encoding"));
    assertNull(response.header("Content-Length"));
  }

  /** The runtime's {@code Content-Length} is kept when right and replaced when wrong. */
  @ParameterizedTest(name = "Content-Length {0} for 2 bytes")
  @ValueSource(strings = {"2", "99"})
  void runtimesContentLength_isTheBodysLength(String declared) throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(answer(200, "ok", "Content-Length", declared, "Content-Type", "text/plain"));

    RawResponse response = get(port, "/");

    assertEquals(200, response.status());
    assertEquals("ok", response.body());
    assertEquals(List.of("2"), response.headerValues("Content-Length"));
  }

  @Test
  void notModified_keepsTheLengthOfWhatItStandsFor() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(answer(304, null, "ETag", "\"x\"", "Content-Length", "100"));

    RawResponse response = get(port, "/");

    assertEquals(304, response.status());
    assertEquals("\"x\"", response.header("ETag"));
    assertEquals("100", response.header("Content-Length"));
  }

  @Test
  void largeResponseBody_isWrittenWhole() throws Exception {
    int port = start(TrustPolicy.trustNone());
    byte[] body = new byte[3 * 1024 * 1024];
    new Random(4).nextBytes(body);
    runtime.answerWith(
        UPResponse.newBuilder().setHttpStatus(200).setBody(ByteString.copyFrom(body)).build());

    RawResponse response = get(port, "/big");

    assertEquals(200, response.status());
    assertArrayEquals(body, response.bodyBytes());
  }

  @Test
  void head_getsHeadersAndTheAppsContentLengthButNoBody() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(answer(200, null, "Content-Type", "text/plain", "Content-Length", "11"));

    RawResponse response = send(port, "HEAD /hello HTTP/1.1\nHost: a\nConnection: close\n", null);

    assertEquals("HEAD", runtime.nextRequest().getRequest().getMethod());
    assertEquals(200, response.status());
    assertEquals("11", response.header("Content-Length"));
    assertTrue(response.raw().endsWith("\r\n\r\n"), response.raw());
  }

  /**
   * An error the runtime reports maps to a status (a bad request keeps the runtime's own), and no
   * message or body of the runtime's reaches the client.
   */
  @ParameterizedTest(name = "{0} (HTTP {1} from the runtime): {2}")
  @CsvSource({
    "UNKNOWN_APP, 200, 503",
    "DEADLINE_EXCEEDED, 200, 504",
    "RESPONSE_TOO_LARGE, 200, 500",
    "APP_FAILURE, 200, 500",
    "UNEXPECTED_ERROR, 200, 500",
    "BAD_REQUEST, 413, 413"
  })
  void runtimeError_getsItsStatusWithoutDetails(UPResponse.Error error, int sent, int status)
      throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setError(error)
            .setHttpStatus(sent)
            .setErrorMessage("secret detail at com.example.Internal")
            .setBody(ByteString.copyFromUtf8("secret body"))
            .build());

    RawResponse response = get(port, "/");

    assertEquals(status, response.status());
    assertNoDetails(response);
  }

  /** How a call to the runtime can fail, other than with an error it reports. */
  enum CallFailure {
    INTERNAL_STATUS_WITH_A_CAUSE(500) {
      @Override
      void arrange(FakeRuntime runtime, Server grpcServer) {
        runtime.answerWith(
            (request, observer) ->
                observer.onError(
                    Status.INTERNAL
                        .withDescription("secret detail")
                        .withCause(new IllegalStateException("secret cause"))
                        .asRuntimeException()));
      }
    },
    EXCEPTION_IN_THE_RUNTIME(500) {
      @Override
      void arrange(FakeRuntime runtime, Server grpcServer) {
        runtime.answerWith(
            (request, observer) -> {
              throw new IllegalStateException("secret detail");
            });
      }
    },
    RUNTIME_UNREACHABLE(503) {
      @Override
      void arrange(FakeRuntime runtime, Server grpcServer) throws InterruptedException {
        grpcServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    },
    UNAVAILABLE_STATUS(503) {
      @Override
      void arrange(FakeRuntime runtime, Server grpcServer) {
        runtime.answerWith(
            (request, observer) ->
                observer.onError(
                    Status.UNAVAILABLE.withDescription("secret").asRuntimeException()));
      }
    };

    final int status;

    CallFailure(int status) {
      this.status = status;
    }

    abstract void arrange(FakeRuntime runtime, Server grpcServer) throws InterruptedException;
  }

  @ParameterizedTest
  @EnumSource(CallFailure.class)
  void failedCall_getsAStatusWithoutDetails(CallFailure failure) throws Exception {
    int port = start(TrustPolicy.trustNone());
    failure.arrange(runtime, grpcServer);

    RawResponse response = get(port, "/");

    assertEquals(failure.status, response.status());
    assertNoDetails(response);
  }

  @Test
  void timeoutHeaderFromTrustedCaller_becomesTheCallDeadline_504() throws Exception {
    int port = start(TrustPolicy.trustAll());
    runtime.answerWith((request, observer) -> {}); // never answers

    long started = System.nanoTime();
    RawResponse response = get(port, "/slow", "X-AppEngine-Timeout-Ms: 300");
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertEquals(504, response.status());
    assertTrue(tookMillis >= 250, "answered after " + tookMillis + " ms");
    assertNoDetails(response);
  }

  @Test
  void slowApp_isNotCutShortByTheIdleTimeout() throws Exception {
    int port =
        start(
            TrustPolicy.trustNone(),
            new RequestLimits(LIMIT, LIMIT, false, 64 * 1024),
            Duration.ofMillis(300));
    // A first request loads what serving takes: on a cold, busy JVM a request can otherwise sit
    // between its parsing and the front end's handler for longer than the short idle timeout.
    get(port, "/warm-up");
    runtime.answerWith((request, observer) -> answerLate(observer));

    RawResponse response = get(port, "/slow");

    assertEquals(200, response.status(), String.valueOf(response));
    assertEquals("late", response.body());
  }

  /**
   * A request that waits for a turn longer than the idle timeout (as one does during a drain, when
   * the connector cuts the idle timeout to a second) is not failed: before, it was answered 500.
   */
  @Test
  void requestWaitingForATurn_isNotCutShortByTheIdleTimeout() throws Exception {
    int port =
        start(
            TrustPolicy.trustNone(),
            new RequestLimits(LIMIT, LIMIT, false, 64 * 1024),
            Duration.ofMillis(300),
            new Capacity(1, 20, Duration.ofSeconds(30), false));
    // A first request loads what serving takes: on a cold, busy JVM a request can otherwise sit
    // between its parsing and the front end's handler for longer than the short idle timeout.
    get(port, "/warm-up");
    CountDownLatch first = new CountDownLatch(1);
    runtime.answerWith(
        (request, observer) -> {
          first.countDown();
          answerLate(observer);
        });
    CompletableFuture<RawResponse> running = inBackground(port, "/first");
    assertTrue(first.await(30, TimeUnit.SECONDS));

    // Waits about a second for the only turn, with nothing to read or write meanwhile.
    RawResponse waited = get(port, "/second");

    assertEquals(200, running.get(30, TimeUnit.SECONDS).status());
    assertEquals(200, waited.status());
    assertEquals("late", waited.body());
  }

  /** Answers {@code late} a second from now, on a thread of its own. */
  private static void answerLate(StreamObserver<UPResponse> observer) {
    new Thread(
            () -> {
              sleep(1000);
              observer.onNext(FakeRuntime.ok(200, "late"));
              observer.onCompleted();
            })
        .start();
  }

  private static CompletableFuture<RawResponse> inBackground(int port, String path) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return get(port, path);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** A call failed in a way Jetty answers with its error page: the log says what was answered. */
  @Test
  void callCancelledByTheRuntime_is500AndLogged() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        (request, observer) ->
            observer.onError(Status.CANCELLED.withDescription("secret").asRuntimeException()));
    List<LogRecord> records = new ArrayList<>();
    Logger logger = Logger.getLogger(FrontHandler.class.getName());
    Handler capture = capture(records);
    logger.addHandler(capture);
    RawResponse response;
    try {
      response = get(port, "/cancelled");
    } finally {
      logger.removeHandler(capture);
    }

    assertEquals(500, response.status());
    assertNoDetails(response);
    synchronized (records) {
      assertEquals(1, records.size(), records.toString());
      assertEquals(Level.WARNING, records.get(0).getLevel());
      String message = records.get(0).getMessage();
      assertTrue(message.startsWith("GET /cancelled failed"), message);
      assertTrue(message.contains("answered 500"), message);
      assertTrue(message.contains("CANCELLED"), message);
    }
  }

  private static Handler capture(List<LogRecord> records) {
    return new Handler() {
      @Override
      public void publish(LogRecord record) {
        synchronized (records) {
          records.add(record);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void timeoutHeaderFromUntrustedCaller_isIgnored() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawResponse response = get(port, "/", "X-AppEngine-Timeout-Ms: 0");

    assertEquals(200, response.status());
    assertEquals(0, runtime.nextRequest().getTimeoutMillis());
  }

  @Test
  void appLogLines_areLoggedUnderTheirSource() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        FakeRuntime.ok(200, "ok").toBuilder()
            .addAppLogs(
                AppLogLine.newBuilder()
                    .setLevel(2)
                    .setMessage("careful")
                    .setSourceLocation("com.example.Guestbook")
                    .setTimestampUsec(1_700_000_000_123_456L))
            .build());
    List<LogRecord> records = new ArrayList<>();
    Logger logger = Logger.getLogger("com.example.Guestbook");
    Handler capture = capture(records);
    logger.addHandler(capture);
    try {
      assertEquals(200, get(port, "/").status());
    } finally {
      logger.removeHandler(capture);
    }

    synchronized (records) {
      assertEquals(1, records.size());
      assertEquals(Level.WARNING, records.get(0).getLevel());
      assertEquals("careful", records.get(0).getMessage());
      assertEquals(1_700_000_000_123L, records.get(0).getMillis());
    }
  }

  private static void assertNoDetails(RawResponse response) {
    String raw = response.raw();
    assertFalse(raw.contains("secret"), raw);
    assertFalse(raw.contains("Exception"), raw);
    assertFalse(raw.contains("at dev."), raw);
    assertFalse(raw.contains("Caused by"), raw);
    assertFalse(raw.contains("grpc"), raw);
    assertTrue(
        response.body().isEmpty()
            || response.body().contains(HttpStatus.getMessage(response.status())),
        raw);
    assertEquals(
        raw.getBytes(StandardCharsets.ISO_8859_1).length,
        raw.length()); // plain text, nothing exotic
  }
}
