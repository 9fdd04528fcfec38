package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The runtime's logs as the platform reads them: the child's stdout is a file, not a terminal, so
 * the default format is Cloud Logging's structured JSON, one object per line. The sample logging
 * app logs through java.util.logging and SLF4J and has a servlet that throws; one subclass per EE
 * version runs the same checks on the app built for it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LogsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROJECT = "e2e-project";
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private final String war;
  private RuntimeProcess runtime;

  LogsTest(String war) {
    this.war = war;
  }

  @BeforeAll
  void start() throws Exception {
    runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war))
                .args("--trusted-proxies", "127.0.0.1", "--request-log", "on")
                .env("GOOGLE_CLOUD_PROJECT", PROJECT));
    runtime.port();
  }

  @Test
  void everyLineIsAJsonEntryWithSeverityTimeAndMessage() throws Exception {
    Http.get(runtime.uri("/log?id=all"));
    awaitEntry(runtime, requestLine("/log?id=all"));
    String[] lines = runtime.output().split("\n");
    assertTrue(lines.length > 3, runtime.output());
    for (String line : lines) {
      JsonNode entry = JSON.readTree(line);
      assertTrue(entry.hasNonNull("severity"), line);
      assertTrue(entry.hasNonNull("time"), line);
      assertTrue(entry.hasNonNull("message"), line);
    }
  }

  @Test
  void startLineIsAJsonEntryThatStillNamesTheAddress() throws Exception {
    JsonNode start =
        awaitEntry(runtime, e -> e.path("message").asText().startsWith("Serving " + war + " in "));
    assertEquals("INFO", start.path("severity").asText());
    assertTrue(
        start.path("message").asText().contains(" at http://127.0.0.1:" + runtime.port() + "/"),
        start.toString());
  }

  @Test
  void cloudTraceContextIsOnTheAppsLinesAndTheRequestLine() throws Exception {
    assertEquals(
        200,
        Http.get(runtime.uri("/log?id=ctc"), "X-Cloud-Trace-Context", TRACE_ID + "/12345;o=1")
            .statusCode());
    String trace = "projects/" + PROJECT + "/traces/" + TRACE_ID;
    String span = "0000000000003039"; // 12345

    JsonNode jul = awaitEntry(runtime, message("jul line ctc"));
    assertTraced(jul, trace, span, true);
    assertEquals("INFO", jul.path("severity").asText());
    JsonNode source = jul.path("logging.googleapis.com/sourceLocation");
    assertEquals("LogServlet.java", source.path("file").asText(), jul.toString());
    assertEquals("dev.aerun.sample.logging.LogServlet.doGet", source.path("function").asText());
    assertTrue(source.path("line").asInt() > 0, jul.toString());

    JsonNode slf4j = awaitEntry(runtime, message("slf4j line ctc"));
    assertTraced(slf4j, trace, span, true);
    assertEquals("WARNING", slf4j.path("severity").asText());
    assertEquals(
        "LogServlet.java",
        slf4j.path("logging.googleapis.com/sourceLocation").path("file").asText(),
        slf4j.toString());

    JsonNode request = awaitEntry(runtime, requestLine("/log?id=ctc"));
    assertTraced(request, trace, span, true);
    JsonNode http = request.path("httpRequest");
    assertEquals("GET", http.path("requestMethod").asText());
    assertEquals(200, http.path("status").asInt());
    assertEquals("logged ctc".length(), http.path("responseSize").asInt());
    assertEquals("127.0.0.1", http.path("remoteIp").asText());
    assertTrue(http.path("userAgent").asText().startsWith("Java-http-client"), http.toString());
    assertTrue(http.path("latency").asText().matches("\\d+\\.\\d{9}s"), http.toString());
  }

  @Test
  void traceparentIsOnTheAppsLinesAndTheRequestLine() throws Exception {
    String traceId = "0af7651916cd43dd8448eb211c80319c";
    Http.get(runtime.uri("/log?id=w3c"), "traceparent", "00-" + traceId + "-b7ad6b7169203331-00");
    String trace = "projects/" + PROJECT + "/traces/" + traceId;
    assertTraced(awaitEntry(runtime, message("jul line w3c")), trace, "b7ad6b7169203331", false);
    assertTraced(awaitEntry(runtime, message("slf4j line w3c")), trace, "b7ad6b7169203331", false);
    assertTraced(awaitEntry(runtime, requestLine("/log?id=w3c")), trace, "b7ad6b7169203331", false);
  }

  @Test
  void exceptionJettyLogsForAThrowingServletIsInTheRequestsTrace() throws Exception {
    String traceId = "11111111111111112222222222222222";
    assertEquals(
        500,
        Http.get(
                runtime.uri("/throw?id=boom"),
                "traceparent",
                "00-" + traceId + "-00f067aa0ba902b7-01")
            .statusCode());
    String trace = "projects/" + PROJECT + "/traces/" + traceId;
    JsonNode failure =
        awaitEntry(
            runtime,
            e ->
                !e.has("httpRequest")
                    && e.path("message").asText().contains("sample logging failure boom"));
    assertTraced(failure, trace, "00f067aa0ba902b7", true);
    assertTrue(
        failure.path("message").asText().contains("\tat dev.aerun.sample.logging.ThrowServlet"),
        failure.toString());
    assertTrue(
        List.of("WARNING", "ERROR").contains(failure.path("severity").asText()),
        failure.toString());

    JsonNode request = awaitEntry(runtime, requestLine("/throw?id=boom"));
    assertEquals(500, request.path("httpRequest").path("status").asInt());
    assertEquals("ERROR", request.path("severity").asText());
    assertTraced(request, trace, "00f067aa0ba902b7", true);
  }

  @Test
  void requestWithoutTraceHeaderHasNoTrace() throws Exception {
    Http.get(runtime.uri("/log?id=none"));
    assertFalse(awaitEntry(runtime, message("jul line none")).has("logging.googleapis.com/trace"));
    assertFalse(
        awaitEntry(runtime, requestLine("/log?id=none")).has("logging.googleapis.com/trace"));
  }

  @Test
  void requestLineHasTheRemoteAddressTheAppSaw() throws Exception {
    // 127.0.0.1 is a trusted proxy here, so X-AppEngine-User-IP is the client's address.
    Http.get(runtime.uri("/log?id=ip"), "X-AppEngine-User-IP", "203.0.113.5");
    assertEquals(
        "203.0.113.5",
        awaitEntry(runtime, requestLine("/log?id=ip"))
            .path("httpRequest")
            .path("remoteIp")
            .asText());
  }

  @Test
  void textFormatOnRequestIsOneReadableLinePerRecord() throws Exception {
    RuntimeProcess text =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app(war))
                .args("--log-format", "text", "--request-log", "on"));
    Http.get(text.uri("/log?id=txt"), "X-Cloud-Trace-Context", TRACE_ID + "/7");
    String suffix = " [trace " + TRACE_ID + "/0000000000000007]";
    awaitLine(text, l -> l.contains(" aerun.request - GET /log?id=txt 200 10 B "));
    String output = text.output();
    assertTrue(
        output
            .lines()
            .anyMatch(
                l ->
                    l.contains(
                        " INFO dev.aerun.sample.logging.LogServlet - jul line txt" + suffix)),
        output);
    assertTrue(
        output
            .lines()
            .anyMatch(
                l ->
                    l.contains(" aerun.request - GET /log?id=txt 200 10 B ") && l.endsWith(suffix)),
        output);
    assertTrue(
        output
            .lines()
            .anyMatch(l -> l.contains(" INFO dev.aerun.main.RuntimeStarter - Serving " + war)),
        output);
    assertFalse(output.contains("\"severity\""), output);
  }

  private static void assertTraced(JsonNode entry, String trace, String span, boolean sampled) {
    assertEquals(trace, entry.path("logging.googleapis.com/trace").asText(), entry.toString());
    assertEquals(span, entry.path("logging.googleapis.com/spanId").asText(), entry.toString());
    assertEquals(
        sampled, entry.path("logging.googleapis.com/trace_sampled").asBoolean(), entry.toString());
  }

  private static Predicate<JsonNode> message(String text) {
    return e -> e.path("message").asText().equals(text);
  }

  private static Predicate<JsonNode> requestLine(String pathQuery) {
    return e -> pathQuery.equals(e.path("httpRequest").path("requestUrl").asText(null));
  }

  /** The first JSON entry the runtime printed that matches, waiting for it up to 10 s. */
  private static JsonNode awaitEntry(RuntimeProcess runtime, Predicate<JsonNode> matches)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    do {
      for (JsonNode entry : entries(runtime.output())) {
        if (matches.test(entry)) {
          return entry;
        }
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    throw new AssertionError("no such log entry in:\n" + runtime.output());
  }

  private static void awaitLine(RuntimeProcess runtime, Predicate<String> matches)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (runtime.output().lines().noneMatch(matches)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no such log line in:\n" + runtime.output());
      }
      Thread.sleep(20);
    }
  }

  /** The complete JSON lines printed so far (a line being written may be cut short). */
  private static List<JsonNode> entries(String output) {
    List<JsonNode> entries = new ArrayList<>();
    for (String line : output.split("\n")) {
      try {
        entries.add(JSON.readTree(line));
      } catch (Exception notYetComplete) {
        // skipped; the next poll sees it whole
      }
    }
    return entries;
  }
}
