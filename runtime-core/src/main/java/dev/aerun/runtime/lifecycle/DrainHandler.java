package dev.aerun.runtime.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.NanoTime;

/**
 * The first handler of every server that faces clients (HttpConnector mode's server, legacy mode's
 * front server): it answers the platform's health probe and keeps count of the requests in flight,
 * so that a shutdown can wait for them ({@link #drain}).
 *
 * <p>{@value #HEALTH_PATH} answers {@code 200 ok} while the instance serves and {@code 503
 * draining} once a shutdown began; it never reaches the app. The port opens only after the app is
 * deployed (see {@code PublicServers#startThenOpen}), so a 200 also means ready.
 *
 * <p>Cost per request: one wrapped callback, which is also the request's entry in the list of
 * requests in flight (linked in and out under a lock held for a few instructions). A concurrent map
 * keyed by the request cost twice that (an identity hash, a node and a lambda per request).
 */
public final class DrainHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(DrainHandler.class.getName());

  /** The liveness and readiness path, answered by the runtime itself. */
  public static final String HEALTH_PATH = "/_ah/health";

  private static final byte[] OK = "ok\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DRAINING = "draining\n".getBytes(StandardCharsets.US_ASCII);

  /**
   * Request attribute ({@link CutOff}): set on a request still running at the end of the grace
   * period, with what its client had been sent when it was ended; the request log reports that
   * rather than what the app went on to produce for a closed connection.
   */
  public static final String CUT_OFF_ATTRIBUTE = "dev.aerun.lifecycle.cut_off";

  /**
   * What the client of a request ended at the end of the grace period had been sent.
   *
   * @param status the status of the response the client got, or 0 when it got none (the connection
   *     was closed before a response began)
   * @param bytesSent the response body bytes written by then
   */
  public record CutOff(int status, long bytesSent) {}

  /** Guards the list of requests in flight; notified when it empties during a drain. */
  private final Object lock = new Object();

  private InFlight first;
  private int inFlightCount;
  private volatile boolean draining;

  public DrainHandler(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (HEALTH_PATH.equals(request.getHttpURI().getPath())) {
      boolean serving = !draining;
      response.setStatus(serving ? HttpStatus.OK_200 : HttpStatus.SERVICE_UNAVAILABLE_503);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=us-ascii");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      response.write(true, ByteBuffer.wrap(serving ? OK : DRAINING), callback);
      return true;
    }
    if (draining) {
      // Served, but the client should not send more on this connection.
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
    InFlight entry = new InFlight(request, response, callback);
    add(entry);
    boolean handled;
    try {
      handled = super.handle(request, response, entry);
    } catch (Throwable t) {
      remove(entry);
      throw t;
    }
    if (!handled) {
      remove(entry);
    }
    return handled;
  }

  private void add(InFlight entry) {
    synchronized (lock) {
      entry.next = first;
      if (first != null) {
        first.previous = entry;
      }
      first = entry;
      inFlightCount++;
    }
  }

  /** Unlinks {@code entry}; a second call for the same entry does nothing. */
  private void remove(InFlight entry) {
    synchronized (lock) {
      if (entry.removed) {
        return;
      }
      entry.removed = true;
      if (entry.previous != null) {
        entry.previous.next = entry.next;
      } else {
        first = entry.next;
      }
      if (entry.next != null) {
        entry.next.previous = entry.previous;
      }
      entry.previous = null;
      entry.next = null;
      if (--inFlightCount == 0 && draining) {
        lock.notifyAll();
      }
    }
  }

  /** A request in flight: its callback, which takes it off the list once the response completed. */
  private final class InFlight extends Callback.Nested {
    final Request request;
    final Response response;
    InFlight previous;
    InFlight next;
    boolean removed;

    InFlight(Request request, Response response, Callback callback) {
      super(callback);
      this.request = request;
      this.response = response;
    }

    /** After the request's callback succeeded or failed. */
    @Override
    public void completed() {
      remove(this);
    }
  }

  /** Whether a shutdown began: the health path answers 503. */
  public boolean isDraining() {
    return draining;
  }

  /** How many requests are being handled now. */
  public int inFlightCount() {
    synchronized (lock) {
      return inFlightCount;
    }
  }

  /**
   * Drains the server: the health path turns 503, {@code connector} stops accepting connections
   * (open ones finish their requests, then close), and this waits until no request is in flight or
   * {@code grace} passed. Requests still running then are logged, each with its method, path and
   * running time, as being ended, and marked with what their clients got ({@link
   * #CUT_OFF_ATTRIBUTE}); the caller stops the server next, which ends them by closing their
   * connections.
   *
   * @return true if every request finished within {@code grace}
   */
  public boolean drain(NetworkConnector connector, Duration grace) throws InterruptedException {
    draining = true;
    if (connector != null) {
      // Stops accepting at once; idle keep-alive connections are closed, busy ones after their
      // current request.
      connector.shutdown();
    }
    long deadline = System.nanoTime() + grace.toNanos();
    List<InFlight> left = new ArrayList<>();
    synchronized (lock) {
      while (inFlightCount > 0) {
        long wait = deadline - System.nanoTime();
        if (wait <= 0) {
          break;
        }
        lock.wait(Math.max(1, wait / 1_000_000));
      }
      for (InFlight entry = first; entry != null; entry = entry.next) {
        left.add(entry);
      }
    }
    for (InFlight entry : left) {
      Request request = entry.request;
      Response response = entry.response;
      // The server stops next and closes the connection: the client keeps what it was sent.
      request.setAttribute(
          CUT_OFF_ATTRIBUTE,
          new CutOff(
              response.isCommitted() ? response.getStatus() : 0,
              Response.getContentBytesWritten(response)));
      log.warning(
          String.format(
              "shutdown: %s %s still running after %d ms at the end of the %s grace period;"
                  + " ending it",
              request.getMethod(),
              request.getHttpURI().getPath(),
              NanoTime.millisSince(request.getBeginNanoTime()),
              Durations.format(grace)));
    }
    return left.isEmpty();
  }
}
