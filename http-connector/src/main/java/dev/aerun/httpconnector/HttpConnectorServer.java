package dev.aerun.httpconnector;

import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.contract.TransferEncodingHandler;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.load.DeadlineHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.PublicServers;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Jetty;

/**
 * HttpConnector mode (DESIGN §5): one Jetty server whose connector streams requests through the
 * request contract and the size limits straight into the app. Nothing buffers whole bodies.
 */
public final class HttpConnectorServer {
  private final Spec spec;
  private final Server server;
  private final ServerConnector connector;
  private final DrainHandler drain;

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
    this.server = assemble(spec);
    this.drain = (DrainHandler) server.getHandler();
    this.connector = newConnector(server, spec);
  }

  /** The server without its connector: threads, error pages, then the request path. */
  private static Server assemble(Spec spec) {
    PublicServerSpec serving = spec.server();
    Server server = PublicServers.newServer("aerun-http", serving.capacity());

    // The request path: health and draining -> concurrency limit -> body timeout (a slow body
    // cannot keep its slot) -> contract (trust, headers, address, scheme, attributes) -> trace
    // for logs -> deadline -> size limits -> app.
    Handler.Wrapper bodyTimeout = serving.limits().newBodyTimeoutHandler();
    AppEngineRequestHandler contract = new AppEngineRequestHandler(serving.contract());
    RequestTraceHandler trace = new RequestTraceHandler();
    DeadlineHandler deadline = new DeadlineHandler(null);
    Handler.Wrapper sizeLimits = serving.limits().newBodySizeLimitHandler();
    server.setHandler(
        new DrainHandler(new ConcurrencyLimitHandler(serving.capacity(), bodyTimeout)));
    bodyTimeout.setHandler(contract);
    contract.setHandler(trace);
    trace.setHandler(deadline);
    deadline.setHandler(sizeLimits);
    sizeLimits.setHandler(new TransferEncodingHandler(spec.app()));
    if (serving.requestLog()) {
      server.setRequestLog(new AccessLog());
    }
    return server;
  }

  private static ServerConnector newConnector(Server server, Spec spec) {
    return PublicServers.newConnector(
        server,
        spec.server().limits(),
        spec.server().host(),
        spec.server().port(),
        spec.server().idleTimeout());
  }

  /**
   * Deploys the app, then opens the port; when it returns, {@link #port()} is the bound port.
   *
   * <p>The connector joins the server only after every handler (the webapp above all) started:
   * Jetty would otherwise open the port even when the deployment failed, and a client could reach a
   * half-started server. If deployment fails, the port is never opened.
   */
  public void start() throws Exception {
    PublicServers.startThenOpen(server, connector);
  }

  /**
   * Stops accepting connections and waits up to {@code grace} for the requests in flight (see
   * {@link DrainHandler#drain}); {@link #stop()} next ends whatever still runs.
   *
   * @return true if every request finished in time
   */
  public boolean drain(Duration grace) throws InterruptedException {
    return drain.drain(connector, grace);
  }

  /** Stops the server, waiting for it to stop. */
  public void stop() throws Exception {
    server.stop();
  }

  /** Blocks until the server has stopped. */
  public void join() throws InterruptedException {
    server.join();
  }

  /** The bound port once started (the spec's port before, -1 if not yet bound). */
  public int port() {
    return connector.getLocalPort();
  }

  public Spec spec() {
    return spec;
  }

  public Server server() {
    return server;
  }

  /** The Jetty version serving requests. */
  public static String jettyVersion() {
    return Jetty.VERSION;
  }
}
