package dev.aerun.runtime.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void parse_unitsAndPlainSeconds() {
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
    assertEquals(Duration.ofSeconds(10), Durations.parse("10s"));
    assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
    assertEquals(Duration.ofSeconds(7), Durations.parse(" 7 "));
    assertEquals(Duration.ZERO, Durations.parse("0s"));
  }

  @Test
  void parse_rejectsWhatIsNotADuration() {
    for (String bad : new String[] {"", "ten", "10h", "-1s", "1.5s", "s"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void format_shortestExactForm() {
    assertEquals("10s", Durations.format(Duration.ofSeconds(10)));
    assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
    assertEquals("2m", Durations.format(Duration.ofMinutes(2)));
    assertEquals("0s", Durations.format(Duration.ZERO));
  }
}
