package dev.aerun.runtime.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>Cost per request: the request added to and removed from a concurrent set, and a wrapped
 * callback.
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

  private final Map<Request, Response> inFlight = new ConcurrentHashMap<>();
  private final Object idle = new Object();
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
    inFlight.put(request, response);
    boolean handled;
    try {
      handled = super.handle(request, response, Callback.from(callback, () -> done(request)));
    } catch (Throwable t) {
      done(request);
      throw t;
    }
    if (!handled) {
      done(request);
    }
    return handled;
  }

  private void done(Request entry) {
    if (inFlight.remove(entry) != null && draining && inFlight.isEmpty()) {
      synchronized (idle) {
        idle.notifyAll();
      }
    }
  }

  /** Whether a shutdown began: the health path answers 503. */
  public boolean isDraining() {
    return draining;
  }

  /** How many requests are being handled now. */
  public int inFlightCount() {
    return inFlight.size();
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
    synchronized (idle) {
      while (!inFlight.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        idle.wait(Math.max(1, left / 1_000_000));
      }
    }
    List<Map.Entry<Request, Response>> left = new ArrayList<>(inFlight.entrySet());
    for (Map.Entry<Request, Response> entry : left) {
      Request request = entry.getKey();
      Response response = entry.getValue();
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
