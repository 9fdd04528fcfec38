package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.TrustPolicy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The request path as both modes assemble it — contract, then {@link RequestTraceHandler}, with
 * {@link AccessLog} as the request log — in memory.
 */
class RequestPathTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

  private final Lines lines = new Lines();
  private final CloudJsonHandler json = new CloudJsonHandler(lines.out, "my-project");
  private final Logger appLogger = Lines.loggerTo("test.app", json);
  private final Logger requestLogger = Lines.loggerTo(AccessLog.LOGGER_NAME, json);
  private final List<String> remoteSeenByApp = new CopyOnWriteArrayList<>();
  private final List<Object> attributeSeenByApp = new CopyOnWriteArrayList<>();
  private Server server;
  private LocalConnector connector;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  /** Logs a line from inside the app, then answers 200 "ok" (or throws for /throw). */
  private final Handler app =
      new Handler.Abstract() {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
          remoteSeenByApp.add(Request.getRemoteAddr(request));
          attributeSeenByApp.add(request.getAttribute(AccessLog.REMOTE_ADDRESS_ATTRIBUTE));
          appLogger.info("app handling " + request.getHttpURI().getPath());
          if (request.getHttpURI().getPath().equals("/throw")) {
            throw new IllegalStateException("app failed");
          }
          response.write(true, StandardCharsets.UTF_8.encode("ok"), callback);
          return true;
        }
      };

  private void start(TrustPolicy trust) throws Exception {
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    AppEngineRequestHandler contract =
        new AppEngineRequestHandler(new ContractOptions(trust, false));
    RequestTraceHandler trace = new RequestTraceHandler(app);
    contract.setHandler(trace);
    server.setHandler(contract);
    server.setRequestLog(new AccessLog());
    server.start();
  }

  private String get(String path, String... headers) throws Exception {
    StringBuilder raw = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
    for (String header : headers) {
      raw.append(header).append("\r\n");
    }
    raw.append("Connection: close\r\n\r\n");
    String response = connector.getResponse(raw.toString());
    // The request log runs as the exchange completes; wait for it, bounded.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (lines.all().stream().noneMatch(l -> l.contains("\"httpRequest\""))
        && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return response;
  }

  @Test
  void cloudTraceHeaderIsOnTheAppLineAndTheRequestLine() throws Exception {
    start(TrustPolicy.trustNone());
    String response =
        get("/hello?x=1", "X-Cloud-Trace-Context: " + TRACE_ID + "/1;o=1", "User-Agent: t/1");
    assertTrue(response.startsWith("HTTP/1.1 200"), response);

    List<JsonObject> entries = lines.json();
    assertEquals(2, entries.size(), lines.all().toString());
    JsonObject appLine = entries.get(0);
    assertEquals("app handling /hello", appLine.get("message").getAsString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        appLine.get("logging.googleapis.com/trace").getAsString());
    assertEquals("0000000000000001", appLine.get("logging.googleapis.com/spanId").getAsString());
    assertTrue(appLine.get("logging.googleapis.com/trace_sampled").getAsBoolean());

    JsonObject requestLine = entries.get(1);
    JsonObject http = requestLine.getAsJsonObject("httpRequest");
    assertEquals("GET", http.get("requestMethod").getAsString());
    assertEquals("/hello?x=1", http.get("requestUrl").getAsString());
    assertEquals(200, http.get("status").getAsInt());
    assertEquals(2, http.get("responseSize").getAsLong());
    assertEquals("t/1", http.get("userAgent").getAsString());
    assertTrue(http.get("latency").getAsString().matches("\\d+\\.\\d{9}s"), http.toString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        requestLine.get("logging.googleapis.com/trace").getAsString());
    assertEquals(
        "0000000000000001", requestLine.get("logging.googleapis.com/spanId").getAsString());
    assertNull(RequestTrace.current(), "the trace must not outlive the request on this thread");
  }

  @Test
  void traceparentIsOnTheAppLine() throws Exception {
    start(TrustPolicy.trustNone());
    get("/tp", "traceparent: 00-" + TRACE_ID + "-00f067aa0ba902b7-00");
    JsonObject appLine = lines.json().get(0);
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        appLine.get("logging.googleapis.com/trace").getAsString());
    assertEquals("00f067aa0ba902b7", appLine.get("logging.googleapis.com/spanId").getAsString());
    assertFalse(appLine.get("logging.googleapis.com/trace_sampled").getAsBoolean());
  }

  @Test
  void requestWithoutTraceHasNone() throws Exception {
    start(TrustPolicy.trustNone());
    get("/plain");
    for (JsonObject entry : lines.json()) {
      assertFalse(entry.has("logging.googleapis.com/trace"), entry.toString());
    }
  }

  @Test
  void remoteAddressIsTheOneTheAppSaw() throws Exception {
    start(TrustPolicy.trustAll());
    get("/who", "X-AppEngine-User-IP: 203.0.113.9");
    assertEquals(List.of("203.0.113.9"), remoteSeenByApp);
    assertEquals(java.util.Collections.singletonList(null), attributeSeenByApp);
    JsonObject http = lines.json().get(1).getAsJsonObject("httpRequest");
    assertEquals("203.0.113.9", http.get("remoteIp").getAsString());
  }

  @Test
  void keepAliveRequestsFromDifferentUsers_eachLoggedWithItsOwnAddress() throws Exception {
    start(TrustPolicy.trustAll());
    // Three requests on one connection: two users behind the front end, then the front end itself.
    String raw =
        "GET /a HTTP/1.1\r\nHost: localhost\r\nX-AppEngine-User-IP: 203.0.113.1\r\n\r\n"
            + "GET /b HTTP/1.1\r\nHost: localhost\r\nX-AppEngine-User-IP: 203.0.113.2\r\n\r\n"
            + "GET /c HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    connector.getResponse(raw);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (lines.all().stream().filter(l -> l.contains("\"httpRequest\"")).count() < 3
        && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }

    List<String> remotes = new java.util.ArrayList<>();
    for (JsonObject line : lines.json()) {
      if (line.has("httpRequest")) {
        remotes.add(line.getAsJsonObject("httpRequest").get("remoteIp").getAsString());
      }
    }
    assertEquals(3, remotes.size(), lines.all().toString());
    assertEquals("203.0.113.1", remotes.get(0));
    assertEquals("203.0.113.2", remotes.get(1));
    assertFalse(remotes.get(2).startsWith("203.0.113."), remotes.get(2));
  }

  @Test
  void ipv6RemoteAddressIsWrittenWithoutBrackets() throws Exception {
    start(TrustPolicy.trustAll());
    get("/v6", "X-AppEngine-User-IP: 2001:db8::7");
    JsonObject http = lines.json().get(1).getAsJsonObject("httpRequest");
    assertEquals("2001:db8:0:0:0:0:0:7", http.get("remoteIp").getAsString());
  }

  @Test
  void handlerExceptionIsLoggedInTheRequestsTrace() throws Exception {
    // Jetty warns about the failure through SLF4J -> JUL (slf4j-jdk14, as in the runtime).
    Logger jettyResponse = Lines.loggerTo("org.eclipse.jetty.server.Response", json);
    jettyResponse.setLevel(Level.INFO);
    start(TrustPolicy.trustNone());
    String response = get("/throw", "X-Cloud-Trace-Context: " + TRACE_ID);
    assertTrue(response.startsWith("HTTP/1.1 500"), response);
    JsonObject warning =
        lines.json().stream()
            .filter(e -> e.get("message").getAsString().contains("app failed"))
            .filter(e -> !e.has("httpRequest"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(lines.all()));
    assertEquals("WARNING", warning.get("severity").getAsString());
    assertTrue(
        warning
            .get("message")
            .getAsString()
            .contains("java.lang.IllegalStateException: app failed"),
        warning.toString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        warning.get("logging.googleapis.com/trace").getAsString());
    JsonObject requestLine =
        lines.json().stream().filter(e -> e.has("httpRequest")).findFirst().orElseThrow();
    assertEquals(500, requestLine.getAsJsonObject("httpRequest").get("status").getAsInt());
    assertEquals("ERROR", requestLine.get("severity").getAsString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        requestLine.get("logging.googleapis.com/trace").getAsString());
    assertNull(RequestTrace.current());
  }

  @Test
  void requestLogOffCostsNothingVisible() throws Exception {
    requestLogger.setLevel(Level.OFF);
    start(TrustPolicy.trustNone());
    connector.getResponse("GET /quiet HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    Thread.sleep(50);
    assertTrue(
        lines.all().stream().noneMatch(l -> l.contains("httpRequest")), lines.all().toString());
  }

  @Test
  void asyncCompletionOnAnotherThreadStillGetsItsRequestLine() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    AppEngineRequestHandler contract =
        new AppEngineRequestHandler(new ContractOptions(TrustPolicy.trustNone(), false));
    contract.setHandler(
        new RequestTraceHandler(
            new Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                new Thread(
                        () -> {
                          // Another thread: the trace is not published here (documented).
                          appLogger.info("async " + (RequestTrace.current() == null));
                          response.write(true, StandardCharsets.UTF_8.encode("late"), callback);
                          done.countDown();
                        })
                    .start();
                return true;
              }
            }));
    server.setHandler(contract);
    server.setRequestLog(new AccessLog());
    server.start();
    get("/async", "X-Cloud-Trace-Context: " + TRACE_ID);
    assertTrue(done.await(5, TimeUnit.SECONDS));
    JsonObject requestLine =
        lines.json().stream().filter(e -> e.has("httpRequest")).findFirst().orElseThrow();
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        requestLine.get("logging.googleapis.com/trace").getAsString());
    JsonObject asyncLine =
        lines.json().stream()
            .filter(e -> e.get("message").getAsString().startsWith("async"))
            .findFirst()
            .orElseThrow();
    assertEquals("async true", asyncLine.get("message").getAsString());
  }
}
