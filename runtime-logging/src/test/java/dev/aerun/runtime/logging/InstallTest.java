package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link RuntimeLogs#install}: the root logger's console output is replaced, once. */
class InstallTest {
  private final Logger root = Logger.getLogger("");
  private final Lines lines = new Lines();
  private Handler[] before;

  @BeforeEach
  void remember() {
    before = root.getHandlers();
  }

  @AfterEach
  void restore() {
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    Arrays.stream(before).forEach(root::addHandler);
  }

  @Test
  void replacesTheConsoleHandlerAndKeepsOthers() {
    Handler other = new ConsoleHandler() {}; // stands for a handler someone configured
    root.addHandler(new ConsoleHandler());
    root.addHandler(other);

    Handler installed = RuntimeLogs.install(LogFormat.JSON, "p", lines.out, ZoneOffset.UTC);

    List<Handler> handlers = Arrays.asList(root.getHandlers());
    assertTrue(handlers.contains(installed), handlers.toString());
    assertTrue(handlers.contains(other), handlers.toString());
    assertFalse(
        handlers.stream().anyMatch(h -> h.getClass() == ConsoleHandler.class), handlers.toString());
    Logger.getLogger("install.test").info("through the root");
    assertEquals("through the root", lines.json().get(0).get("message").getAsString());
  }

  @Test
  void installingAgainReplacesTheFirst() {
    Handler first = RuntimeLogs.install(LogFormat.JSON, null, lines.out, ZoneOffset.UTC);
    Handler second = RuntimeLogs.install(LogFormat.TEXT, null, lines.out, ZoneOffset.UTC);
    List<Handler> handlers = Arrays.asList(root.getHandlers());
    assertFalse(handlers.contains(first), handlers.toString());
    assertSame(
        second,
        handlers.stream()
            .filter(h -> h instanceof TextHandler || h instanceof CloudJsonHandler)
            .reduce((a, b) -> b)
            .orElseThrow());
  }
}
