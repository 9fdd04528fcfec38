package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.io.PrintStream;
import java.time.Instant;
import java.time.LocalDate;
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

  /**
   * The request-log line as {@link #format} writes it, without its allocations: the time without a
   * formatter, the compact line written straight in (see {@link AccessRecord#appendCompactLine}).
   */
  @Override
  void appendAccessLine(StringBuilder line, AccessRecord access) {
    int start = line.length();
    Instant instant = access.getInstant();
    long local = instant.getEpochSecond() + zone.getRules().getOffset(instant).getTotalSeconds();
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(local, 86_400));
    if (date.getYear() < 1 || date.getYear() > 9999) {
      line.append(format(access, null)); // outside what the digits below write as TIME does
      return;
    }
    int secondOfDay = (int) Math.floorMod(local, 86_400);
    JsonLines.digits(line, date.getYear(), 4);
    line.append('-');
    JsonLines.digits(line, date.getMonthValue(), 2);
    line.append('-');
    JsonLines.digits(line, date.getDayOfMonth(), 2);
    line.append(' ');
    JsonLines.digits(line, secondOfDay / 3600, 2);
    line.append(':');
    JsonLines.digits(line, secondOfDay / 60 % 60, 2);
    line.append(':');
    JsonLines.digits(line, secondOfDay % 60, 2);
    line.append('.');
    JsonLines.digits(line, instant.getNano() / 1_000_000, 3);
    line.append(' ')
        .append(access.getLevel().getName())
        .append(' ')
        .append(access.getLoggerName())
        .append(" - ");
    int message = line.length();
    access.appendCompactLine(line);
    for (int i = message; i < line.length(); i++) {
      if (line.charAt(i) == '\n') {
        // A line break in a header value: the general format puts the trace before it.
        line.setLength(start);
        line.append(format(access, null));
        return;
      }
    }
    TraceContext trace = access.trace();
    if (trace != null) {
      line.append(" [trace ").append(trace.traceId());
      if (trace.spanId() != null) {
        line.append('/').append(trace.spanId());
      }
      line.append(']');
    }
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
