package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;

/**
 * The request-log line, character for character the line Google's Cloud Logging library prints for
 * the same entry ({@code LogEntry.toStructuredJsonString()}, with the latency {@link
 * CloudJsonHandler} adds), written straight into a buffer.
 *
 * <p>Why not the library itself for this one line: it is written for every request, and the library
 * builds a new Gson (type adapters, reflection over {@code HttpRequest}) for every entry: about 30
 * KiB of garbage and half the CPU a small request costs. {@code CloudJsonHandlerTest} holds this
 * writer to the library's output for every kind of value; the app's own lines still go through the
 * library.
 *
 * <p>Strings are escaped as Gson escapes them by default: {@code "} and {@code \} with a backslash;
 * {@code \n \r \t \b \f} short; other control characters, {@code < > & = '} and U+2028, U+2029 as
 * {@code \}{@code uXXXX}.
 */
final class AccessJson {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private AccessJson() {}

  /**
   * Appends the line for {@code record} (without a line break).
   *
   * @param projectId the project trace names are qualified with, or null
   */
  static void append(StringBuilder out, AccessRecord record, String projectId) {
    out.append("{\"severity\":\"")
        .append(CloudJsonHandler.severity(record.getLevel()).name())
        .append("\",\"time\":\"");
    instant(out, record.getInstant());
    out.append("\",\"httpRequest\":{\"latency\":\"");
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
        ",\"cacheLookup\":false,\"cacheHit\":false,\"cacheValidatedWithOriginServer\":false},"
            + "\"logging.googleapis.com/labels\":{\"logger\":");
    string(out, record.getLoggerName());
    out.append('}');
    TraceContext trace = record.trace();
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
    StringBuilder message = MESSAGE.get();
    message.setLength(0);
    record.appendCompactLine(message);
    escaped(out, message);
    out.append("\"}");
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
  private static void digits(StringBuilder out, int value, int width) {
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
