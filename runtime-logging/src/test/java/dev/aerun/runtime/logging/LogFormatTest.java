package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogFormatTest {
  @Test
  void parsesTheThreeNamesInAnyCase() {
    assertEquals(LogFormat.JSON, LogFormat.parse("json"));
    assertEquals(LogFormat.TEXT, LogFormat.parse("TEXT"));
    assertEquals(LogFormat.AUTO, LogFormat.parse(" Auto "));
  }

  @Test
  void unknownNameIsAnErrorNamingTheAcceptedValues() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LogFormat.parse("xml"));
    assertTrue(e.getMessage().contains("'json', 'text' or 'auto'"), e.getMessage());
  }

  @Test
  void autoIsTextOnATerminal() {
    assertEquals(LogFormat.TEXT, LogFormat.AUTO.resolve(() -> true));
  }

  @Test
  void autoIsJsonWithoutATerminal() {
    assertEquals(LogFormat.JSON, LogFormat.AUTO.resolve(() -> false));
  }

  @Test
  void explicitFormatsIgnoreTheTerminal() {
    assertEquals(LogFormat.JSON, LogFormat.JSON.resolve(() -> true));
    assertEquals(LogFormat.TEXT, LogFormat.TEXT.resolve(() -> false));
  }
}
