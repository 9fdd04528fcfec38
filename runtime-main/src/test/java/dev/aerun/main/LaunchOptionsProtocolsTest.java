package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.server.Protocols;
import dev.aerun.runtime.server.Protocols.H2c;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --compression}, {@code appengine.use.compression} and {@code --h2c}. */
class LaunchOptionsProtocolsTest {
  private static LaunchOptions parse(String... args) throws Exception {
    return LaunchOptions.parse(Map.of(), Map.of(), args);
  }

  private static Protocols protocols(Map<String, String> effective, String... args)
      throws Exception {
    return AppSettings.protocols(effective, parse(args));
  }

  @Test
  void compressionAndPriorKnowledgeH2cByDefault() throws Exception {
    assertEquals(new Protocols(true, H2c.PRIOR_KNOWLEDGE), protocols(Map.of(), "app"));
  }

  @Test
  void theDescriptorsPropertyTurnsCompressionOffInAnyCase() throws Exception {
    assertFalse(protocols(Map.of("appengine.use.compression", "false"), "app").compression());
    assertFalse(protocols(Map.of("AppEngine.Use.Compression", " FALSE "), "app").compression());
    assertTrue(protocols(Map.of("appengine.use.compression", "true"), "app").compression());
  }

  @Test
  void theOptionWinsOverTheProperty() throws Exception {
    assertTrue(
        protocols(Map.of("appengine.use.compression", "false"), "--compression", "on", "app")
            .compression());
    assertFalse(protocols(Map.of(), "--compression=off", "app").compression());
  }

  @Test
  void h2cOnOffUpgrade() throws Exception {
    assertEquals(H2c.PRIOR_KNOWLEDGE, parse("--h2c", "on", "app").h2c());
    assertEquals(H2c.OFF, parse("--h2c", "off", "app").h2c());
    assertEquals(H2c.UPGRADE, parse("--h2c", "UPGRADE", "app").h2c());
  }

  @Test
  void badValuesAreUsageErrorsNamingTheOption() {
    UsageException h2c = assertThrows(UsageException.class, () -> parse("--h2c", "yes", "app"));
    assertTrue(h2c.getMessage().contains("--h2c"), h2c.getMessage());
    UsageException compression =
        assertThrows(UsageException.class, () -> parse("--compression", "gzip", "app"));
    assertTrue(compression.getMessage().contains("--compression"), compression.getMessage());
  }

  @Test
  void helpNamesTheOptions() {
    assertTrue(LaunchOptions.usage().contains("--compression on|off"));
    assertTrue(LaunchOptions.usage().contains("--h2c on|off|upgrade"));
  }
}
