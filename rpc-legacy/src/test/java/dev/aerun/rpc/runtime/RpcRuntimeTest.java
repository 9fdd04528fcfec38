package dev.aerun.rpc.runtime;

import static dev.aerun.rpc.runtime.InProcessRuntime.get;
import static dev.aerun.rpc.runtime.InProcessRuntime.header;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.AppLogLine;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.RequestLimits;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class RpcRuntimeTest {
  private static final int SMALL = 1000;

  private final TestApp app = new TestApp();
  private InProcessRuntime rpc;

  @AfterEach
  void tearDown() throws Exception {
    if (rpc != null) {
      rpc.close();
    }
  }

  private InProcessRuntime start(RequestLimits limits) throws Exception {
    rpc = new InProcessRuntime(app, limits);
    return rpc;
  }

  private static RequestLimits small() {
    return new RequestLimits(SMALL, SMALL, false, RequestLimits.DEFAULT_REQUEST_HEADER_SIZE);
  }

  private static UPRequest post(String path, byte[] body) {
    UPRequest.Builder up = get(path);
    up.getRequestBuilder()
        .setMethod("POST")
        .addHeaders(header("Content-Length", Integer.toString(body.length)))
        .setBody(ByteString.copyFrom(body));
    return up.build();
  }

  /**
   * A POST of {@code body} that came chunked ({@code Transfer-Encoding: chunked}), flagged chunked
   * in the message if {@code flagged}.
   */
  private static UPRequest.Builder chunkedPost(String path, ByteString body, boolean flagged) {
    UPRequest.Builder up = get(path);
    up.getRequestBuilder()
        .setMethod("POST")
        .addHeaders(header("Transfer-Encoding", "chunked"))
        .setChunked(flagged)
        .setBody(body);
    return up;
  }

  private static String headerValue(UPResponse response, String name) {
    for (dev.aerun.rpc.proto.HttpHeader h : response.getHeadersList()) {
      if (h.getName().equalsIgnoreCase(name)) {
        return h.getValue();
      }
    }
    return null;
  }

  @Test
  void handleRequest_getWithoutBodyRoundTrips() throws Exception {
    UPResponse response = start(RequestLimits.defaults()).call(get("/echo").build());

    assertEquals(UPResponse.Error.OK, response.getError());
    assertEquals(200, response.getHttpStatus());
    assertEquals("0", headerValue(response, "X-Length"));
    assertEquals("0", headerValue(response, "Content-Length"));
    assertTrue(response.getBody().isEmpty());
    assertFalse(response.getChunked());
    assertEquals("", response.getErrorMessage());
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {1024 * 1024, (int) RequestLimits.DEFAULT_BODY_LIMIT})
  void handleRequest_bufferedBodyRoundTrips(int size) throws Exception {
    byte[] body = random(size);
    UPResponse response = start(RequestLimits.defaults()).call(post("/echo", body));

    assertEquals(UPResponse.Error.OK, response.getError());
    assertEquals(200, response.getHttpStatus());
    assertEquals(Integer.toString(body.length), headerValue(response, "Content-Length"));
    assertArrayEquals(body, response.getBody().toByteArray());
  }

  @Test
  void handleRequest_chunkedRequestBodyRoundTrips() throws Exception {
    byte[] body = random(70_000);
    UPRequest.Builder up = chunkedPost("/echo", ByteString.copyFrom(body), true);

    UPResponse response = start(RequestLimits.defaults()).call(up.build());

    assertArrayEquals(body, response.getBody().toByteArray());
  }

  @Test
  void handleRequest_trailersReachTheAppAfterTheBody() throws Exception {
    UPRequest.Builder up = chunkedPost("/trailers", ByteString.copyFromUtf8("abc"), true);
    up.getRequestBuilder()
        .addTrailers(header("X-Checksum", "abc123"))
        .addTrailers(header("X-Other", "2"));

    UPResponse response = start(RequestLimits.defaults()).call(up.build());

    assertEquals(
        "chunk 3\n"
            + "chunk 0 X-Checksum: abc123 X-Other: 2 last\n"
            + "trailer X-Checksum: abc123\n"
            + "trailer X-Other: 2\n",
        response.getBody().toStringUtf8());
  }

  @Test
  void handleRequest_noTrailers_theBodyEndsAsBefore() throws Exception {
    UPRequest.Builder up = chunkedPost("/trailers", ByteString.copyFromUtf8("abc"), true);

    UPResponse response = start(RequestLimits.defaults()).call(up.build());

    assertEquals("chunk 3 last\n", response.getBody().toStringUtf8());
  }

  @Test
  void handleRequest_appSeesHeadersInOrderWithRepeats() throws Exception {
    UPRequest.Builder up = get("/seen");
    up.getRequestBuilder()
        .addHeaders(header("X-Z", "1"))
        .addHeaders(header("x-a", "2"))
        .addHeaders(header("X-Z", "3"))
        .addHeaders(header("Accept", "*/*"));

    start(RequestLimits.defaults()).call(up.build());

    Map<String, Object> seen = app.seen.poll(5, TimeUnit.SECONDS);
    assertEquals(
        List.of("Host: example.com", "X-Z: 1", "x-a: 2", "X-Z: 3", "Accept: */*"),
        seen.get("headers"));
  }

  @Test
  void handleRequest_appSeesAddressesSchemeAndServerFromTheMessage() throws Exception {
    UPRequest.Builder up = get("/seen?q=a%20b");
    up.getRequestBuilder()
        .setUrl("http://example.com:8081/seen?q=a%20b")
        .setHeaders(0, header("Host", "example.com:8081"))
        .setIsHttps(true)
        .setUserIp("2001:db8::7")
        .setUserPort(0);

    start(RequestLimits.defaults()).call(up.build());

    Map<String, Object> seen = app.seen.poll(5, TimeUnit.SECONDS);
    assertEquals("https", seen.get("scheme"));
    assertEquals(true, seen.get("secure"));
    assertEquals(true, seen.get("connectionSecure"));
    assertEquals("https://example.com:8081/seen?q=a%20b", seen.get("uri"));
    assertEquals("example.com", seen.get("serverName"));
    assertEquals(8081, seen.get("serverPort"));
    assertEquals("[2001:db8:0:0:0:0:0:7]", seen.get("remoteAddr"));
    assertEquals(0, seen.get("remotePort"));
    assertEquals("10.0.0.1", seen.get("localAddr"));
    assertEquals(8080, seen.get("localPort"));
  }

  @Test
  void handleRequest_defaultPortIsDroppedBeforeTheSchemeBecomesHttps() throws Exception {
    UPRequest.Builder up = get("/seen");
    up.getRequestBuilder()
        .setUrl("http://example.com:80/seen")
        .setHeaders(0, header("Host", "example.com:80"))
        .setIsHttps(true);

    start(RequestLimits.defaults()).call(up.build());

    Map<String, Object> seen = app.seen.poll(5, TimeUnit.SECONDS);
    assertEquals("https://example.com/seen", seen.get("uri"));
    assertEquals(443, seen.get("serverPort"));
  }

  @Test
  void handleRequest_appSeesTheSameRequestAsInHttpConnectorMode() throws Exception {
    String raw =
        """
        GET /seen?x=1&y=%2F HTTP/1.1\r
        Host: example.com:8081\r
        X-AppEngine-User-IP: 203.0.113.7\r
        X-AppEngine-Https: on\r
        X-Z: 1\r
        X-A: 2\r
        X-Z: 3\r
        X-Cloud-Trace-Context: 0123456789abcdef0123456789abcdef/123;o=1\r
        X-AppEngine-Request-Log-Id: log-1\r
        X-AppEngine-User-Email: a@example.com\r
        X-AppEngine-User-Id: 42\r
        X-AppEngine-User-Is-Admin: 1\r
        X-AppEngine-QueueName: q\r
        X-AppEngine-TaskName: t\r
        X-AppEngine-TaskRetryCount: 2\r
        X-AppEngine-Cron: true\r
        X-AppEngine-Timeout-Ms: 60000\r
        \r
        """;
    Map<String, Object> http;
    try (HttpConnectorModeTwin twin = new HttpConnectorModeTwin(app, RequestLimits.defaults())) {
      assertEquals(204, twin.request(raw).getStatus());
      http = app.seen.poll(5, TimeUnit.SECONDS);
    }
    HttpFields.Mutable received = HttpFields.build();
    for (String line : raw.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("GET ")) {
        received.add(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    UPRequest up =
        HttpConnectorModeTwin.upRequest(
            "GET",
            "/seen?x=1&y=%2F",
            received,
            new byte[0],
            new InetSocketAddress("0.0.0.0", 0),
            new InetSocketAddress(
                (String) http.get("localAddr"), ((Number) http.get("localPort")).intValue()));

    assertEquals(204, start(RequestLimits.defaults()).call(up).getHttpStatus());
    Map<String, Object> rpcSeen = app.seen.poll(5, TimeUnit.SECONDS);

    // The deadline is on each side's own clock: same type and timeout, values differ.
    Map<?, ?> httpAttributes = (Map<?, ?>) http.get("attributes");
    Map<?, ?> rpcAttributes = (Map<?, ?>) rpcSeen.get("attributes");
    assertInstanceOf(Long.class, httpAttributes.remove(RequestAttributes.DEADLINE_NANOS));
    assertInstanceOf(Long.class, rpcAttributes.remove(RequestAttributes.DEADLINE_NANOS));
    assertEquals(http, rpcSeen);
    assertEquals("203.0.113.7", rpcSeen.get("remoteAddr"));
    assertEquals("https", rpcSeen.get("scheme"));
  }

  @Test
  void handleRequest_attributesCarryTheMessageValues() throws Exception {
    UPRequest.Builder up = get("/seen").setRequestLogId("log-7").setTimeoutMillis(5000);
    up.getTraceBuilder()
        .setTraceId("0123456789abcdef0123456789abcdef")
        .setSpanId("000000000000007b")
        .setSampled(true);
    up.getUserBuilder().setEmail("u@example.com").setIsAdmin(true).setAuthDomain("example.com");
    up.getTaskBuilder().setQueueName("default").setRetryCount(3).setCron(true);
    up.setDefaultVersionHostname("app.example.com");

    long before = System.nanoTime();
    start(RequestLimits.defaults()).call(up.build());
    long after = System.nanoTime();

    Map<?, ?> attributes = (Map<?, ?>) app.seen.poll(5, TimeUnit.SECONDS).get("attributes");
    assertEquals("log-7", attributes.get(RequestAttributes.REQUEST_LOG_ID));
    assertEquals("app.example.com", attributes.get(RequestAttributes.DEFAULT_VERSION_HOSTNAME));
    assertEquals(5000L, attributes.get(RequestAttributes.TIMEOUT_MILLIS));
    long deadline = (Long) attributes.get(RequestAttributes.DEADLINE_NANOS);
    assertTrue(deadline - before >= 5_000_000_000L && deadline - after <= 5_000_000_000L);
    assertEquals("0123456789abcdef0123456789abcdef", attributes.get(RequestAttributes.TRACE_ID));
    assertEquals("000000000000007b", attributes.get(RequestAttributes.SPAN_ID));
    assertEquals(Boolean.TRUE, attributes.get(RequestAttributes.TRACE_SAMPLED));
    assertEquals("u@example.com", attributes.get(RequestAttributes.USER_EMAIL));
    assertEquals(Boolean.TRUE, attributes.get(RequestAttributes.USER_IS_ADMIN));
    assertEquals("example.com", attributes.get(RequestAttributes.USER_AUTH_DOMAIN));
    assertFalse(attributes.containsKey(RequestAttributes.USER_ID));
    assertEquals("default", attributes.get(RequestAttributes.QUEUE_NAME));
    assertEquals(3, attributes.get(RequestAttributes.TASK_RETRY_COUNT));
    assertEquals(Boolean.TRUE, attributes.get(RequestAttributes.CRON));
    assertFalse(attributes.containsKey(RequestAttributes.TASK_NAME));
  }

  @Test
  void handleRequest_noPlatformValues_setNoAttributes() throws Exception {
    start(RequestLimits.defaults()).call(get("/seen").build());

    Map<?, ?> attributes = (Map<?, ?>) app.seen.poll(5, TimeUnit.SECONDS).get("attributes");
    assertTrue(attributes.isEmpty(), attributes.toString());
  }

  /**
   * A body the front end could not pass whole: cut at the limit, or read up to malformed chunking;
   * the message says so, with the status to answer a read past what came.
   */
  enum BrokenBody {
    OVER_LIMIT(413) {
      @Override
      RequestLimits limits() {
        return small();
      }

      @Override
      String chunkedHttpBody() {
        String chunk = "a".repeat(SMALL + 100);
        return Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n0\r\n\r\n";
      }

      @Override
      UPRequest.Builder message(String path, boolean flagged) {
        UPRequest.Builder up = chunkedPost(path, ByteString.copyFrom(new byte[SMALL]), flagged);
        up.getRequestBuilder().setBodyOverLimit(true);
        return up;
      }
    },
    MALFORMED_CHUNKING(400) {
      @Override
      RequestLimits limits() {
        return RequestLimits.defaults();
      }

      @Override
      String chunkedHttpBody() {
        return "3\r\nabc\r\nzz\r\nmore\r\n0\r\n\r\n";
      }

      @Override
      UPRequest.Builder message(String path, boolean flagged) {
        UPRequest.Builder up = chunkedPost(path, ByteString.copyFromUtf8("abc"), flagged);
        up.getRequestBuilder().setBodyErrorStatus(400);
        return up;
      }
    };

    /** What a read past what came is answered. */
    final int status;

    BrokenBody(int status) {
      this.status = status;
    }

    abstract RequestLimits limits();

    /** The body as a client sends it in HttpConnector mode. */
    abstract String chunkedHttpBody();

    /** The message the front end sends for it. */
    abstract UPRequest.Builder message(String path, boolean flagged);
  }

  @ParameterizedTest
  @EnumSource(BrokenBody.class)
  void handleRequest_brokenBody_readPastItGetsItsStatus(BrokenBody body) throws Exception {
    UPResponse response = start(body.limits()).call(body.message("/consume", true).build());

    assertEquals(UPResponse.Error.OK, response.getError());
    assertEquals(body.status, response.getHttpStatus());
  }

  @ParameterizedTest
  @EnumSource(BrokenBody.class)
  void handleRequest_brokenBody_givesTheSameAnswerAsHttpConnectorMode(BrokenBody body)
      throws Exception {
    start(body.limits());
    try (HttpConnectorModeTwin twin = new HttpConnectorModeTwin(new TestApp(), body.limits())) {
      // /consume fails its callback with the read failure itself, /echo with a wrapper of it.
      for (String path : List.of("/consume", "/echo", "/fixed")) {
        HttpTester.Response http =
            twin.request(
                "POST "
                    + path
                    + " HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + body.chunkedHttpBody());
        UPResponse rpcResponse = rpc.call(body.message(path, true).build());

        assertEquals(http.getStatus(), rpcResponse.getHttpStatus(), path);
        assertEquals(http.getContent(), rpcResponse.getBody().toStringUtf8(), path);
      }
    }
  }

  @Test
  void handleRequest_bodyErrorStatusNotAClientError_isReadAs400() throws Exception {
    UPRequest.Builder up = chunkedPost("/consume", ByteString.copyFromUtf8("abc"), false);
    up.getRequestBuilder().setBodyErrorStatus(200);

    UPResponse response = start(RequestLimits.defaults()).call(up.build());

    assertEquals(400, response.getHttpStatus());
  }

  @Test
  void handleRequest_bodyOverLimit_appThatDoesNotReadAnswersNormally() throws Exception {
    UPResponse response =
        start(small()).call(BrokenBody.OVER_LIMIT.message("/fixed", false).build());

    assertEquals(200, response.getHttpStatus());
    assertEquals("abcdef", response.getBody().toStringUtf8());
  }

  @Test
  void handleRequest_contentLengthOverLimitGets413BeforeTheApp() throws Exception {
    UPRequest.Builder up = get("/seen");
    up.getRequestBuilder().addHeaders(header("Content-Length", Integer.toString(SMALL + 1)));

    UPResponse response = start(small()).call(up.build());

    assertEquals(413, response.getHttpStatus());
    assertTrue(app.seen.isEmpty());
  }

  /** A response over the limit before it is committed: declared, or written. */
  @ParameterizedTest
  @ValueSource(strings = {"/declare?n=", "/write?n="})
  void handleRequest_oversizeResponseBeforeCommitGets500Page(String path) throws Exception {
    UPResponse response = start(small()).call(get(path + (SMALL + 1)).build());

    assertEquals(UPResponse.Error.OK, response.getError());
    assertEquals(500, response.getHttpStatus());
    assertTrue(response.getBody().toStringUtf8().contains("500"));
  }

  @Test
  void handleRequest_overflowAfterCommitIsResponseTooLarge() throws Exception {
    UPResponse response = start(small()).call(get("/write?commitFirst&n=" + SMALL).build());

    assertEquals(UPResponse.Error.RESPONSE_TOO_LARGE, response.getError());
    assertEquals(500, response.getHttpStatus());
    assertTrue(response.getBody().isEmpty());
    assertEquals(0, response.getHeadersCount());
    assertFalse(response.getErrorMessage().contains("Exception"));
  }

  @Test
  void handleRequest_ignoredResponseLimitLetsTheWholeResponseThrough() throws Exception {
    UPResponse response =
        start(small().withIgnoreResponseSizeLimit(true))
            .call(get("/write?commitFirst&n=" + (3 * SMALL)).build());

    assertEquals(UPResponse.Error.OK, response.getError());
    assertEquals(3 * SMALL + 10, response.getBody().size());
    assertTrue(response.getChunked());
  }

  @Test
  void handleRequest_appExceptionGets500PageWithoutDetails() throws Exception {
    UPResponse response = start(RequestLimits.defaults()).call(get("/boom").build());

    assertEquals(UPResponse.Error.OK, response.getError());
    assertEquals(500, response.getHttpStatus());
    String page = response.getBody().toStringUtf8();
    assertTrue(page.contains("500"), page);
    assertFalse(page.contains(TestApp.SECRET), page);
    assertFalse(page.contains("IllegalStateException"), page);
    assertFalse(page.contains("at dev.aerun"), page);
  }

  @Test
  void handleRequest_unknownPathGets404Page() throws Exception {
    UPResponse response = start(RequestLimits.defaults()).call(get("/nothing").build());

    assertEquals(404, response.getHttpStatus());
  }

  @Test
  void handleRequest_responseCarriesTheRuntimesDate() throws Exception {
    long before = System.currentTimeMillis() / 1000 * 1000;
    UPResponse response = start(RequestLimits.defaults()).call(get("/fixed").build());
    long after = System.currentTimeMillis();

    long date = org.eclipse.jetty.http.DateParser.parseDate(headerValue(response, "Date"));
    assertTrue(date >= before && date <= after, headerValue(response, "Date"));
  }

  /** A response written whole has a length; one flushed before its end is chunked. */
  @ParameterizedTest
  @CsvSource({
    "/fixed, false, 'Date: <date>|Content-Type: text/plain|Content-Length: 6'",
    "/chunked, true, 'Date: <date>|Content-Type: text/plain'"
  })
  void handleRequest_responseIsChunkedOnlyIfFlushedBeforeItsEnd(
      String path, boolean chunked, String headers) throws Exception {
    UPResponse response = start(RequestLimits.defaults()).call(get(path).build());

    assertEquals(chunked, response.getChunked());
    assertEquals(List.of(headers.split("\\|")), headerLines(response));
    assertEquals("abcdef", response.getBody().toStringUtf8());
  }

  @Test
  void handleRequest_headRequestKeepsLengthButNoBody() throws Exception {
    UPRequest.Builder up = get("/fixed");
    up.getRequestBuilder().setMethod("HEAD");

    UPResponse response = start(RequestLimits.defaults()).call(up.build());

    assertEquals("6", headerValue(response, "Content-Length"));
    assertTrue(response.getBody().isEmpty());
  }

  @Test
  void handleRequest_responseHeadersAreWhatHttpConnectorModeSends() throws Exception {
    start(RequestLimits.defaults());
    try (HttpConnectorModeTwin twin =
        new HttpConnectorModeTwin(new TestApp(), RequestLimits.defaults())) {
      for (String path : List.of("/fixed", "/chunked", "/headers", "/boom", "/nothing", "/seen")) {
        HttpTester.Response http =
            twin.request("GET " + path + " HTTP/1.1\r\nHost: example.com\r\n\r\n");
        UPResponse rpc = this.rpc.call(get(path).build());
        app.seen.clear();

        List<String> expected = new ArrayList<>();
        boolean chunked = false;
        for (HttpField field : http) {
          switch (field.getName()) {
            case "Date" -> expected.add("Date: <date>");
            case "Transfer-Encoding" -> chunked = field.getValue().equals("chunked");
            default -> expected.add(field.getName() + ": " + field.getValue());
          }
        }
        assertEquals(http.getStatus(), rpc.getHttpStatus(), path);
        assertEquals(expected, headerLines(rpc), path);
        assertEquals(chunked, rpc.getChunked(), path);
        assertArrayEquals(http.getContentBytes(), rpc.getBody().toByteArray(), path);
      }
    }
  }

  @Test
  void handleRequest_appLogLinesComeBackWithTheResponse() throws Exception {
    UPResponse response = start(RequestLimits.defaults()).call(get("/log").build());

    assertEquals("logged", response.getBody().toStringUtf8());
    List<AppLogLine> lines = response.getAppLogsList();
    assertEquals(3, lines.size(), lines.toString());
    assertEquals("hello", lines.get(0).getMessage());
    assertEquals(1, lines.get(0).getLevel());
    assertEquals("test.app", lines.get(0).getSourceLocation());
    assertEquals("careful now", lines.get(1).getMessage());
    assertEquals(2, lines.get(1).getLevel());
    assertEquals(3, lines.get(2).getLevel());
    long nowMicros = System.currentTimeMillis() * 1000;
    assertTrue(Math.abs(nowMicros - lines.get(0).getTimestampUsec()) < 60_000_000L);
  }

  @Test
  void handleRequest_linesLoggedOutsideRequestsAreNotCaptured() throws Exception {
    start(RequestLimits.defaults());
    java.util.logging.Logger.getLogger("test.app").info("outside any request");

    UPResponse response = rpc.call(get("/fixed").build());

    assertEquals(0, response.getAppLogsCount());
  }

  @Test
  void handleRequest_cancelledCallAbortsTheRequest() throws Exception {
    start(RequestLimits.defaults());
    EvaluationRuntimeGrpc.EvaluationRuntimeStub async = EvaluationRuntimeGrpc.newStub(rpc.channel);
    AtomicReference<ClientCallStreamObserver<UPRequest>> call = new AtomicReference<>();
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    AtomicReference<UPResponse> answer = new AtomicReference<>();
    async.handleRequest(
        get("/hang").build(),
        new ClientResponseObserver<UPRequest, UPResponse>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<UPRequest> requestStream) {
            call.set(requestStream);
          }

          @Override
          public void onNext(UPResponse value) {
            // The abort's answer may still cross the cancellation on its way back.
            answer.set(value);
          }

          @Override
          public void onError(Throwable t) {
            outcome.complete(t);
          }

          @Override
          public void onCompleted() {
            // The abort's answer crossed the cancellation and won: a normal end, checked below.
            outcome.complete(null);
          }
        });
    assertNotNull(app.hanging.poll(5, TimeUnit.SECONDS), "the app never got the request");

    call.get().cancel("client went away", null);

    assertNotNull(app.failures.poll(5, TimeUnit.SECONDS), "the request was not aborted");
    Throwable failure = outcome.get(5, TimeUnit.SECONDS);
    UPResponse crossed = answer.get();
    if (failure != null) {
      assertEquals(Status.Code.CANCELLED, Status.fromThrowable(failure).getCode());
    } else {
      assertNotNull(crossed, "the call completed without an answer");
    }
    if (crossed != null) {
      assertNotEquals(200, crossed.getHttpStatus(), "the app finished normally: " + crossed);
    }
  }

  @Test
  void handleRequest_deadlineAbortsTheRequest() throws Exception {
    start(RequestLimits.defaults());

    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                rpc.stub
                    .withDeadlineAfter(300, TimeUnit.MILLISECONDS)
                    .handleRequest(get("/hang").build()));

    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
    assertNotNull(app.failures.poll(5, TimeUnit.SECONDS), "the request was not aborted");
  }

  @ParameterizedTest(name = "started: {0}")
  @ValueSource(booleans = {false, true})
  void handleRequest_notStartedOrStoppedIsUnknownApp(boolean started) throws Exception {
    rpc = new InProcessRuntime(app, RequestLimits.defaults(), started);
    if (started) {
      rpc.runtime.stop();
    }

    UPResponse response = rpc.call(get("/fixed").build());

    assertEquals(UPResponse.Error.UNKNOWN_APP, response.getError());
    assertEquals(503, response.getHttpStatus());
  }

  @Test
  void stop_answersCallsInProgressWithUnknownApp() throws Exception {
    start(RequestLimits.defaults());
    com.google.common.util.concurrent.ListenableFuture<UPResponse> pending =
        EvaluationRuntimeGrpc.newFutureStub(rpc.channel).handleRequest(get("/hang").build());
    assertNotNull(app.hanging.poll(5, TimeUnit.SECONDS), "the app never got the request");

    rpc.runtime.stop();

    UPResponse response = pending.get(5, TimeUnit.SECONDS);
    assertEquals(UPResponse.Error.UNKNOWN_APP, response.getError());
    assertEquals(503, response.getHttpStatus());
    assertFalse(rpc.runtime.isRunning());
  }

  @Test
  void handleRequest_malformedUrlIsBadRequest() throws Exception {
    UPRequest.Builder up = get("/fixed");
    up.getRequestBuilder().setUrl("/no/authority");

    UPResponse response = start(RequestLimits.defaults()).call(up.build());

    assertEquals(UPResponse.Error.BAD_REQUEST, response.getError());
    assertEquals(400, response.getHttpStatus());
  }

  @Test
  void server_hasOnlyTheRpcConnectorAndNamedThreads() throws Exception {
    start(RequestLimits.defaults());

    assertEquals(1, rpc.runtime.server().getConnectors().length);
    assertInstanceOf(RpcConnector.class, rpc.runtime.server().getConnectors()[0]);
    assertEquals(
        "aerun-rpc",
        ((org.eclipse.jetty.util.thread.QueuedThreadPool) rpc.runtime.server().getThreadPool())
            .getName());
  }

  /** Every header as {@code Name: value}, but the clock's {@code Date} as {@code Date: <date>}. */
  private static List<String> headerLines(UPResponse response) {
    List<String> lines = new ArrayList<>();
    for (dev.aerun.rpc.proto.HttpHeader h : response.getHeadersList()) {
      lines.add(h.getName() + ": " + (h.getName().equals("Date") ? "<date>" : h.getValue()));
    }
    return lines;
  }

  private static byte[] random(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }
}
