package dev.aerun.runtime.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class AppEnvironmentTest {
  @Test
  void productionPropertiesInStableOrder() {
    AppEnvironment env = new AppEnvironment("s~demo", "v1", "default", "aerun/1.0", false);
    assertEquals(
        List.of(
            "com.google.appengine.runtime.environment",
            "com.google.appengine.runtime.version",
            "com.google.appengine.application.id",
            "com.google.appengine.application.version"),
        List.copyOf(env.systemProperties().keySet()));
    assertEquals("Production", env.systemProperties().get(AppEnvironment.ENVIRONMENT_PROPERTY));
    assertEquals("s~demo", env.systemProperties().get(AppEnvironment.APPLICATION_ID_PROPERTY));
    assertEquals("v1", env.systemProperties().get(AppEnvironment.APPLICATION_VERSION_PROPERTY));
    assertEquals("aerun/1.0", env.systemProperties().get(AppEnvironment.RUNTIME_VERSION_PROPERTY));
  }

  @Test
  void developmentEnvironment() {
    AppEnvironment env = new AppEnvironment("a", "v", "s", "r", true);
    assertEquals("Development", env.systemProperties().get(AppEnvironment.ENVIRONMENT_PROPERTY));
  }

  @Test
  void nullsAreRejected() {
    assertThrows(NullPointerException.class, () -> new AppEnvironment(null, "v", "s", "r", false));
  }
}
