package dev.aerun.appengine.descriptor;

/**
 * The runtime id, EE version or serving mode cannot be chosen from the given inputs (for example an
 * unknown runtime id, two EE flags set, or EE11 requested where unsupported). The message is one
 * line that names the offending value and, where there is a fixed set, the accepted values.
 */
public final class SelectionException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates an exception with a one-line message. */
  public SelectionException(String message) {
    super(message);
  }
}
