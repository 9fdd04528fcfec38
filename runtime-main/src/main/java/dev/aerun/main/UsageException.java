package dev.aerun.main;

/** The command line was wrong, or asked for help; the message says what to do. */
public final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;
  private final boolean help;

  UsageException(String message) {
    this(message, false);
  }

  private UsageException(String message, boolean help) {
    super(message);
    this.help = help;
  }

  static UsageException help() {
    return new UsageException(LaunchOptions.usage(), true);
  }

  /** True when {@code --help} was asked for: print the usage and exit 0. */
  public boolean isHelp() {
    return help;
  }
}
