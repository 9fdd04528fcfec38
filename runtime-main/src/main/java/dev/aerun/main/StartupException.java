package dev.aerun.main;

/** The runtime could not start; the message is the one line the user sees. */
public final class StartupException extends Exception {
  private static final long serialVersionUID = 1L;

  StartupException(String message) {
    super(message);
  }

  StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
