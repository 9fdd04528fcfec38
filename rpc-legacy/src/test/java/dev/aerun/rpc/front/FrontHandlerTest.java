package dev.aerun.rpc.front;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.proto.AppLogLine;
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
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
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
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
                    new ContractOptions(trust, false),
                    limits,
                    idleTimeout,
                    capacity),
                ENVIRONMENT),
            RpcTransport.inProcess(name),
            new BodyMemory(1L << 30));
    front.start();
    return front.port();
  }

  @AfterEach
  void stop() throws Exception {
    if (front != null) {
      front.stop();
    }
    if (grpcServer != null) {
      grpcServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static List<String> headerLines(HttpRequest request) {
    return request.getHeadersList().stream()
        .map(h -> h.getName() + ": " + h.getValue())
        .collect(Collectors.toList());
  }

  @Test
  void untrustedCaller_platformHeadersRemovedAndPeerIsTheClient() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawHttp.Exchange exchange =
        RawHttp.get(
            port,
            "/path/a%20b?q=x%2Fy&r",
            "X-AppEngine-User-IP: 203.0.113.9",
            "X-AppEngine-Cron: true",
            "X-AppEngine-User-Email: mallory@example.com",
            "X-Forwarded-For: 198.51.100.1",
            "X-Custom: kept");
    UPRequest up = runtime.nextRequest();
    HttpRequest http = up.getRequest();

    assertEquals(200, exchange.response().getStatus());
    assertEquals("hello", exchange.response().getContent());
    assertEquals("GET", http.getMethod());
    assertEquals("http://front.test/path/a%20b?q=x%2Fy&r", http.getUrl());
    assertEquals("HTTP/1.1", http.getHttpVersion());
    assertEquals(
        List.of("Host: front.test", "X-Custom: kept", "Connection: close"), headerLines(http));
    assertEquals("127.0.0.1", http.getUserIp());
    assertEquals(exchange.clientPort(), http.getUserPort());
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

    RawHttp.get(
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
        headerLines(http));
  }

  @Test
  void headers_keepOrderRepeatsAndNames() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawHttp.get(port, "/", "X-B: 1", "x-a: 2", "X-B: 3");

    assertEquals(
        List.of("Host: front.test", "X-B: 1", "x-a: 2", "X-B: 3", "Connection: close"),
        headerLines(runtime.nextRequest().getRequest()));
  }

  @Test
  void contentLengthBody_isBufferedWhole() throws Exception {
    int port = start(TrustPolicy.trustNone());
    byte[] body = new byte[LIMIT];
    new Random(1).nextBytes(body);

    RawHttp.Exchange exchange =
        RawHttp.send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nContent-Length: "
                + body.length
                + "\nConnection: close\n",
            body);
    HttpRequest http = runtime.nextRequest().getRequest();

    assertEquals(200, exchange.response().getStatus());
    assertArrayEquals(body, http.getBody().toByteArray());
    assertFalse(http.getChunked());
    assertFalse(http.getBodyOverLimit());
  }

  @Test
  void chunkedBody_isBufferedWholeAndFlaggedChunked() throws Exception {
    int port = start(TrustPolicy.trustNone());
    byte[] body = new byte[40_000];
    new Random(2).nextBytes(body);

    RawHttp.send(
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
    RawHttp.send(
        port,
        "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nConnection: close\n",
        ("3\r\nabc\r\n" + FORGED_TRAILERS).getBytes(StandardCharsets.US_ASCII));
    return runtime.nextRequest().getRequest();
  }

  private static List<String> trailerLines(HttpRequest request) {
    return request.getTrailersList().stream()
        .map(h -> h.getName() + ": " + h.getValue())
        .collect(Collectors.toList());
  }

  @Test
  void trailersFromAnUntrustedCaller_platformFieldsRemoved_othersSent() throws Exception {
    HttpRequest http = postWithTrailers(TrustPolicy.trustNone());

    assertEquals("abc", http.getBody().toStringUtf8());
    assertEquals(List.of("X-Checksum: abc123"), trailerLines(http));
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
        trailerLines(http));
  }

  @Test
  void contentLengthOverLimit_gets413WithoutReachingTheRuntime() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawHttp.Exchange exchange =
        RawHttp.send(
            port, "POST /upload HTTP/1.1\nHost: a\nContent-Length: " + (LIMIT + 1) + "\n", null);

    assertEquals(413, exchange.response().getStatus());
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

    RawHttp.Exchange exchange =
        RawHttp.send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            RawHttp.chunked(body, 4096));
    HttpRequest http = runtime.nextRequest().getRequest();

    assertEquals(LIMIT, http.getBody().size());
    assertArrayEquals(java.util.Arrays.copyOf(body, LIMIT), http.getBody().toByteArray());
    assertTrue(http.getBodyOverLimit());
    assertTrue(http.getChunked());
    assertEquals(413, exchange.response().getStatus());
  }

  @Test
  void chunkedBodyOverLimit_appResponseClosesTheConnection() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(200)
            .addHeaders(FakeRuntime.header("X-App", "1"))
            .setBody(ByteString.copyFromUtf8("did not read"))
            .build());

    RawHttp.Exchange exchange =
        RawHttp.send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            RawHttp.chunked(new byte[3 * LIMIT], 4096));

    HttpTester.Response response = exchange.response();
    assertEquals(200, response.getStatus());
    assertEquals("close", response.get("Connection"));
  }

  @Test
  void wholeBody_appResponseKeepsTheConnection() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder().setHttpStatus(200).setBody(ByteString.copyFromUtf8("ok")).build());

    RawHttp.Exchange exchange =
        RawHttp.send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            RawHttp.chunked(new byte[100], 40));

    assertEquals(200, exchange.response().getStatus());
    assertNull(exchange.response().get("Connection"));
  }

  @Test
  void asteriskForm_travelsAsTheAuthorityFollowedByAnAsterisk() throws Exception {
    int port = start(TrustPolicy.trustNone());

    RawHttp.send(port, "OPTIONS * HTTP/1.1\nHost: front.test:8080\nConnection: close\n", null);

    assertEquals("http://front.test:8080*", runtime.nextRequest().getRequest().getUrl());
  }

  @Test
  void malformedChunking_isSentAsFarAsReadWithItsStatus() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(400)
            .setBody(ByteString.copyFromUtf8("the app's own error page"))
            .build());

    RawHttp.Exchange exchange =
        RawHttp.send(
            port,
            "POST /upload HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n",
            "3\r\nabc\r\nzz\r\nmore\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    HttpRequest http = runtime.nextRequest().getRequest();

    assertEquals("abc", http.getBody().toStringUtf8());
    assertEquals(400, http.getBodyErrorStatus());
    assertFalse(http.getBodyOverLimit());
    assertEquals(400, exchange.response().getStatus());
    assertEquals("the app's own error page", exchange.response().getContent());
    assertEquals("close", exchange.response().get("Connection"));
  }

  @Test
  void appResponseWithoutDate_getsTheFrontsOwn() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(FakeRuntime.ok(200, "no date"));

    HttpTester.Response response = RawHttp.get(port, "/").response();

    assertEquals(200, response.getStatus());
    assertEquals(1, response.getValuesList("Date").size());
    assertTrue(response.getDateField("Date") > 0, response.get("Date"));
  }

  @Test
  void appResponse_statusHeadersInOrderAndBody_withTheRuntimesDate() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(201)
            .addHeaders(FakeRuntime.header("X-Z", "1"))
            .addHeaders(FakeRuntime.header("Date", "Thu, 01 Jan 1970 00:00:00 GMT"))
            .addHeaders(FakeRuntime.header("Set-Cookie", "a=1"))
            .addHeaders(FakeRuntime.header("X-A", "2"))
            .addHeaders(FakeRuntime.header("Set-Cookie", "b=2"))
            .setBody(ByteString.copyFromUtf8("created"))
            .build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/");
    HttpTester.Response response = exchange.response();

    assertEquals(201, response.getStatus());
    assertEquals("created", response.getContent());
    assertEquals("7", response.get("Content-Length"));
    assertEquals(List.of("Thu, 01 Jan 1970 00:00:00 GMT"), response.getValuesList("Date"));
    assertEquals(List.of("a=1", "b=2"), response.getValuesList("Set-Cookie"));
    assertTrue(
        exchange.raw().indexOf("X-Z: 1") < exchange.raw().indexOf("Set-Cookie: a=1")
            && exchange.raw().indexOf("Set-Cookie: a=1") < exchange.raw().indexOf("X-A: 2"),
        exchange.raw());
    assertNull(response.get("Server"));
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

    RawHttp.Exchange exchange = RawHttp.send(port, "GET / HTTP/1.1\nHost: a\n", null); // keep-alive

    assertEquals(200, exchange.response().getStatus());
    assertEquals("streamed", exchange.response().getContent());
    assertEquals("chunked", exchange.response().get("Transfer-Encoding"));
    assertNull(exchange.response().get("Content-Length"));
  }

  @Test
  void runtimesContentLength_isKept() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(200)
            .addHeaders(FakeRuntime.header("Content-Length", "2"))
            .addHeaders(FakeRuntime.header("Content-Type", "text/plain"))
            .setBody(ByteString.copyFromUtf8("ok"))
            .build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals("ok", exchange.response().getContent());
    assertEquals(List.of("2"), exchange.response().getValuesList("Content-Length"));
  }

  @Test
  void wrongContentLengthFromTheRuntime_isReplacedByTheBodysLength() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(200)
            .addHeaders(FakeRuntime.header("Content-Length", "99"))
            .setBody(ByteString.copyFromUtf8("ok"))
            .build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(200, exchange.response().getStatus());
    assertEquals("ok", exchange.response().getContent());
    assertEquals(List.of("2"), exchange.response().getValuesList("Content-Length"));
  }

  @Test
  void notModified_keepsTheLengthOfWhatItStandsFor() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(304)
            .addHeaders(FakeRuntime.header("ETag", "\"x\""))
            .addHeaders(FakeRuntime.header("Content-Length", "100"))
            .build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(304, exchange.response().getStatus());
    assertEquals("\"x\"", exchange.response().get("ETag"));
    assertEquals("100", exchange.response().get("Content-Length"));
  }

  @Test
  void largeResponseBody_isWrittenWhole() throws Exception {
    int port = start(TrustPolicy.trustNone());
    byte[] body = new byte[3 * 1024 * 1024];
    new Random(4).nextBytes(body);
    runtime.answerWith(
        UPResponse.newBuilder().setHttpStatus(200).setBody(ByteString.copyFrom(body)).build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/big");

    assertEquals(200, exchange.response().getStatus());
    assertArrayEquals(body, exchange.response().getContentBytes());
  }

  @Test
  void head_getsHeadersAndTheAppsContentLengthButNoBody() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setHttpStatus(200)
            .addHeaders(FakeRuntime.header("Content-Type", "text/plain"))
            .addHeaders(FakeRuntime.header("Content-Length", "11"))
            .build());

    RawHttp.Exchange exchange =
        RawHttp.send(port, "HEAD /hello HTTP/1.1\nHost: a\nConnection: close\n", null);

    assertEquals("HEAD", runtime.nextRequest().getRequest().getMethod());
    assertEquals(200, exchange.response().getStatus());
    assertEquals("11", exchange.response().get("Content-Length"));
    assertTrue(exchange.raw().endsWith("\r\n\r\n"), exchange.raw());
  }

  @Test
  void unknownApp_is503() throws Exception {
    assertErrorMaps(UPResponse.Error.UNKNOWN_APP, 503);
  }

  @Test
  void deadlineErrorFromTheRuntime_is504() throws Exception {
    assertErrorMaps(UPResponse.Error.DEADLINE_EXCEEDED, 504);
  }

  @Test
  void responseTooLarge_is500() throws Exception {
    assertErrorMaps(UPResponse.Error.RESPONSE_TOO_LARGE, 500);
  }

  @Test
  void appFailure_is500() throws Exception {
    assertErrorMaps(UPResponse.Error.APP_FAILURE, 500);
  }

  @Test
  void unexpectedError_is500() throws Exception {
    assertErrorMaps(UPResponse.Error.UNEXPECTED_ERROR, 500);
  }

  @Test
  void badRequestFromTheRuntime_getsItsStatus() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setError(UPResponse.Error.BAD_REQUEST)
            .setHttpStatus(413)
            .setErrorMessage("secret detail")
            .build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(413, exchange.response().getStatus());
    assertNoDetails(exchange);
  }

  private void assertErrorMaps(UPResponse.Error error, int status) throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        UPResponse.newBuilder()
            .setError(error)
            .setHttpStatus(200)
            .setErrorMessage("secret detail at com.example.Internal")
            .setBody(ByteString.copyFromUtf8("secret body"))
            .build());

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(status, exchange.response().getStatus());
    assertNoDetails(exchange);
  }

  @Test
  void grpcFailure_is500WithoutDetails() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        (request, observer) ->
            observer.onError(
                Status.INTERNAL
                    .withDescription("secret detail")
                    .withCause(new IllegalStateException("secret cause"))
                    .asRuntimeException()));

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(500, exchange.response().getStatus());
    assertNoDetails(exchange);
  }

  @Test
  void runtimeException_is500WithoutDetails() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        (request, observer) -> {
          throw new IllegalStateException("secret detail");
        });

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(500, exchange.response().getStatus());
    assertNoDetails(exchange);
  }

  @Test
  void runtimeUnreachable_is503() throws Exception {
    int port = start(TrustPolicy.trustNone());
    grpcServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

    RawHttp.Exchange exchange = RawHttp.get(port, "/");

    assertEquals(503, exchange.response().getStatus());
    assertNoDetails(exchange);
  }

  @Test
  void runtimeUnavailableStatus_is503() throws Exception {
    int port = start(TrustPolicy.trustNone());
    runtime.answerWith(
        (request, observer) ->
            observer.onError(Status.UNAVAILABLE.withDescription("secret").asRuntimeException()));

    assertEquals(503, RawHttp.get(port, "/").response().getStatus());
  }

  @Test
  void timeoutHeaderFromTrustedCaller_becomesTheCallDeadline_504() throws Exception {
    int port = start(TrustPolicy.trustAll());
    runtime.answerWith((request, observer) -> {}); // never answers

    long started = System.nanoTime();
    RawHttp.Exchange exchange = RawHttp.get(port, "/slow", "X-AppEngine-Timeout-Ms: 300");
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertEquals(504, exchange.response().getStatus());
    assertTrue(tookMillis >= 250, "answered after " + tookMillis + " ms");
    assertNoDetails(exchange);
  }

  @Test
  void slowApp_isNotCutShortByTheIdleTimeout() throws Exception {
    int port =
        start(
            TrustPolicy.trustNone(),
            new RequestLimits(LIMIT, LIMIT, false, 64 * 1024),
            Duration.ofMillis(300));
    runtime.answerWith(
        (request, observer) ->
            new Thread(
                    () -> {
                      sleep(1000);
                      observer.onNext(FakeRuntime.ok(200, "late"));
                      observer.onCompleted();
                    })
                .start());

    RawHttp.Exchange exchange = RawHttp.get(port, "/slow");

    assertEquals(200, exchange.response().getStatus());
    assertEquals("late", exchange.response().getContent());
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
    CountDownLatch first = new CountDownLatch(1);
    runtime.answerWith(
        (request, observer) -> {
          first.countDown();
          new Thread(
                  () -> {
                    sleep(1000);
                    observer.onNext(FakeRuntime.ok(200, "late"));
                    observer.onCompleted();
                  })
              .start();
        });
    CompletableFuture<RawHttp.Exchange> running = inBackground(port, "/first");
    assertTrue(first.await(30, TimeUnit.SECONDS));

    // Waits about a second for the only turn, with nothing to read or write meanwhile.
    RawHttp.Exchange waited = RawHttp.get(port, "/second");

    assertEquals(200, running.get(30, TimeUnit.SECONDS).response().getStatus());
    assertEquals(200, waited.response().getStatus());
    assertEquals("late", waited.response().getContent());
  }

  private static CompletableFuture<RawHttp.Exchange> inBackground(int port, String path) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return RawHttp.get(port, path);
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
    RawHttp.Exchange exchange;
    try {
      exchange = RawHttp.get(port, "/cancelled");
    } finally {
      logger.removeHandler(capture);
    }

    assertEquals(500, exchange.response().getStatus());
    assertNoDetails(exchange);
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

    RawHttp.Exchange exchange = RawHttp.get(port, "/", "X-AppEngine-Timeout-Ms: 0");

    assertEquals(200, exchange.response().getStatus());
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
    Handler capture =
        new Handler() {
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
    logger.addHandler(capture);
    try {
      assertEquals(200, RawHttp.get(port, "/").response().getStatus());
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

  private static void assertNoDetails(RawHttp.Exchange exchange) {
    String raw = exchange.raw();
    assertFalse(raw.contains("secret"), raw);
    assertFalse(raw.contains("Exception"), raw);
    assertFalse(raw.contains("at dev."), raw);
    assertFalse(raw.contains("Caused by"), raw);
    assertFalse(raw.contains("grpc"), raw);
    assertTrue(
        exchange.response().getContent().isEmpty()
            || exchange
                .response()
                .getContent()
                .contains(
                    org.eclipse.jetty.http.HttpStatus.getMessage(exchange.response().getStatus())),
        raw);
    assertEquals(
        raw.getBytes(StandardCharsets.ISO_8859_1).length,
        raw.length()); // plain text, nothing exotic
  }
}
