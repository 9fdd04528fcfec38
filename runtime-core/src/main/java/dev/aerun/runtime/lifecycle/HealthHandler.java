package dev.aerun.runtime.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the platform's liveness and readiness probe, {@value #PATH}: {@code 200 ok} while the
 * instance serves, {@code 503 draining} once its {@link DrainHandler} began a drain. The probe
 * never reaches the app, and is not a request in flight for the drain to wait for. The port opens
 * only after the app is deployed, so a 200 also means ready.
 */
public final class HealthHandler extends Handler.Wrapper {
  /** The liveness and readiness path, answered by the runtime itself. */
  public static final String PATH = "/_ah/health";

  private static final byte[] OK = "ok\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DRAINING = "draining\n".getBytes(StandardCharsets.US_ASCII);

  private final DrainHandler drain;

  /**
   * @param drain the drain whose start turns the answer to 503
   */
  public HealthHandler(DrainHandler drain) {
    this.drain = Objects.requireNonNull(drain, "drain");
  }

  public HealthHandler(DrainHandler drain, Handler next) {
    this(drain);
    setHandler(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!PATH.equals(request.getHttpURI().getPath())) {
      return super.handle(request, response, callback);
    }
    boolean serving = !drain.isDraining();
    response.setStatus(serving ? HttpStatus.OK_200 : HttpStatus.SERVICE_UNAVAILABLE_503);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=us-ascii");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(serving ? OK : DRAINING), callback);
    return true;
  }
}
