package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Cloud Logging's structured-JSON lines, character for character the lines Google's Cloud Logging
 * library prints for the same entries ({@code LogEntry.toStructuredJsonString()}, with the latency
 * {@link CloudJsonHandler} adds to a request-log line), written straight into a buffer.
 *
 * <p>Why not the library itself: it builds a new Gson (type adapters, reflection over its model)
 * for every entry: for the request log, about 30 KiB of garbage and half the CPU a small request
 * costs; at start-up, about 220 classes (Gson, Guava, protobuf, the library's model, date formats)
 * loaded before the first request is served. {@code CloudJsonHandlerTest} holds this writer to the
 * library's output for every kind of value.
 *
 * <p>Strings are escaped as Gson escapes them by default: {@code "} and {@code \} with a backslash;
 * {@code \n \r \t \b \f} short; other control characters, {@code < > & = '} and U+2028, U+2029 as
 * {@code \}{@code uXXXX}.
 */
final class JsonLines {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private JsonLines() {}

  /**
   * Appends the request-log line for {@code record} (without a line break).
   *
   * @param projectId the project trace names are qualified with, or null
   */
  static void appendAccess(StringBuilder out, AccessRecord record, String projectId) {
    head(out, record.getLevel(), record.getInstant());
    out.append(",\"httpRequest\":{\"latency\":\"");
    long latency = record.latencyNanos();
    out.append(latency / 1_000_000_000L).append('.');
    String nanos = Long.toString(latency % 1_000_000_000L);
    for (int i = nanos.length(); i < 9; i++) {
      out.append('0');
    }
    out.append(nanos).append("s\",\"requestMethod\":");
    string(out, record.method());
    out.append(",\"requestUrl\":");
    string(out, record.pathQuery());
    out.append(",\"status\":").append(record.status());
    out.append(",\"responseSize\":").append(record.responseBytes());
    if (record.userAgent() != null) {
      out.append(",\"userAgent\":");
      string(out, record.userAgent());
    }
    if (record.remoteAddress() != null) {
      out.append(",\"remoteIp\":");
      string(out, record.remoteAddress());
    }
    if (record.referer() != null) {
      out.append(",\"referer\":");
      string(out, record.referer());
    }
    out.append(
        ",\"cacheLookup\":false,\"cacheHit\":false,\"cacheValidatedWithOriginServer\":false}");
    StringBuilder message = MESSAGE.get();
    message.setLength(0);
    record.appendCompactLine(message);
    tail(out, record.getLoggerName(), null, record.trace(), message, projectId);
  }

  /**
   * Appends the line of any other record (without a line break).
   *
   * @param source where it was logged, or null
   * @param trace the trace of the request it was logged for, or null
   * @param message its message, with the stack trace of its exception
   * @param projectId the project trace names are qualified with, or null
   */
  static void appendRecord(
      StringBuilder out,
      LogRecord record,
      StackWalker.StackFrame source,
      TraceContext trace,
      String message,
      String projectId) {
    head(out, record.getLevel(), record.getInstant());
    tail(out, record.getLoggerName(), source, trace, message, projectId);
  }

  private static void head(StringBuilder out, Level level, Instant time) {
    out.append("{\"severity\":\"").append(severity(level)).append("\",\"time\":\"");
    instant(out, time);
    out.append('"');
  }

  private static void tail(
      StringBuilder out,
      String loggerName,
      StackWalker.StackFrame source,
      TraceContext trace,
      CharSequence message,
      String projectId) {
    out.append(",\"logging.googleapis.com/labels\":{");
    if (loggerName != null) {
      out.append("\"logger\":");
      string(out, loggerName);
    }
    out.append('}');
    if (source != null) {
      out.append(",\"logging.googleapis.com/sourceLocation\":{");
      if (source.getFileName() != null) {
        out.append("\"file\":");
        string(out, source.getFileName());
        out.append(',');
      }
      out.append("\"line\":\"").append(source.getLineNumber()).append("\",\"function\":\"");
      escaped(out, source.getClassName());
      out.append('.');
      escaped(out, source.getMethodName());
      out.append("\"}");
    }
    if (trace != null) {
      if (trace.spanId() != null) {
        out.append(",\"logging.googleapis.com/spanId\":");
        string(out, trace.spanId());
      }
      out.append(",\"logging.googleapis.com/trace\":\"");
      if (projectId != null) {
        out.append("projects/");
        escaped(out, projectId);
        out.append("/traces/");
      }
      escaped(out, trace.traceId());
      out.append('"');
    }
    out.append(",\"logging.googleapis.com/trace_sampled\":")
        .append(trace != null && trace.sampled())
        .append(",\"message\":\"");
    escaped(out, message);
    out.append("\"}");
  }

  /**
   * The Cloud Logging severity of a {@code java.util.logging} level, as the library's own handler
   * maps them.
   */
  static String severity(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARNING";
    }
    if (value >= Level.CONFIG.intValue()) {
      return "INFO";
    }
    return "DEBUG";
  }

  /** Each thread's buffer for the message, escaped into the line from there. */
  private static final ThreadLocal<StringBuilder> MESSAGE =
      ThreadLocal.withInitial(() -> new StringBuilder(256));

  /**
   * {@code instant} as {@link Instant#toString()} writes it ({@code 2026-11-23T10:00:00.120Z}: the
   * fraction in groups of three digits, none when zero), without its allocations.
   */
  static void instant(StringBuilder out, Instant instant) {
    long seconds = instant.getEpochSecond();
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400));
    if (date.getYear() < 0 || date.getYear() > 9999) {
      DateTimeFormatter.ISO_INSTANT.formatTo(instant, out);
      return;
    }
    int secondOfDay = (int) Math.floorMod(seconds, 86_400);
    digits(out, date.getYear(), 4);
    out.append('-');
    digits(out, date.getMonthValue(), 2);
    out.append('-');
    digits(out, date.getDayOfMonth(), 2);
    out.append('T');
    digits(out, secondOfDay / 3600, 2);
    out.append(':');
    digits(out, secondOfDay / 60 % 60, 2);
    out.append(':');
    digits(out, secondOfDay % 60, 2);
    int nanos = instant.getNano();
    if (nanos != 0) {
      out.append('.');
      if (nanos % 1_000_000 == 0) {
        digits(out, nanos / 1_000_000, 3);
      } else if (nanos % 1000 == 0) {
        digits(out, nanos / 1000, 6);
      } else {
        digits(out, nanos, 9);
      }
    }
    out.append('Z');
  }

  /** {@code value} with leading zeros to {@code width} digits. */
  static void digits(StringBuilder out, int value, int width) {
    int start = out.length();
    out.append(value);
    for (int i = out.length() - start; i < width; i++) {
      out.insert(start, '0');
    }
  }

  /** {@code value} as a JSON string, quotes included. */
  private static void string(StringBuilder out, String value) {
    out.append('"');
    escaped(out, value);
    out.append('"');
  }

  private static void escaped(StringBuilder out, CharSequence value) {
    int length = value.length();
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '<', '>', '&', '=', '\'', '\u2028', '\u2029' -> unicode(out, c);
        default -> {
          if (c < 0x20) {
            unicode(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
  }

  private static void unicode(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }
}
