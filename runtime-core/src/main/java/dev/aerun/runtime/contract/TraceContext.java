package dev.aerun.runtime.contract;

/**
 * The trace a request belongs to, from {@code X-Cloud-Trace-Context} or W3C {@code traceparent}.
 *
 * @param traceId 32 lowercase hex digits
 * @param spanId the caller's span as 16 lowercase hex digits, or null when not given
 * @param sampled whether the caller asked for the request to be traced
 */
public record TraceContext(String traceId, String spanId, boolean sampled) {

  /**
   * Parses {@code TRACE_ID[/SPAN_ID][;o=OPTIONS]}: a 32-hex-digit trace id, a decimal span id, and
   * options whose bit 0 means sampled. Returns null for anything else.
   */
  public static TraceContext parseCloudTraceContext(String value) {
    if (value == null || value.length() < 32 || !isHex(value, 0, 32)) {
      return null;
    }
    String traceId = value.substring(0, 32).toLowerCase(java.util.Locale.ROOT);
    if (isAllZeros(traceId)) {
      return null;
    }
    int semicolon = value.indexOf(';', 32);
    int end = semicolon < 0 ? value.length() : semicolon;
    String spanId = null;
    if (end > 32) {
      if (value.charAt(32) != '/' || end == 33) {
        return null;
      }
      String decimal = value.substring(33, end);
      if (!decimal.chars().allMatch(c -> c >= '0' && c <= '9') || decimal.length() > 20) {
        return null;
      }
      long span;
      try {
        span = Long.parseUnsignedLong(decimal);
      } catch (NumberFormatException e) {
        return null; // above 2^64-1
      }
      spanId = span == 0 ? null : toHex16(span);
    }
    boolean sampled = false;
    if (semicolon >= 0) {
      String options = value.substring(semicolon + 1);
      if (!options.startsWith("o=") || options.length() == 2) {
        return null;
      }
      try {
        sampled = (Integer.parseInt(options.substring(2)) & 1) == 1;
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return new TraceContext(traceId, spanId, sampled);
  }

  /**
   * Parses a W3C {@code traceparent}: {@code VERSION-TRACE_ID-PARENT_ID-FLAGS} in lowercase hex;
   * version {@code ff} and all-zero ids are invalid. Returns null for anything invalid.
   */
  public static TraceContext parseTraceparent(String value) {
    if (value == null || value.length() < 55) {
      return null;
    }
    boolean shape =
        value.charAt(2) == '-'
            && value.charAt(35) == '-'
            && value.charAt(52) == '-'
            && isLowerHex(value, 0, 2)
            && isLowerHex(value, 3, 35)
            && isLowerHex(value, 36, 52)
            && isLowerHex(value, 53, 55);
    if (!shape) {
      return null;
    }
    String version = value.substring(0, 2);
    if (version.equals("ff")) {
      return null;
    }
    // Version 00 has exactly four parts; later versions may append more after a '-'.
    if (value.length() > 55 && (version.equals("00") || value.charAt(55) != '-')) {
      return null;
    }
    String traceId = value.substring(3, 35);
    String spanId = value.substring(36, 52);
    if (isAllZeros(traceId) || isAllZeros(spanId)) {
      return null;
    }
    boolean sampled = (Character.digit(value.charAt(54), 16) & 1) == 1;
    return new TraceContext(traceId, spanId, sampled);
  }

  private static boolean isHex(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLowerHex(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAllZeros(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != '0') {
        return false;
      }
    }
    return true;
  }

  private static String toHex16(long value) {
    String hex = Long.toHexString(value);
    return "0".repeat(16 - hex.length()) + hex;
  }
}
