package dev.aerun.rpc.runtime;

import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.server.PublicServers;
import io.grpc.BindableService;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.component.ContainerLifeCycle;

/**
 * The runtime side of legacy RPC mode: a Jetty server with no network connector whose RPC connector
 * runs each {@code UPRequest} through the request path and buffers the whole response into the
 * {@code UPResponse}. {@link #service()} is the {@code EvaluationRuntime} gRPC service to bind on
 * whatever transport the front end uses. A part of {@code LegacyRpcServer}, which assembles its
 * request path.
 *
 * <p>The app sees each request exactly as in HttpConnector mode: the same request line, headers,
 * remote and local addresses, scheme and {@code isSecure()}, request attributes, body size limit
 * and error pages. The one difference is documented: a response that goes over the response size
 * limit after the app already flushed part of it is answered {@code RESPONSE_TOO_LARGE} (a 500 at
 * the front end) instead of a truncated stream, because nothing reaches the client before the app
 * finished. Errors use the server's {@code NoDetailsErrorHandler}.
 *
 * <p>Starting it deploys the app; calls that arrive before it started, or after it began to stop,
 * are answered {@code UNKNOWN_APP}. Stopping it ends the requests in progress, whose calls get
 * {@code UNKNOWN_APP} too.
 */
public final class RpcRuntime extends ContainerLifeCycle {
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
   * @param requestPath the first handler of the request path, ending in the app
   * @param limits body size limits, as in HttpConnector mode (they also size the responses)
   * @param capacity how many requests run at once and wait, and on which threads
   * @param captureAppLogs whether the app's log lines of each request ride back in its {@code
   *     UPResponse}: only worth their cost when the front end is another process, which logs them;
   *     a front end in this JVM would throw them away, the runtime's logging printed them already
   * @param memory the JVM's budget for buffered bodies, which each captured response reserves from
   */
  public record Spec(
      Handler requestPath,
      RequestLimits limits,
      Capacity capacity,
      boolean captureAppLogs,
      BodyMemory memory) {
    public Spec {
      Objects.requireNonNull(requestPath, "requestPath");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(capacity, "capacity");
      Objects.requireNonNull(memory, "memory");
    }
  }

  private final Spec spec;
  private final Server server;
  private final RpcConnector connector;
  private final EvaluationRuntimeService service;

  public RpcRuntime(Spec spec) {
    this.spec = spec;
    this.server = PublicServers.newServer("aerun-rpc", spec.capacity());
    // The configuration HttpConnector mode's connector uses (buffer sizes decide when a response
    // commits, hence its framing), with its Date stamped when the request reaches the app: the
    // front server passes it on, so the client sees the Date the app's response was built against
    // (a static file's Expires counts from it), as in HttpConnector mode.
    HttpConfiguration http = PublicServers.newHttpConfiguration(spec.limits());
    this.connector = new RpcConnector(server, http, spec.captureAppLogs(), spec.memory());
    server.addConnector(connector);
    server.setHandler(spec.requestPath());
    this.service = new EvaluationRuntimeService(this);
    if (spec.captureAppLogs()) {
      addBean(new CapturingAppLogs(), true); // before the app deploys, after it stopped
    }
    addBean(server, true);
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
    return isStarted() && connector.isRunning() ? connector : null;
  }

  /** The app's log lines captured for each request while the runtime runs. */
  private static final class CapturingAppLogs extends AbstractLifeCycle {
    @Override
    protected void doStart() {
      AppLogCapture.install();
    }

    @Override
    protected void doStop() {
      AppLogCapture.uninstall();
    }
  }
}
