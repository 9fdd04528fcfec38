package dev.aerun.httpconnector;

import dev.aerun.runtime.contract.AppBodyHandler;
import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.dev.DevStatusHandler;
import dev.aerun.runtime.dev.DeveloperHandler;
import dev.aerun.runtime.dev.Development;
import dev.aerun.runtime.dev.ReloadableHandler;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.lifecycle.HealthHandler;
import dev.aerun.runtime.load.BodyTimeoutHandler;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.load.DeadlineHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.security.DevLoginHandler;
import dev.aerun.runtime.server.BodyCompressionHandler;
import dev.aerun.runtime.server.HandlerChain;
import dev.aerun.runtime.server.PublicServer;
import dev.aerun.runtime.server.PublicServerSpec;
import dev.aerun.runtime.server.RuntimeServer;
import dev.aerun.runtime.webapp.Deployment;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Jetty;

/**
 * HttpConnector mode (docs/ARCHITECTURE.md, "The request paths"): one Jetty server whose connector
 * streams requests through the request contract and the size limits straight into the app. Nothing
 * buffers whole bodies. Its whole request path is assembled in one method, {@code requestPath}.
 */
public final class HttpConnectorServer extends RuntimeServer {
  private final Spec spec;
  private final PublicServer server;

  /**
   * What to serve and how. Immutable.
   *
   * @param app the app, as deployed
   * @param development what {@code --development} adds; empty in production
   * @param server where to listen, trust, limits and capacity (see {@link #port()} for port 0)
   */
  public record Spec(Deployment app, Optional<Development> development, PublicServerSpec server) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(development, "development");
      Objects.requireNonNull(server, "server");
    }

    /** Just {@code app} ({@link Deployment#of}), with the defaults of {@link PublicServerSpec}. */
    public static Spec defaults(Handler app) {
      return new Spec(Deployment.of(app), Optional.empty(), PublicServerSpec.defaults());
    }

    /** This spec with {@code change} applied to its public server's settings. */
    public Spec withServer(UnaryOperator<PublicServerSpec> change) {
      return new Spec(app, development, change.apply(server));
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
   * LegacyRpcServer#requestPaths}), which shares its handlers where the modes agree.
   */
  private static Handler requestPath(Spec spec) {
    PublicServerSpec serving = spec.server();
    Optional<Development> development = spec.development();
    DrainHandler drain = new DrainHandler();
    return HandlerChain.of(
        new HealthHandler(drain),
        drain,
        new ConcurrencyLimitHandler(serving.capacity()),
        // Right behind the limit: a slow body cannot keep its slot.
        new BodyTimeoutHandler(
            serving.limits().requestBodyTimeout(), serving.limits().requestBodyMinRate()),
        // Trust, private headers, remote address, scheme and the request's attributes.
        new AppEngineRequestHandler(serving.contract()),
        new RequestTraceHandler(),
        new DeadlineHandler(),
        // Responses compressed, gzip request bodies inflated: before the limits, which count what
        // the app reads and writes.
        serving.protocols().compression() ? new BodyCompressionHandler() : null,
        // The body size limits, and the app's framing headers dropped.
        new AppBodyHandler(serving.limits()),
        // Development only: the developer's requests told from everyone else's, /_ah/dev and
        // the console below it, and the login page (anyone may pick a user there).
        development.map(dev -> new DeveloperHandler(dev.hosts())).orElse(null),
        development.map(dev -> new DevStatusHandler(dev.statusPage())).orElse(null),
        development.map(Development::consoleHandler).orElse(null),
        development.isPresent() ? new DevLoginHandler() : null,
        // The app's own handlers (Deployment#handlers: warm-up, static files, the API SDK, the
        // webapp); with --watch, a new deployment's replace them on each change.
        development.filter(Development::watch).isPresent()
            ? new ReloadableHandler(Deployment::handlers, spec.app())
            : spec.app().handlers());
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
