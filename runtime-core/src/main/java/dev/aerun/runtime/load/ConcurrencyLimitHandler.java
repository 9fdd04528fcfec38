package dev.aerun.runtime.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Enforces a {@link Capacity} on a server that faces clients: at most {@link
 * Capacity#maxConcurrentRequests()} requests go on to the next handler at once; the next {@link
 * Capacity#maxQueuedRequests()} wait for a turn, suspended (no thread is held, no body is read),
 * for at most {@link Capacity#maxQueueWait()} (a zero wait means no waiting at all: nothing is
 * queued); anything beyond, or waiting longer, gets {@code 503 Service Unavailable} with {@code
 * Retry-After: 1} and the server's error page. A turn is given back when a request completes, so
 * the bound holds for asynchronous requests too.
 *
 * <p>Jetty's {@link QoSHandler} does the counting and the waiting; this class only shapes the
 * rejection and logs overload, at most once per {@link #LOG_INTERVAL_SECONDS} seconds, with how
 * many requests were turned away meanwhile (a log line per rejection would add to the overload).
 */
public class ConcurrencyLimitHandler extends QoSHandler {
  private static final Logger log = Logger.getLogger(ConcurrencyLimitHandler.class.getName());

  /** Seconds a client is asked to wait before it retries. */
  static final String RETRY_AFTER_SECONDS = "1";

  static final long LOG_INTERVAL_SECONDS = 10;

  private final Capacity capacity;
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong rejectedSinceLog = new AtomicLong();
  private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());

  public ConcurrencyLimitHandler(Capacity capacity, Handler next) {
    super(next);
    this.capacity = capacity;
    setMaxRequestCount(capacity.maxConcurrentRequests());
    // QoSHandler reads a zero wait as "no expiry"; ours means "no waiting": an empty queue.
    setMaxSuspendedRequestCount(
        capacity.maxQueueWait().isZero() ? 0 : capacity.maxQueuedRequests());
    setMaxSuspend(capacity.maxQueueWait());
    setRejectStatusCode(HttpStatus.SERVICE_UNAVAILABLE_503);
  }

  public Capacity capacity() {
    return capacity;
  }

  /** Requests turned away with 503 since the server started. */
  public long rejectedCount() {
    return rejected.get();
  }

  /** The queue was full: the request never waited. */
  @Override
  protected void reject(Request request, Response response, Callback callback, int status) {
    rejected(request, "the queue is full");
    response.getHeaders().put(HttpHeader.RETRY_AFTER, RETRY_AFTER_SECONDS);
    Response.writeError(request, response, callback, status);
  }

  /** A waiting request was not given a turn in time. */
  @Override
  protected void expireSuspended(Request request, Response response, Callback callback) {
    rejected(request, "it waited " + capacity.maxQueueWait().toMillis() + " ms for a turn");
    response.getHeaders().put(HttpHeader.RETRY_AFTER, RETRY_AFTER_SECONDS);
    // No failure passed on: a timeout here is the expected outcome, not an error to log.
    Response.writeError(request, response, callback, getRejectStatusCode());
  }

  private void rejected(Request request, String why) {
    rejected.incrementAndGet();
    rejectedSinceLog.incrementAndGet();
    long now = System.nanoTime();
    long next = nextLogNanos.get();
    if (now - next >= 0
        && nextLogNanos.compareAndSet(next, now + TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS))) {
      long total = rejectedSinceLog.getAndSet(0);
      log.warning(
          String.format(
              "overloaded: answered 503 to %d request(s) since the last report, e.g. %s %s (%s);"
                  + " at most %d requests run at once and %d wait",
              total,
              request.getMethod(),
              request.getHttpURI().getPath(),
              why,
              capacity.maxConcurrentRequests(),
              capacity.maxQueuedRequests()));
    }
  }
}
