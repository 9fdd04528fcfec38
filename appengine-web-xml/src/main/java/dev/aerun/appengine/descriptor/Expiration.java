package dev.aerun.appengine.descriptor;

/**
 * The App Engine expiration syntax used by {@code <include expiration="...">} and {@code
 * <default-expiration>}.
 *
 * <p>A value is one or more terms {@code <digits><unit>} where the unit is {@code d} (days), {@code
 * h} (hours), {@code m} (minutes) or {@code s} (seconds), case-insensitive; a term without unit is
 * seconds. Terms may be separated by whitespace or written together: {@code "1d 4h 5m"}, {@code
 * "1h30m"}, {@code "10s"}, {@code "2d"}, {@code "90"}. The result is the sum in seconds.
 */
public final class Expiration {
  private Expiration() {}

  /**
   * Parses an expiration string into seconds.
   *
   * @param value the text, may have surrounding whitespace
   * @return the total number of seconds, {@code >= 0}
   * @throws IllegalArgumentException if {@code value} is null, blank, has a term without digits, an
   *     unknown unit, or overflows; the message quotes the value and says what is wrong
   */
  public static long parseSeconds(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("empty expiration; expected e.g. \"1d 4h 5m\" or \"10s\"");
    }
    long total = 0;
    int i = 0;
    int n = value.length();
    boolean any = false;
    while (i < n) {
      char c = value.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      int start = i;
      while (i < n && value.charAt(i) >= '0' && value.charAt(i) <= '9') {
        i++;
      }
      if (start == i) {
        throw bad(value, "expected a number at position " + (start + 1) + " but found '" + c + "'");
      }
      long amount;
      try {
        amount = Long.parseLong(value.substring(start, i));
      } catch (NumberFormatException e) {
        throw bad(value, "number too large");
      }
      long unit = 1;
      if (i < n && !Character.isWhitespace(value.charAt(i))) {
        char u = Character.toLowerCase(value.charAt(i));
        switch (u) {
          case 'd' -> unit = 86_400;
          case 'h' -> unit = 3_600;
          case 'm' -> unit = 60;
          case 's' -> unit = 1;
          default -> throw bad(value, "unknown unit '" + value.charAt(i) + "' (use d, h, m or s)");
        }
        i++;
      }
      try {
        total = Math.addExact(total, Math.multiplyExact(amount, unit));
      } catch (ArithmeticException e) {
        throw bad(value, "value too large");
      }
      any = true;
    }
    if (!any) {
      throw bad(value, "no terms");
    }
    return total;
  }

  private static IllegalArgumentException bad(String value, String why) {
    return new IllegalArgumentException(
        "invalid expiration \"" + value + "\": " + why + "; expected e.g. \"1d 4h 5m\" or \"10s\"");
  }

  /**
   * Parses a duration of the scaling settings ({@code <idle-timeout>}, {@code
   * <min-pending-latency>}...), which the platform types as strings and reads more freely than
   * expirations: terms {@code <number><unit>} where the number may have a fraction and a space may
   * stand before the unit, units {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}
   * (case-insensitive), no unit meaning seconds: {@code "1.5h"}, {@code "30 ms"}, {@code "10m
   * 30s"}.
   *
   * @return the total in milliseconds, rounded
   * @throws IllegalArgumentException if {@code value} is blank, malformed, or too large
   */
  public static long parseDurationMillis(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "empty duration; expected e.g. \"30ms\", \"1.5s\" or \"10m\"");
    }
    java.util.regex.Matcher m = DURATION_TERM.matcher(value);
    double total = 0;
    int at = 0;
    while (at < value.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException(
            "invalid duration \""
                + value
                + "\" at position "
                + (at + 1)
                + "; expected e.g. \"30ms\", \"1.5s\", \"10m\" or \"1.5h\"");
      }
      String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(java.util.Locale.ROOT);
      double factor =
          switch (unit) {
            case "ms" -> 1;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            case "d" -> 86_400_000;
            default -> 1_000;
          };
      total += Double.parseDouble(m.group(1)) * factor;
      at = m.end();
    }
    if (total > Long.MAX_VALUE / 2) {
      throw new IllegalArgumentException("invalid duration \"" + value + "\": too large");
    }
    return Math.round(total);
  }

  private static final java.util.regex.Pattern DURATION_TERM =
      java.util.regex.Pattern.compile(
          "\\s*(\\d{1,12}(?:\\.\\d{1,9})?)\\s*(ms|[smhd])?(?![a-z])\\s*",
          java.util.regex.Pattern.CASE_INSENSITIVE);
}
