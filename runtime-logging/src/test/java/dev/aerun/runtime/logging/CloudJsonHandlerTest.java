package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.aerun.runtime.contract.TraceContext;
import dev.aerun.startline.StartLine;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CloudJsonHandlerTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN_ID = "00f067aa0ba902b7";

  private final Lines lines = new Lines();
  private final CloudJsonHandler handler = new CloudJsonHandler(lines.out, "my-project");
  private final Logger logger = Lines.loggerTo("test.json", handler);

  @AfterEach
  void noTraceLeftBehind() {
    RequestTrace.restore(null);
  }

  @Test
  void lineHasSeverityMessageTimeAndSourceLocation() {
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    int line = nextLine();
    logger.info("hello from a test");

    JsonObject entry = single();
    assertEquals("INFO", entry.get("severity").getAsString());
    assertEquals("hello from a test", entry.get("message").getAsString());
    Instant time = Instant.parse(entry.get("time").getAsString());
    assertFalse(time.isBefore(before), time + " before " + before);
    JsonObject source = entry.getAsJsonObject("logging.googleapis.com/sourceLocation");
    assertEquals("CloudJsonHandlerTest.java", source.get("file").getAsString());
    assertEquals(String.valueOf(line), source.get("line").getAsString());
    assertEquals(
        CloudJsonHandlerTest.class.getName() + ".lineHasSeverityMessageTimeAndSourceLocation",
        source.get("function").getAsString());
    assertEquals(
        "test.json",
        entry.getAsJsonObject("logging.googleapis.com/labels").get("logger").getAsString());
  }

  @Test
  void noTraceOutsideARequest() {
    logger.info("idle");
    JsonObject entry = single();
    assertFalse(entry.has("logging.googleapis.com/trace"), entry.toString());
    assertFalse(entry.has("logging.googleapis.com/spanId"), entry.toString());
  }

  @Test
  void currentRequestTraceIsOnTheLine() {
    RequestTrace.set(new TraceContext(TRACE_ID, SPAN_ID, true));
    logger.warning("inside a request");

    JsonObject entry = single();
    assertEquals("WARNING", entry.get("severity").getAsString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        entry.get("logging.googleapis.com/trace").getAsString());
    assertEquals(SPAN_ID, entry.get("logging.googleapis.com/spanId").getAsString());
    assertTrue(entry.get("logging.googleapis.com/trace_sampled").getAsBoolean());
  }

  @Test
  void traceWithoutProjectIsTheBareId() {
    CloudJsonHandler noProject = new CloudJsonHandler(lines.out, null);
    String json =
        noProject.format(
            new java.util.logging.LogRecord(Level.INFO, "x"),
            new TraceContext(TRACE_ID, null, false));
    JsonObject entry = com.google.gson.JsonParser.parseString(json).getAsJsonObject();
    assertEquals(TRACE_ID, entry.get("logging.googleapis.com/trace").getAsString());
    assertFalse(entry.has("logging.googleapis.com/spanId"), json);
  }

  @Test
  void exceptionIsErrorWithItsStackTraceInTheMessage() {
    logger.log(Level.SEVERE, "it failed", new IllegalStateException("boom"));

    JsonObject entry = single();
    assertEquals("ERROR", entry.get("severity").getAsString());
    String message = entry.get("message").getAsString();
    assertTrue(message.startsWith("it failed\njava.lang.IllegalStateException: boom\n"), message);
    assertTrue(message.contains("\tat " + CloudJsonHandlerTest.class.getName()), message);
  }

  @Test
  void parametersAreFilledIn() {
    logger.log(Level.INFO, "{0} and {1}", new Object[] {"one", 2});
    assertEquals("one and 2", single().get("message").getAsString());
  }

  @Test
  void levelsMapToSeverities() {
    logger.severe("s");
    logger.warning("w");
    logger.info("i");
    logger.config("c");
    logger.fine("f");
    logger.finest("t");
    assertEquals(
        java.util.List.of("ERROR", "WARNING", "INFO", "INFO", "DEBUG", "DEBUG"),
        lines.json().stream().map(e -> e.get("severity").getAsString()).toList());
  }

  @Test
  void slf4jLinesThroughJulCarrySourceAndTrace() {
    // slf4j-jdk14 (as in the runtime) sends SLF4J to JUL, naming the caller as the source.
    Lines.loggerTo("test.slf4j", handler);
    RequestTrace.set(new TraceContext(TRACE_ID, SPAN_ID, false));
    int line = nextLine();
    org.slf4j.LoggerFactory.getLogger("test.slf4j").info("via {}", "slf4j");

    JsonObject entry = single();
    assertEquals("via slf4j", entry.get("message").getAsString());
    JsonObject source = entry.getAsJsonObject("logging.googleapis.com/sourceLocation");
    assertEquals(String.valueOf(line), source.get("line").getAsString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        entry.get("logging.googleapis.com/trace").getAsString());
    assertFalse(entry.get("logging.googleapis.com/trace_sampled").getAsBoolean());
  }

  @Test
  void accessRecordIsAnHttpRequestEntry() {
    logger.log(
        new AccessRecord(
            "POST",
            "/submit?x=1",
            201,
            1234,
            1_500_000_123L,
            "203.0.113.7",
            "curl/8.5.0",
            "https://example.com/",
            new TraceContext(TRACE_ID, SPAN_ID, true)));

    JsonObject entry = single();
    assertEquals("INFO", entry.get("severity").getAsString());
    JsonObject http = entry.getAsJsonObject("httpRequest");
    assertEquals("POST", http.get("requestMethod").getAsString());
    assertEquals("/submit?x=1", http.get("requestUrl").getAsString());
    assertEquals(201, http.get("status").getAsInt());
    assertEquals(1234, http.get("responseSize").getAsLong());
    assertEquals("203.0.113.7", http.get("remoteIp").getAsString());
    assertEquals("curl/8.5.0", http.get("userAgent").getAsString());
    assertEquals("https://example.com/", http.get("referer").getAsString());
    assertEquals("1.500000123s", http.get("latency").getAsString());
    assertEquals(
        "projects/my-project/traces/" + TRACE_ID,
        entry.get("logging.googleapis.com/trace").getAsString());
    assertEquals(SPAN_ID, entry.get("logging.googleapis.com/spanId").getAsString());
    assertEquals(
        "POST /submit?x=1 201 1234 B 1500.0 ms 203.0.113.7 \"curl/8.5.0\"",
        entry.get("message").getAsString());
    assertFalse(entry.has("logging.googleapis.com/sourceLocation"), entry.toString());
  }

  /**
   * The request-log line is written without the library (see {@link JsonLines}); it must be the
   * library's line to the character, whatever the values.
   */
  @Test
  void accessLine_isExactlyTheLibrarysLine_forEveryKindOfValue() {
    String tricky = "q=<a&b>'\"\\\n\r\t\b\f\u0001\u001f\u007f\u2028\u2029é€😀";
    TraceContext sampled = new TraceContext(TRACE_ID, SPAN_ID, true);
    TraceContext unsampled = new TraceContext(TRACE_ID, null, false);
    AccessRecord[] records = {
      new AccessRecord("GET", "/", 200, 0, 0, null, null, null, null),
      new AccessRecord("POST", "/echo", 201, 1234, 1, "127.0.0.1", "curl/8", null, sampled),
      new AccessRecord(
          "PURGE", "/p?" + tricky, 404, 5, 999_999_999L, "::1", tricky, tricky, unsampled),
      new AccessRecord(
          "HEAD", "/x", 503, Long.MAX_VALUE, 12_345_678_901L, "203.0.113.7", "", "", sampled),
      new AccessRecord("OPTIONS", "*", 100, -1, 1_000_000_000L, null, null, "r", null),
    };
    CloudJsonHandler withProject = new CloudJsonHandler(lines.out, "my-project");
    CloudJsonHandler withoutProject = new CloudJsonHandler(lines.out, null);
    for (AccessRecord record : records) {
      for (CloudJsonHandler h : new CloudJsonHandler[] {withProject, withoutProject}) {
        assertEquals(LibraryLines.format(h, record, null), h.format(record, null));
      }
    }
    // Times with fewer digits (whole seconds, milliseconds) are written as the library writes them.
    AccessRecord atWholeSecond = new AccessRecord("GET", "/t", 200, 0, 0, null, null, null, null);
    atWholeSecond.setInstant(Instant.parse("2026-11-23T10:00:00Z"));
    AccessRecord atMillis = new AccessRecord("GET", "/t", 200, 0, 0, null, null, null, null);
    atMillis.setInstant(Instant.parse("2026-11-23T10:00:00.120Z"));
    for (AccessRecord record : new AccessRecord[] {atWholeSecond, atMillis}) {
      assertEquals(LibraryLines.format(handler, record, null), handler.format(record, null));
    }
  }

  /**
   * Every other line is written without the library too (see {@link JsonLines}), so that none of
   * its classes load: it must be the library's line to the character, whatever the record.
   */
  @Test
  void recordLine_isExactlyTheLibrarysLine_forEveryKindOfRecord() {
    String tricky = "q=<a&b>'\"\\\n\r\t\b\f\u0001\u001f\u007f\u2028\u2029é€😀";
    TraceContext sampled = new TraceContext(TRACE_ID, SPAN_ID, true);
    TraceContext unsampled = new TraceContext(TRACE_ID, null, false);
    java.util.List<java.util.logging.LogRecord> records = new java.util.ArrayList<>();
    for (Level level :
        new Level[] {
          Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE, Level.ALL
        }) {
      records.add(new java.util.logging.LogRecord(level, "plain " + level));
    }
    java.util.logging.LogRecord named = new java.util.logging.LogRecord(Level.INFO, tricky);
    named.setLoggerName("a.b" + tricky);
    records.add(named);
    java.util.logging.LogRecord withParameters =
        new java.util.logging.LogRecord(Level.INFO, "{0} and {1}");
    withParameters.setParameters(new Object[] {"one", 2});
    withParameters.setLoggerName("params");
    records.add(withParameters);
    java.util.logging.LogRecord withException = new java.util.logging.LogRecord(Level.WARNING, "");
    withException.setThrown(new IllegalStateException("boom " + tricky));
    records.add(withException);
    java.util.logging.LogRecord nullMessage = new java.util.logging.LogRecord(Level.INFO, null);
    records.add(nullMessage);
    // Logged here: the library's line and ours both name this frame as the source.
    java.util.logging.LogRecord withSource = new java.util.logging.LogRecord(Level.INFO, "src");
    withSource.setLoggerName("test.json");
    withSource.setSourceClassName(CloudJsonHandlerTest.class.getName());
    withSource.setSourceMethodName("recordLine_isExactlyTheLibrarysLine_forEveryKindOfRecord");
    records.add(withSource);
    java.util.logging.LogRecord atWholeSecond = new java.util.logging.LogRecord(Level.INFO, "t");
    atWholeSecond.setInstant(Instant.parse("2026-11-23T10:00:00Z"));
    records.add(atWholeSecond);

    CloudJsonHandler withoutProject = new CloudJsonHandler(lines.out, null);
    int compared = 0;
    for (java.util.logging.LogRecord record : records) {
      for (TraceContext trace : new TraceContext[] {null, sampled, unsampled}) {
        for (CloudJsonHandler h : new CloudJsonHandler[] {handler, withoutProject}) {
          assertEquals(LibraryLines.format(h, record, trace), h.format(record, trace));
          compared++;
        }
      }
    }
    assertTrue(
        handler.format(withSource, null).contains("\"logging.googleapis.com/sourceLocation\""));
    assertEquals(records.size() * 6, compared);
  }

  @Test
  void accessLine_publishedAsUtf8Bytes_isTheLibrarysLine_shortOrLong() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    CloudJsonHandler toBytes =
        new CloudJsonHandler(
            new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8),
            "my-project");
    String longPath = "/long/" + "é€😀x".repeat(2000);
    AccessRecord[] records = {
      new AccessRecord("GET", "/short", 200, 1, 2, "127.0.0.1", "curl/8", null, null),
      new AccessRecord("GET", longPath, 200, 1, 2, "127.0.0.1", "agent é€😀", "r", null),
      new AccessRecord("GET", "/after-the-long-one", 200, 1, 2, null, null, null, null),
    };
    StringBuilder expected = new StringBuilder();
    for (AccessRecord record : records) {
      toBytes.publish(record);
      expected.append(LibraryLines.format(toBytes, record, null)).append(System.lineSeparator());
    }
    toBytes.flush();
    assertEquals(expected.toString(), bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void serverErrorsAreErrorsAndClientErrorsWarnings() {
    logger.log(new AccessRecord("GET", "/a", 503, 0, 0, null, null, null, null));
    logger.log(new AccessRecord("GET", "/b", 404, 0, 0, null, null, null, null));
    handler.flush();
    assertEquals(
        java.util.List.of("ERROR", "WARNING"),
        lines.json().stream().map(e -> e.get("severity").getAsString()).toList());
  }

  @Test
  void startLineKeepsTheAddressTheHarnessLooksFor() {
    logger.info(
        StartLine.format(
            "app.war in HttpConnector mode (EE10) on Jetty 12.1.7", "127.0.0.1", 8123, 812, ""));
    assertEquals(
        Optional.of(new StartLine("127.0.0.1", 8123, 812)), StartLine.find(lines.all().get(0)));
  }

  private JsonObject single() {
    handler.flush();
    assertEquals(1, lines.all().size(), lines.all().toString());
    return lines.json().get(0);
  }

  /** The line number after the caller's. */
  private static int nextLine() {
    return StackWalker.getInstance().walk(s -> s.skip(1).findFirst()).orElseThrow().getLineNumber()
        + 1;
  }
}
