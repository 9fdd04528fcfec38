package dev.aerun.runtime.lifecycle;

import java.time.Duration;
import java.util.Locale;

/** Durations as people type and read them: {@code 10s}, {@code 500ms}, {@code 2m}. */
public final class Durations {
  private Durations() {}

  /**
   * Parses {@code 500ms}, {@code 10s}, {@code 2m}, or a plain number of seconds ({@code 10}).
   *
   * @throws IllegalArgumentException naming the value when it is none of these or negative
   */
  public static Duration parse(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (value.endsWith("ms")) {
        return nonNegative(
            Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2))), text);
      }
      if (value.endsWith("s")) {
        return nonNegative(
            Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1))), text);
      }
      if (value.endsWith("m")) {
        return nonNegative(
            Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1))), text);
      }
      return nonNegative(Duration.ofSeconds(Long.parseLong(value)), text);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(
          "not a duration: '" + text + "' (use e.g. 500ms, 10s, 2m)");
    }
  }

  private static Duration nonNegative(Duration duration, String text) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("not a duration: '" + text + "' (negative)");
    }
    return duration;
  }

  /** {@code 10s}, {@code 1500ms}, {@code 2m}: the shortest exact form. */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 60_000 == 0 && millis > 0) {
      return millis / 60_000 + "m";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }
}
