package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --request-log on|off} and its default: on in development and on a terminal. */
class LaunchOptionsRequestLogTest {
  private static LaunchOptions parse(String... args) throws Exception {
    return LaunchOptions.parse(Map.of(), Map.of(), args);
  }

  @Test
  void offByDefaultWhenOutputIsNotATerminal() throws Exception {
    assertFalse(parse("app").requestLog(() -> false));
  }

  @Test
  void onByDefaultOnATerminal() throws Exception {
    assertTrue(parse("app").requestLog(() -> true));
  }

  @Test
  void onByDefaultInDevelopment() throws Exception {
    assertTrue(parse("--development", "app").requestLog(() -> false));
  }

  @Test
  void optionWinsEitherWay() throws Exception {
    assertTrue(parse("--request-log", "on", "app").requestLog(() -> false));
    assertTrue(parse("--request-log=ON", "app").requestLog(() -> false));
    assertFalse(parse("--request-log", "off", "app").requestLog(() -> true));
    assertFalse(parse("--development", "--request-log", "off", "app").requestLog(() -> true));
  }

  @Test
  void badValueIsAUsageErrorNamingTheOption() {
    UsageException e =
        assertThrows(UsageException.class, () -> parse("--request-log", "yes", "app"));
    assertTrue(
        e.getMessage().contains("--request-log must be 'on' or 'off', not 'yes'"), e.getMessage());
  }

  @Test
  void helpNamesTheOption() {
    assertTrue(LaunchOptions.usage().contains("--request-log on|off"));
  }
}
