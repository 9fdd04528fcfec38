package dev.aerun.runtime.logging;

import java.io.Console;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/** How log lines are written: {@code --log-format json|text|auto}. */
public enum LogFormat {
  /** One Cloud Logging structured-JSON object per line, for the platform's log agent. */
  JSON,
  /** One human-readable line per record (plus the stack trace), for a terminal. */
  TEXT,
  /** {@link #TEXT} when the process talks to a terminal, else {@link #JSON}. */
  AUTO;

  /**
   * Reads {@code json}, {@code text} or {@code auto}, in any case.
   *
   * @throws IllegalArgumentException for anything else, with a message naming the accepted values
   */
  public static LogFormat parse(String value) {
    String name = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    switch (name) {
      case "json":
        return JSON;
      case "text":
        return TEXT;
      case "auto":
        return AUTO;
      default:
        throw new IllegalArgumentException(
            "log format must be 'json', 'text' or 'auto', not '" + value + "'");
    }
  }

  /**
   * The concrete format: this one, or for {@link #AUTO} {@link #TEXT} when {@code terminal} says
   * the process has one (see {@link #hasTerminal()}), else {@link #JSON}.
   */
  public LogFormat resolve(BooleanSupplier terminal) {
    if (this != AUTO) {
      return this;
    }
    return terminal.getAsBoolean() ? TEXT : JSON;
  }

  /**
   * Whether the JVM is attached to a terminal: {@link System#console()} is non-null when stdin and
   * stdout are one, so a platform (or a test harness) writing stdout to a pipe or a file gets JSON.
   * Where Java 22+ may return a console for redirected streams, its {@code isTerminal()} decides.
   */
  public static boolean hasTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException | RuntimeException beforeJava22) {
      return true; // Java 17-21: a console exists only for a terminal
    }
  }
}
