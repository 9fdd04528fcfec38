package dev.aerun.rpc.front;

import dev.aerun.rpc.proto.AppLogLine;
import dev.aerun.rpc.proto.UPResponse;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Logs the lines the app wrote while handling a request, which come back with its response, through
 * {@code java.util.logging}: each under a logger named after its source (the app's logger name), at
 * the level it had, with its own time.
 */
final class AppLogLines {
  /** The logger for lines whose source is unknown. */
  static final String DEFAULT_LOGGER = "app";

  void log(UPResponse up) {
    for (int i = 0, n = up.getAppLogsCount(); i < n; i++) {
      AppLogLine line = up.getAppLogs(i);
      String source = line.getSourceLocation();
      Logger logger = Logger.getLogger(source.isEmpty() ? DEFAULT_LOGGER : source);
      Level level = level(line.getLevel());
      if (!logger.isLoggable(level)) {
        continue;
      }
      LogRecord record = new LogRecord(level, line.getMessage());
      record.setLoggerName(logger.getName());
      long micros = line.getTimestampUsec();
      if (micros > 0) {
        record.setInstant(Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000));
      }
      // Not the front end's class and method: the line comes from the app.
      record.setSourceClassName(logger.getName());
      record.setSourceMethodName(null);
      logger.log(record);
    }
  }

  /** 0 debug, 1 info, 2 warning, 3 error, 4 critical (see the proto). */
  static Level level(int severity) {
    return switch (severity) {
      case 0 -> Level.FINE;
      case 1 -> Level.INFO;
      case 2 -> Level.WARNING;
      default -> severity < 0 ? Level.FINE : Level.SEVERE;
    };
  }
}
