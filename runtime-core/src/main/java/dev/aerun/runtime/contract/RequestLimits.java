package dev.aerun.runtime.contract;

import dev.aerun.runtime.load.BodyTimeoutHandler;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;

/**
 * The size limits of the request contract (docs/REQUESTS.md), the same in both modes.
 *
 * <ul>
 *   <li>Request body over {@link #requestBodyLimit()} → 413: rejected before the app runs when
 *       {@code Content-Length} says so, otherwise the app's read fails once the streamed bytes pass
 *       the limit ({@link AppBodyHandler}).
 *   <li>Response body over {@link #responseBodyLimit()} → 500 if the response is not committed yet,
 *       otherwise the stream is aborted (the client sees a truncated response). Lifted by {@code
 *       appengine.ignore.responseSizeLimit}.
 *   <li>Request body slower than {@link #requestBodyTimeout()} allows, or whose average rate falls
 *       below {@link #requestBodyMinRate()} → 408 ({@link BodyTimeoutHandler}).
 *   <li>Request line over {@link #requestHeaderSize()} bytes → 414 URI Too Long, header section
 *       over it → 431 Request Header Fields Too Large (Jetty's parser). 64 KiB: far above what
 *       browsers send (about 8 KiB) and what the platform front end forwards, but it bounds what
 *       one request can pin in memory.
 *   <li>A request target Jetty's {@link #uriCompliance()} refuses → 400.
 * </ul>
 *
 * @param requestBodyLimit request body limit in bytes, or -1 for none
 * @param responseBodyLimit response body limit in bytes, or -1 for none
 * @param ignoreResponseSizeLimit {@code appengine.ignore.responseSizeLimit}: no response limit
 * @param requestHeaderSize the largest request line plus header section, in bytes
 * @param requestBodyTimeout how long a request body may take to arrive, extended by its size (see
 *     {@link BodyTimeoutHandler}); zero for no bound
 * @param requestBodyMinRate the least average rate of a request body once it has had a few seconds
 *     (see {@link BodyTimeoutHandler.MinRate}); {@link BodyTimeoutHandler.MinRate#NONE} for none
 * @param uriCompliance which request targets are accepted: Jetty's default refuses ambiguous ones
 *     ({@code %2F}, {@code //}, {@code %25} in a path ...) with 400; {@link #forEe8()} accepts what
 *     Jetty 9.4 did, as the platform does for EE8 apps
 */
public record RequestLimits(
    long requestBodyLimit,
    long responseBodyLimit,
    boolean ignoreResponseSizeLimit,
    int requestHeaderSize,
    Duration requestBodyTimeout,
    BodyTimeoutHandler.MinRate requestBodyMinRate,
    UriCompliance uriCompliance) {
  /** The system property that lifts the response size limit. */
  public static final String IGNORE_RESPONSE_SIZE_LIMIT_PROPERTY =
      "appengine.ignore.responseSizeLimit";

  /** 32 MiB: the platform's limit for request and response bodies. */
  public static final long DEFAULT_BODY_LIMIT = 32L * 1024 * 1024;

  /** 64 KiB of request line and headers. */
  public static final int DEFAULT_REQUEST_HEADER_SIZE = 64 * 1024;

  public RequestLimits {
    if (requestHeaderSize <= 0) {
      throw new IllegalArgumentException(
          "requestHeaderSize must be positive: " + requestHeaderSize);
    }
    Objects.requireNonNull(requestBodyTimeout, "requestBodyTimeout");
    Objects.requireNonNull(requestBodyMinRate, "requestBodyMinRate");
    Objects.requireNonNull(uriCompliance, "uriCompliance");
    if (requestBodyTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "requestBodyTimeout must not be negative: " + requestBodyTimeout);
    }
  }

  /**
   * Limits with the default request body timeout ({@link BodyTimeoutHandler#DEFAULT_TIMEOUT}) and
   * minimum rate ({@link BodyTimeoutHandler.MinRate#DEFAULT}).
   */
  public RequestLimits(
      long requestBodyLimit,
      long responseBodyLimit,
      boolean ignoreResponseSizeLimit,
      int requestHeaderSize) {
    this(
        requestBodyLimit,
        responseBodyLimit,
        ignoreResponseSizeLimit,
        requestHeaderSize,
        BodyTimeoutHandler.DEFAULT_TIMEOUT,
        BodyTimeoutHandler.MinRate.DEFAULT,
        UriCompliance.DEFAULT);
  }

  /**
   * The platform's limits: 32 MiB bodies, 64 KiB headers, 30 s (plus pace) for a body, at least 1
   * KiB/s on average once a body has had 3 s.
   */
  public static RequestLimits defaults() {
    return new RequestLimits(
        DEFAULT_BODY_LIMIT, DEFAULT_BODY_LIMIT, false, DEFAULT_REQUEST_HEADER_SIZE);
  }

  /** These limits with {@code appengine.ignore.responseSizeLimit} set to {@code ignore}. */
  public RequestLimits withIgnoreResponseSizeLimit(boolean ignore) {
    return new RequestLimits(
        requestBodyLimit,
        responseBodyLimit,
        ignore,
        requestHeaderSize,
        requestBodyTimeout,
        requestBodyMinRate,
        uriCompliance);
  }

  /** These limits with another request body timeout (zero: no bound). */
  public RequestLimits withRequestBodyTimeout(Duration timeout) {
    return new RequestLimits(
        requestBodyLimit,
        responseBodyLimit,
        ignoreResponseSizeLimit,
        requestHeaderSize,
        timeout,
        requestBodyMinRate,
        uriCompliance);
  }

  /**
   * These limits with another minimum body rate ({@link BodyTimeoutHandler.MinRate#NONE}: none).
   */
  public RequestLimits withRequestBodyMinRate(BodyTimeoutHandler.MinRate minRate) {
    return new RequestLimits(
        requestBodyLimit,
        responseBodyLimit,
        ignoreResponseSizeLimit,
        requestHeaderSize,
        requestBodyTimeout,
        minRate,
        uriCompliance);
  }

  /**
   * These limits for an EE8 app: request targets parsed as Jetty 9.4 did ({@link
   * UriCompliance#LEGACY}), which is what the platform gives EE8 apps, so {@code /a%2Fb}, {@code
   * //x//y} and {@code /100%25} reach the app instead of a 400. Security constraints and static
   * files still see one canonical path for every spelling (see {@code PathConstraints}).
   */
  public RequestLimits forEe8() {
    return new RequestLimits(
        requestBodyLimit,
        responseBodyLimit,
        ignoreResponseSizeLimit,
        requestHeaderSize,
        requestBodyTimeout,
        requestBodyMinRate,
        UriCompliance.LEGACY);
  }

  /** The response limit in force: -1 when lifted. */
  public long effectiveResponseBodyLimit() {
    return ignoreResponseSizeLimit ? -1 : responseBodyLimit;
  }

  /** Applies the header limit and the URI compliance to a connector's configuration. */
  public void configure(HttpConfiguration configuration) {
    configuration.setRequestHeaderSize(requestHeaderSize);
    configuration.setUriCompliance(uriCompliance);
    // A redirect to such a request's own URL (to https, to the login page) takes it as accepted.
    configuration.setRedirectUriCompliance(uriCompliance);
  }
}
