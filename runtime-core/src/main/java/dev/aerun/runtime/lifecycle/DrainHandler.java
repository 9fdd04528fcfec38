package dev.aerun.runtime.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

  private final Set<Request> inFlight = ConcurrentHashMap.newKeySet();
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
    inFlight.add(request);
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
    if (inFlight.remove(entry) && draining && inFlight.isEmpty()) {
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
   * running time, as being ended; the caller stops the server next, which ends them.
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
    List<Request> left = new ArrayList<>(inFlight);
    for (Request request : left) {
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
