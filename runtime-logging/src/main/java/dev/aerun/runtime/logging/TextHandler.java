package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.io.PrintStream;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.logging.LogRecord;

/**
 * Writes each record as one line for a person at a terminal: local time, level, logger, message,
 * the request's trace when there is one, then the exception's stack trace on the following lines.
 *
 * <pre>
 * 2026-11-22 07:53:41.123 INFO aerun.request - GET /hello 200 14 B 1.2 ms 127.0.0.1 "curl/8.5.0" [trace 4bf92f…/00f067aa0ba902b7]
 * </pre>
 */
public final class TextHandler extends StdoutHandler {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private final ZoneId zone;

  /**
   * @param out where lines go; one {@code println} per record
   * @param zone the time zone of the timestamps
   */
  public TextHandler(PrintStream out, ZoneId zone) {
    super(out);
    this.zone = Objects.requireNonNull(zone, "zone");
  }

  @Override
  String format(LogRecord record, TraceContext threadTrace) {
    TraceContext trace = record instanceof AccessRecord access ? access.trace() : threadTrace;
    String message = Records.messageWithStackTrace(record);
    int firstBreak = message.indexOf('\n');
    StringBuilder line = new StringBuilder(64 + message.length());
    line.append(TIME.format(record.getInstant().atZone(zone)))
        .append(' ')
        .append(record.getLevel().getName())
        .append(' ')
        .append(record.getLoggerName())
        .append(" - ")
        .append(firstBreak < 0 ? message : message.substring(0, firstBreak));
    if (trace != null) {
      line.append(" [trace ").append(trace.traceId());
      if (trace.spanId() != null) {
        line.append('/').append(trace.spanId());
      }
      line.append(']');
    }
    if (firstBreak >= 0) {
      line.append(message, firstBreak, message.length());
    }
    return line.toString();
  }
}
