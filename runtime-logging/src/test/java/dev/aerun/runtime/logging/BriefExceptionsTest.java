package dev.aerun.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BriefExceptionsTest {
  @AfterEach
  void fullTracesAgain() {
    RuntimeLogs.briefExceptions(false);
  }

  private static LogRecord failed() {
    LogRecord record = new LogRecord(Level.WARNING, "Failed startup of context");
    record.setThrown(
        new IllegalStateException(
            "deploy failed", new NoClassDefFoundError("jakarta/servlet/http/HttpServlet")));
    return record;
  }

  @Test
  void whileBrief_anExceptionIsOneLineWithItsCauses() {
    RuntimeLogs.briefExceptions(true);

    assertEquals(
        "Failed startup of context: IllegalStateException: deploy failed (caused by"
            + " NoClassDefFoundError: jakarta/servlet/http/HttpServlet)",
        Records.messageWithStackTrace(failed()));
  }

  @Test
  void otherwise_theStackTraceFollows() {
    String text = Records.messageWithStackTrace(failed());

    assertTrue(text.contains("\n\tat "), text);
    assertTrue(text.contains("Caused by: java.lang.NoClassDefFoundError"), text);
  }
}
