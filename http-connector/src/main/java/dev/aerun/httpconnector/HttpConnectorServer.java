package dev.aerun.httpconnector;

import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.lifecycle.HealthHandler;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.load.DeadlineHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.server.PublicServer;
import dev.aerun.runtime.server.PublicServerSpec;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.Jetty;

/**
 * HttpConnector mode (DESIGN §5): one Jetty server whose connector streams requests through the
 * request contract and the size limits straight into the app. Nothing buffers whole bodies.
 */
public final class HttpConnectorServer extends PublicServer {
  private final Spec spec;

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
    super(
        "aerun-http",
        spec.server(),
        requestPath(spec),
        spec.server().requestLog() ? new AccessLog() : null);
    this.spec = spec;
  }

  /**
   * The whole request path: health -> draining -> concurrency limit -> body timeout (a slow body
   * cannot keep its slot) -> contract (trust, headers, address, scheme, attributes) -> trace for
   * logs -> deadline -> body limits and the app's framing -> app.
   */
  private static Handler requestPath(Spec spec) {
    PublicServerSpec serving = spec.server();
    Handler.Wrapper bodyTimeout = serving.limits().newBodyTimeoutHandler();
    AppEngineRequestHandler contract = new AppEngineRequestHandler(serving.contract());
    RequestTraceHandler trace = new RequestTraceHandler();
    DeadlineHandler deadline = new DeadlineHandler(null);
    Handler.Wrapper body = serving.limits().newAppBodyHandler();
    bodyTimeout.setHandler(contract);
    contract.setHandler(trace);
    trace.setHandler(deadline);
    deadline.setHandler(body);
    body.setHandler(spec.app());
    DrainHandler drain =
        new DrainHandler(new ConcurrencyLimitHandler(serving.capacity(), bodyTimeout));
    return new HealthHandler(drain, drain);
  }

  public Spec spec() {
    return spec;
  }

  /** The Jetty version serving requests. */
  public static String jettyVersion() {
    return Jetty.VERSION;
  }
}
