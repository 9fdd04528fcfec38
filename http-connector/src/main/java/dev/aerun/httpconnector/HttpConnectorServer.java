package dev.aerun.httpconnector;

import dev.aerun.runtime.contract.AppBodyHandler;
import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.lifecycle.HealthHandler;
import dev.aerun.runtime.load.BodyTimeoutHandler;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.load.DeadlineHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.server.HandlerChain;
import dev.aerun.runtime.server.PublicServer;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.RuntimeServer;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Jetty;

/**
 * HttpConnector mode (DESIGN §5): one Jetty server whose connector streams requests through the
 * request contract and the size limits straight into the app. Nothing buffers whole bodies.
 */
public final class HttpConnectorServer extends RuntimeServer {
  private final Spec spec;
  private final PublicServer server;

  /**
   * What to serve and how. Immutable.
   *
   * @param app the app's handler, e.g. the webapp context
   * @param server where to listen, trust, limits and capacity (see {@link #port()} for port 0)
   */
  public record Spec(Handler app, PublicServerSpec server) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(server, "server");
    }

    /** {@code app} with the defaults of {@link PublicServerSpec#defaults()}. */
    public static Spec defaults(Handler app) {
      return new Spec(app, PublicServerSpec.defaults());
    }

    /** This spec with {@code change} applied to its public server's settings. */
    public Spec withServer(UnaryOperator<PublicServerSpec> change) {
      return new Spec(app, change.apply(server));
    }
  }

  public HttpConnectorServer(Spec spec) {
    this.spec = spec;
    // The app deploys as the server starts; the port accepts only after.
    this.server =
        new PublicServer(
            "aerun-http",
            spec.server(),
            requestPath(spec),
            spec.server().requestLog() ? new AccessLog() : null);
    addEntrance(server);
  }

  /**
   * HttpConnector mode's request path, top to bottom; read it beside legacy mode's ({@code
   * LegacyRpcServer#requestPaths}), whose handlers it shares where the modes agree.
   */
  private static Handler requestPath(Spec spec) {
    PublicServerSpec serving = spec.server();
    DrainHandler drain = new DrainHandler();
    return HandlerChain.of(
        new HealthHandler(drain),
        drain,
        new ConcurrencyLimitHandler(serving.capacity()),
        // Right behind the limit: a slow body cannot keep its slot.
        new BodyTimeoutHandler(serving.limits().requestBodyTimeout()),
        // Trust, private headers, remote address, scheme and the request's attributes.
        new AppEngineRequestHandler(serving.contract()),
        new RequestTraceHandler(),
        new DeadlineHandler(),
        // The body size limits, and the app's framing headers dropped.
        new AppBodyHandler(serving.limits()),
        spec.app());
  }

  public Spec spec() {
    return spec;
  }

  /** The bound port once started (the configured port before, -1 if not yet bound). */
  public int port() {
    return server.port();
  }

  /** The Jetty server. */
  public Server server() {
    return server.server();
  }

  /** The Jetty version serving requests. */
  public static String jettyVersion() {
    return Jetty.VERSION;
  }
}
