package dev.aerun.runtime.apis;

/**
 * A call made with {@link ApiHostClient#callBlocking} that did not end in the service's response:
 * the service's application error (its code and detail), the host's RPC error, or no answer at all.
 * For callers outside an app's request (the development console), which have no SDK exception types
 * to map to.
 */
public final class ApiCallException extends Exception {
  private static final long serialVersionUID = 1L;

  /** How the call ended. */
  public enum Kind {
    /** The service answered with one of its own errors ({@link #code()} is the service's code). */
    APPLICATION_ERROR,
    /** The host answered with an RPC error ({@link #code()} is the remote-API error code). */
    RPC_ERROR,
    /** No envelope came back: the host could not be reached, answered late or otherwise. */
    FAILED
  }

  private final Kind kind;
  private final int code;
  private final String detail;

  ApiCallException(String service, String method, Kind kind, int code, String detail) {
    super(
        service
            + "."
            + method
            + ": "
            + switch (kind) {
              case APPLICATION_ERROR -> "application error " + code;
              case RPC_ERROR -> "RPC error " + code;
              case FAILED -> "failed";
            }
            + (detail.isEmpty() ? "" : " (" + detail + ")"));
    this.kind = kind;
    this.code = code;
    this.detail = detail;
  }

  public Kind kind() {
    return kind;
  }

  /** The service's or the host's error code; 0 for {@link Kind#FAILED}. */
  public int code() {
    return code;
  }

  /** The error's detail as the host gave it, or why the call failed; never null. */
  public String detail() {
    return detail;
  }
}
