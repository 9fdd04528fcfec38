package dev.aerun.appengine.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpirationTest {

  @ParameterizedTest(name = "\"{0}\" is {1} seconds")
  @CsvSource(
      delimiter = '|',
      value = {
        "10s|10",
        "2d|172800",
        "1d 4h 5m|101100",
        "1h30m|5400",
        "90|90",
        "  5m  |300",
        "1D 1H 1M 1S|90061",
        "0s|0",
        "1d4h5m10s|101110",
        "1h\t30m|5400"
      })
  void parsesValidExpirationToSeconds(String text, long seconds) {
    assertEquals(seconds, Expiration.parseSeconds(text));
  }

  @ParameterizedTest(name = "\"{0}\" is rejected")
  @ValueSource(
      strings = {"", "   ", "d", "1x", "1 h", "-1s", "1.5h", "abc", "99999999999999999999s"})
  void rejectsInvalidExpirationWithMessageQuotingValue(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Expiration.parseSeconds(text));
    assertTrue(e.getMessage().contains("expiration"), e.getMessage());
  }

  @org.junit.jupiter.api.Test
  void rejectsNull() {
    assertThrows(IllegalArgumentException.class, () -> Expiration.parseSeconds(null));
  }

  @org.junit.jupiter.api.Test
  void rejectsOverflowingSum() {
    assertThrows(
        IllegalArgumentException.class, () -> Expiration.parseSeconds("9223372036854775807d"));
  }

  @ParameterizedTest
  @CsvSource({
    "30ms, 30",
    "30 ms, 30",
    "1.5s, 1500",
    "1.5h, 5400000",
    "10m 30s, 630000",
    "2, 2000",
    "1d, 86400000",
    "0.25 S, 250"
  })
  void scalingDurationsAreReadAsThePlatformWritesThem(String value, long millis) {
    assertEquals(millis, Expiration.parseDurationMillis(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "fast", "1x", "ms", "1 msx", "-1s"})
  void badScalingDurationsAreRefused(String value) {
    assertThrows(IllegalArgumentException.class, () -> Expiration.parseDurationMillis(value));
  }
}
