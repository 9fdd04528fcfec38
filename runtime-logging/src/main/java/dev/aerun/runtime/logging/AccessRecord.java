package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.TraceContext;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * One request-log line: a {@link LogRecord} (so it goes wherever the runtime's logs go, and a
 * logging configuration can silence it) that also carries the request's fields, which the JSON
 * format writes as Cloud Logging's {@code httpRequest}. Any other handler prints its message, a
 * compact line.
 */
public final class AccessRecord extends LogRecord {
  private static final long serialVersionUID = 1L;

  private final String method;
  private final String pathQuery;
  private final int status;
  private final long responseBytes;
  private final long latencyNanos;
  private final String remoteAddress;
  private final String userAgent;
  private final String referer;
  private final transient TraceContext trace;

  /**
   * @param method the request method
   * @param pathQuery the request's path and query, as sent
   * @param status the response status
   * @param responseBytes the response body bytes written
   * @param latencyNanos from the request's arrival to its completion
   * @param remoteAddress the client address as the app saw it, or null
   * @param userAgent the {@code User-Agent}, or null
   * @param referer the {@code Referer}, or null
   * @param trace the request's trace, or null
   */
  public AccessRecord(
      String method,
      String pathQuery,
      int status,
      long responseBytes,
      long latencyNanos,
      String remoteAddress,
      String userAgent,
      String referer,
      TraceContext trace) {
    super(levelFor(status), null);
    this.method = method;
    this.pathQuery = pathQuery;
    this.status = status;
    this.responseBytes = responseBytes;
    this.latencyNanos = latencyNanos;
    this.remoteAddress = remoteAddress;
    this.userAgent = userAgent;
    this.referer = referer;
    this.trace = trace;
    setLoggerName(AccessLog.LOGGER_NAME);
    // Named explicitly: left unset, java.util.logging would walk the stack to guess them.
    setSourceClassName(AccessLog.class.getName());
    setSourceMethodName("log");
  }

  /**
   * The compact line ({@code GET /path?q 200 1234 B 5.2 ms 10.0.0.1 "agent"}), made when first
   * asked for: the JSON format writes it straight into its line instead ({@link
   * #appendCompactLine}).
   */
  @Override
  public String getMessage() {
    String message = super.getMessage();
    if (message == null) {
      StringBuilder line = new StringBuilder(96);
      appendCompactLine(line);
      message = line.toString();
      setMessage(message);
    }
    return message;
  }

  /** Server errors are errors and client errors warnings, as on the platform's request logs. */
  static Level levelFor(int status) {
    if (status >= 500 || status < 100) {
      // (Below 100: no response at all, a request ended at shutdown.)
      return Level.SEVERE;
    }
    return status >= 400 ? Level.WARNING : Level.INFO;
  }

  /** Appends {@code GET /path?q 200 1234 B 5.2 ms 10.0.0.1 "agent"}. */
  void appendCompactLine(StringBuilder line) {
    line.append(method).append(' ').append(pathQuery).append(' ').append(status);
    line.append(' ').append(responseBytes).append(" B ");
    long tenths = latencyNanos / 100_000;
    line.append(tenths / 10).append('.').append(tenths % 10).append(" ms");
    if (remoteAddress != null) {
      line.append(' ').append(remoteAddress);
    }
    if (userAgent != null) {
      line.append(" \"").append(userAgent).append('"');
    }
  }

  public String method() {
    return method;
  }

  public String pathQuery() {
    return pathQuery;
  }

  public int status() {
    return status;
  }

  public long responseBytes() {
    return responseBytes;
  }

  public long latencyNanos() {
    return latencyNanos;
  }

  public String remoteAddress() {
    return remoteAddress;
  }

  public String userAgent() {
    return userAgent;
  }

  public String referer() {
    return referer;
  }

  public TraceContext trace() {
    return trace;
  }
}
