package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
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
}
