package dev.aerun.runtime.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.NanoTime;

/**
 * Keeps count of the requests in flight on a server that faces clients (HttpConnector mode's
 * server, legacy mode's front server), so that a shutdown can wait for them ({@link #drain}). Once
 * a drain began, requests still served on open connections are answered with {@code Connection:
 * close}; the {@link HealthHandler} in front answers the platform's probe with 503.
 *
 * <p>Cost per request: one wrapped callback, which is also the request's link in a list of the
 * requests in flight (linked in and out under a lock held for a few field writes), taken out when
 * the response completed. A concurrent set cost a map node besides.
 */
public final class DrainHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(DrainHandler.class.getName());

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

  /** Guards the list of requests in flight: {@link #head} and the entries' links. */
  private final Object lock = new Object();

  /** The most recent request in flight, linked to the older ones; null when none. */
  private InFlight head;

  /** How many requests are in flight; written under {@link #lock}. */
  private volatile int inFlightCount;

  /** Notified when the last request in flight finished during a drain. */
  private final Object emptied = new Object();

  private volatile boolean draining;

  public DrainHandler() {}

  public DrainHandler(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (draining) {
      // Served, but the client should not send more on this connection.
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
    InFlight entry = new InFlight(response, callback);
    synchronized (lock) {
      entry.next = head;
      if (head != null) {
        head.previous = entry;
      }
      head = entry;
      inFlightCount++;
    }
    boolean handled;
    try {
      handled = super.handle(request, response, entry);
    } catch (Throwable t) {
      finished(entry);
      throw t;
    }
    if (!handled) {
      finished(entry);
    }
    return handled;
  }

  /** Takes {@code entry} off the list; a second call for the same entry does nothing. */
  private void finished(InFlight entry) {
    boolean last;
    synchronized (lock) {
      if (entry != head && entry.previous == null) {
        return; // taken off already
      }
      if (entry.previous != null) {
        entry.previous.next = entry.next;
      } else {
        head = entry.next;
      }
      if (entry.next != null) {
        entry.next.previous = entry.previous;
      }
      entry.previous = null;
      entry.next = null;
      last = --inFlightCount == 0;
    }
    if (last && draining) {
      synchronized (emptied) {
        emptied.notifyAll();
      }
    }
  }

  /**
   * A request in flight: its callback, which takes it off the list once the response completed. The
   * request is its response's ({@link Response#getRequest()}): one field less per request.
   */
  private final class InFlight extends Callback.Nested {
    final Response response;

    // Guarded by DrainHandler.this.lock.
    private InFlight previous;
    private InFlight next;

    InFlight(Response response, Callback callback) {
      super(callback);
      this.response = response;
    }

    /** After the request's callback succeeded or failed. */
    @Override
    public void completed() {
      finished(this);
    }
  }

  /** Whether a shutdown began: the health path answers 503. */
  public boolean isDraining() {
    return draining;
  }

  /** How many requests are being handled now. */
  public int inFlightCount() {
    return inFlightCount;
  }

  /**
   * Drains the server: the {@link HealthHandler} answers 503, {@code connector} stops accepting
   * connections (open ones finish their requests, then close), and this waits until no request is
   * in flight or {@code grace} passed. Requests still running then are logged, each with its
   * method, path and running time, as being ended, and marked with what their clients got ({@link
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
    synchronized (emptied) {
      while (inFlightCount > 0) {
        long wait = deadline - System.nanoTime();
        if (wait <= 0) {
          break;
        }
        emptied.wait(Math.max(1, wait / 1_000_000));
      }
    }
    List<InFlight> left = new ArrayList<>();
    synchronized (lock) {
      for (InFlight entry = head; entry != null; entry = entry.next) {
        left.add(entry);
      }
    }
    for (InFlight entry : left) {
      Response response = entry.response;
      Request request = response.getRequest();
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
