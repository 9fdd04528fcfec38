package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.logging.LogFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --log-format}, {@code -Daerun.log.format} and {@code $AERUN_LOG_FORMAT}. */
class LaunchOptionsLogFormatTest {
  @Test
  void defaultIsAuto() throws Exception {
    assertEquals(LogFormat.AUTO, LaunchOptions.parse(Map.of(), Map.of(), "app").logFormat());
  }

  @Test
  void optionChoosesTheFormat() throws Exception {
    assertEquals(
        LogFormat.TEXT,
        LaunchOptions.parse(Map.of(), Map.of(), "--log-format", "text", "app").logFormat());
    assertEquals(
        LogFormat.JSON,
        LaunchOptions.parse(Map.of(), Map.of(), "--log-format=json", "app").logFormat());
  }

  @Test
  void propertyWinsOverEnvironmentAndOptionOverBoth() throws Exception {
    Map<String, String> env = Map.of("AERUN_LOG_FORMAT", "text");
    Map<String, String> properties = Map.of("aerun.log.format", "json");
    assertEquals(LogFormat.TEXT, LaunchOptions.parse(env, Map.of(), "app").logFormat());
    assertEquals(LogFormat.JSON, LaunchOptions.parse(env, properties, "app").logFormat());
    assertEquals(
        LogFormat.AUTO,
        LaunchOptions.parse(env, properties, "--log-format", "auto", "app").logFormat());
  }

  @Test
  void badValueIsAUsageErrorNamingItsSource() {
    UsageException option =
        assertThrows(
            UsageException.class,
            () -> LaunchOptions.parse(Map.of(), Map.of(), "--log-format", "xml", "app"));
    assertTrue(option.getMessage().startsWith("--log-format: "), option.getMessage());
    UsageException env =
        assertThrows(
            UsageException.class,
            () -> LaunchOptions.parse(Map.of("AERUN_LOG_FORMAT", "yaml"), Map.of(), "app"));
    assertTrue(env.getMessage().contains("AERUN_LOG_FORMAT"), env.getMessage());
  }

  @Test
  void usageNamesTheOption() {
    assertTrue(LaunchOptions.usage().contains("--log-format"), LaunchOptions.usage());
  }
}
