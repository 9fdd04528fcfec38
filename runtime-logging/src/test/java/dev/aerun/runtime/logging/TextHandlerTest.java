package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.contract.TraceContext;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class TextHandlerTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

  private final Lines lines = new Lines();
  private final TextHandler handler = new TextHandler(lines.out, ZoneOffset.UTC);

  @Test
  void oneLineWithTimeLevelLoggerAndMessage() {
    assertEquals(
        "2026-11-22 07:53:41.123 INFO app.Hello - hi there",
        handler.format(record(Level.INFO, "hi there"), null));
  }

  @Test
  void traceFollowsTheMessage() {
    assertEquals(
        "2026-11-22 07:53:41.123 WARNING app.Hello - careful [trace "
            + TRACE_ID
            + "/00f067aa0ba902b7]",
        handler.format(
            record(Level.WARNING, "careful"),
            new TraceContext(TRACE_ID, "00f067aa0ba902b7", true)));
  }

  @Test
  void stackTraceOnTheFollowingLinesAfterTheTrace() {
    LogRecord record = record(Level.SEVERE, "failed");
    record.setThrown(new IllegalStateException("boom"));
    String text = handler.format(record, new TraceContext(TRACE_ID, null, false));
    String[] parts = text.split("\n");
    assertEquals(
        "2026-11-22 07:53:41.123 SEVERE app.Hello - failed [trace " + TRACE_ID + "]", parts[0]);
    assertEquals("java.lang.IllegalStateException: boom", parts[1]);
    assertTrue(parts[2].startsWith("\tat "), text);
  }

  /**
   * A published request-log line is written from reused buffers, not through {@link
   * TextHandler#format}; it must be the same line, whatever the zone, time and values.
   */
  @Test
  void publishedAccessLine_isTheFormattedLine() throws Exception {
    TraceContext trace = new TraceContext(TRACE_ID, "00f067aa0ba902b7", true);
    String[] instants = {
      "2026-11-22T07:53:41.123456789Z",
      "2026-03-29T01:00:00Z",
      "2026-10-25T00:59:59.999Z",
      "1999-12-31T23:59:59.5Z",
      "0001-01-01T00:00:00Z",
      "+10000-01-01T00:00:00Z",
    };
    for (String zone : new String[] {"UTC", "Europe/Paris", "America/St_Johns", "Asia/Kolkata"}) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      TextHandler text =
          new TextHandler(
              new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8),
              java.time.ZoneId.of(zone));
      StringBuilder expected = new StringBuilder();
      for (String instant : instants) {
        for (AccessRecord access :
            new AccessRecord[] {
              new AccessRecord("GET", "/", 200, 0, 0, null, null, null, null),
              new AccessRecord(
                  "POST", "/é€😀?q=1", 503, 12, 98_765_432, "::1", "agent é\"", "r", trace),
              new AccessRecord("GET", "/x", 404, 1, 2, "10.0.0.1", "a\nb", null, trace),
            }) {
          access.setInstant(Instant.parse(instant));
          text.publish(access);
          expected.append(text.format(access, null)).append(System.lineSeparator());
        }
      }
      text.flush();
      assertEquals(
          expected.toString(), bytes.toString(java.nio.charset.StandardCharsets.UTF_8), zone);
    }
  }

  @Test
  void accessRecordIsACompactLineWithItsOwnTrace() {
    AccessRecord access =
        new AccessRecord(
            "GET",
            "/hello",
            200,
            14,
            1_234_000,
            "127.0.0.1",
            "curl/8.5.0",
            null,
            new TraceContext(TRACE_ID, null, false));
    access.setInstant(Instant.parse("2026-11-22T07:53:41.123Z"));
    assertEquals(
        "2026-11-22 07:53:41.123 INFO aerun.request - GET /hello 200 14 B 1.2 ms 127.0.0.1"
            + " \"curl/8.5.0\" [trace "
            + TRACE_ID
            + "]",
        handler.format(access, null));
  }

  @Test
  void publishPrintsOneLinePerRecord() {
    java.util.logging.Logger logger = Lines.loggerTo("test.text", handler);
    logger.info("one");
    logger.info("two");
    List<String> all = lines.all();
    assertEquals(2, all.size(), all.toString());
    assertTrue(all.get(1).endsWith(" INFO test.text - two"), all.get(1));
  }

  private static LogRecord record(Level level, String message) {
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName("app.Hello");
    record.setInstant(Instant.parse("2026-11-22T07:53:41.123Z"));
    return record;
  }
}
