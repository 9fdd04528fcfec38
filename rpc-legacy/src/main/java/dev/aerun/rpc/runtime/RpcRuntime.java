package dev.aerun.rpc.runtime;

import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.server.PublicServers;
import io.grpc.BindableService;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;

/**
 * The runtime side of legacy RPC mode (DESIGN §5): a Jetty server with no network connector whose
 * RPC connector runs each {@code UPRequest} through the app and buffers the whole response into the
 * {@code UPResponse}. {@link #service()} is the {@code EvaluationRuntime} gRPC service to bind on
 * whatever transport the front end uses.
 *
 * <p>The app sees each request exactly as in HttpConnector mode: the same request line, headers,
 * remote and local addresses, scheme and {@code isSecure()}, request attributes, body size limit
 * and error pages. The one difference is documented: a response that goes over the response size
 * limit after the app already flushed part of it is answered {@code RESPONSE_TOO_LARGE} (a 500 at
 * the front end) instead of a truncated stream, because nothing reaches the client before the app
 * finished.
 *
 * <p>The request path, top to bottom: the RPC connector builds the Jetty request and sets the
 * request attributes → the body size limits and the app's framing headers dropped ({@link
 * RequestLimits#newAppBodyHandler()}) → a counter of the bytes the app writes → the app. Errors use
 * the server's {@code NoDetailsErrorHandler}.
 */
public final class RpcRuntime {
  /**
   * The largest gRPC message both ends must accept with the platform's default limits: a 32 MiB
   * body plus headers and the app's log lines. gRPC's default of 4 MiB would refuse most large
   * bodies. For other limits, see {@link RpcTransport#maxMessageBytes(RequestLimits)}, which gives
   * {@link Integer#MAX_VALUE} when a limit is lifted ({@code appengine.ignore.responseSizeLimit}).
   */
  public static final int MAX_MESSAGE_BYTES =
      RpcTransport.maxMessageBytes(RequestLimits.defaults());

  /**
   * What to run.
   *
   * @param app the app's handler, e.g. the webapp context
   * @param limits body size limits, as in HttpConnector mode
   * @param capacity how many requests run at once and wait, and on which threads
   * @param captureAppLogs whether the app's log lines of each request ride back in its {@code
   *     UPResponse}: only worth their cost when the front end is another process, which logs them;
   *     a front end in this JVM would throw them away, the runtime's logging printed them already
   */
  public record Spec(Handler app, RequestLimits limits, Capacity capacity, boolean captureAppLogs) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(capacity, "capacity");
    }

    /** A runtime whose answers carry the app's log lines. */
    public Spec(Handler app, RequestLimits limits, Capacity capacity) {
      this(app, limits, capacity, true);
    }
  }

  private final Spec spec;
  private final Server server;
  private final RpcConnector connector;
  private final EvaluationRuntimeService service;
  private volatile boolean running;

  public RpcRuntime(Spec spec) {
    this.spec = spec;
    this.server = PublicServers.newServer("aerun-rpc", spec.capacity());
    this.connector =
        new RpcConnector(server, httpConfiguration(spec.limits()), spec.captureAppLogs());
    server.addConnector(connector);

    // The request path: limits -> byte counter -> app.
    Handler.Wrapper sizeLimits = spec.limits().newAppBodyHandler();
    // The trace handler publishes the request's trace (attributes set by the RPC connection) so
    // the app's log lines made on this thread are correlated, as in HttpConnector mode.
    server.setHandler(new RequestTraceHandler(sizeLimits));
    sizeLimits.setHandler(new ResponseSizeTracker(spec.app()));
    this.service = new EvaluationRuntimeService(this);
  }

  /**
   * The configuration HttpConnector mode's connector uses (buffer sizes decide when a response
   * commits, hence its framing), with its {@code Date} stamped when the request reaches the app:
   * the front server passes it on, so the client sees the {@code Date} the app's response was built
   * against (a static file's {@code Expires} counts from it), as in HttpConnector mode.
   */
  private static HttpConfiguration httpConfiguration(RequestLimits limits) {
    return PublicServers.newHttpConfiguration(limits);
  }

  /**
   * Deploys the app (starting the server and its handlers); requests are handled once this returns.
   * Calls that arrive before are answered {@code UNKNOWN_APP}. If deployment fails, the server is
   * stopped again and the failure thrown.
   */
  public void start() throws Exception {
    if (spec.captureAppLogs()) {
      AppLogCapture.install();
    }
    try {
      server.start();
    } catch (Exception | Error e) {
      try {
        server.stop();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      } finally {
        if (spec.captureAppLogs()) {
          AppLogCapture.uninstall();
        }
      }
      throw e;
    }
    running = true;
  }

  /**
   * Stops the server. New calls are answered {@code UNKNOWN_APP} at once; calls in progress get
   * {@code UNKNOWN_APP} too and their requests are aborted.
   */
  public void stop() throws Exception {
    boolean wasRunning = running;
    running = false;
    try {
      server.stop();
    } finally {
      if (wasRunning && spec.captureAppLogs()) {
        AppLogCapture.uninstall();
      }
    }
  }

  /** Whether {@link #start()} completed and {@link #stop()} was not called since. */
  public boolean isRunning() {
    return running;
  }

  /** The {@code EvaluationRuntime} service that runs requests on this runtime. */
  public BindableService service() {
    return service;
  }

  /** The back Jetty server. */
  public Server server() {
    return server;
  }

  public Spec spec() {
    return spec;
  }

  /** The connector when requests may run, else null. */
  RpcConnector runningConnector() {
    return running && connector.isRunning() ? connector : null;
  }
}
