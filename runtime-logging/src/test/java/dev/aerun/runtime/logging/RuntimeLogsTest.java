package dev.aerun.runtime.logging;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class RuntimeLogsTest {
  @Test
  void projectFromGoogleCloudProject() {
    assertEquals(
        "my-project",
        RuntimeLogs.projectId(
            Map.of("GOOGLE_CLOUD_PROJECT", "my-project", "GAE_APPLICATION", "s~other")));
  }

  @Test
  void projectFromGaeApplicationWithoutPartition() {
    assertEquals("my-app", RuntimeLogs.projectId(Map.of("GAE_APPLICATION", "e~my-app")));
    assertEquals("my-app", RuntimeLogs.projectId(Map.of("GAE_APPLICATION", "my-app")));
  }

  @Test
  void noProjectOffThePlatform() {
    assertNull(RuntimeLogs.projectId(Map.of()));
  }

  @Test
  void jaspersMissingSchemaWarnings_areRecognised_othersAreNot() {
    assertTrue(
        RuntimeLogs.isMissingJasperSchema(
            new LogRecord(
                Level.WARNING,
                "The XML schema [XMLSchema.dtd] could not be found. This is very likely to break"
                    + " XML validation if XML validation is enabled.")));
    assertTrue(
        RuntimeLogs.isMissingJasperSchema(
            new LogRecord(Level.WARNING, "The XML schema [xml.xsd] could not be found.")));
    assertFalse(
        RuntimeLogs.isMissingJasperSchema(
            new LogRecord(Level.WARNING, "The XML schema [jsp_3_1.xsd] could not be found.")));
    assertFalse(RuntimeLogs.isMissingJasperSchema(new LogRecord(Level.WARNING, "other")));
  }

  @Test
  void warningsAndErrorsAreWrittenThroughAtOnce_requestLinesAndInfoWaitForTheFlush() {
    assertTrue(RuntimeLogs.flushesAtOnce(new LogRecord(Level.WARNING, "w")));
    assertTrue(RuntimeLogs.flushesAtOnce(new LogRecord(Level.SEVERE, "e")));
    assertFalse(RuntimeLogs.flushesAtOnce(new LogRecord(Level.INFO, "i")));
    assertTrue(RuntimeLogs.flushesAtOnce(new RuntimeLogs.Announcement("Serving app")));
    assertFalse(
        RuntimeLogs.flushesAtOnce(
            new AccessRecord("GET", "/missing", 404, 0, 0, null, null, null, null)));
    assertFalse(
        RuntimeLogs.flushesAtOnce(
            new AccessRecord("GET", "/broken", 500, 0, 0, null, null, null, null)));
  }

  @Test
  void announce_writesTheLineThroughAtOnce_withTheCallerAsItsSource() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(new BufferedOutputStream(bytes, 1 << 16), false, UTF_8);
    Logger logger = Logger.getLogger("dev.aerun.test.announce");
    logger.setUseParentHandlers(false);
    Handler handler = new CloudJsonHandler(out, null);
    logger.addHandler(handler);
    try {
      logger.info("an ordinary line");
      assertEquals("", bytes.toString(UTF_8), "an INFO line waits for the next flush");

      RuntimeLogs.announce(logger, "Serving app at http://127.0.0.1:8080/");

      String written = bytes.toString(UTF_8);
      assertTrue(written.contains("an ordinary line"), written); // in order, before it
      assertTrue(written.contains("Serving app at http://127.0.0.1:8080/"), written);
      assertTrue(
          written.contains("announce_writesTheLineThroughAtOnce_withTheCallerAsItsSource"),
          written);
    } finally {
      logger.removeHandler(handler);
      logger.setUseParentHandlers(true);
    }
  }
}
