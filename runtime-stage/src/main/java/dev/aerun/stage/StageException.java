package dev.aerun.stage;

/** Why {@code stage} cannot produce a deployable directory; the message is shown as is. */
public final class StageException extends Exception {
  private static final long serialVersionUID = 1L;

  public StageException(String message) {
    super(message);
  }
}
