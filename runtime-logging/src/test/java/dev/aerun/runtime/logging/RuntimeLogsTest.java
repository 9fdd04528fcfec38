package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
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
  void warningsAndErrorsAreWrittenThroughAtOnce_requestLinesAndInfoWaitForTheFlush() {
    assertTrue(RuntimeLogs.flushesAtOnce(new LogRecord(Level.WARNING, "w")));
    assertTrue(RuntimeLogs.flushesAtOnce(new LogRecord(Level.SEVERE, "e")));
    assertFalse(RuntimeLogs.flushesAtOnce(new LogRecord(Level.INFO, "i")));
    assertFalse(
        RuntimeLogs.flushesAtOnce(
            new AccessRecord("GET", "/missing", 404, 0, 0, null, null, null, null)));
    assertFalse(
        RuntimeLogs.flushesAtOnce(
            new AccessRecord("GET", "/broken", 500, 0, 0, null, null, null, null)));
  }
}
