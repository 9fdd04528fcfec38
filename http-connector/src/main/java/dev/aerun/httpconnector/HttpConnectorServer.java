package dev.aerun.httpconnector;

import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.load.DeadlineHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.logging.RequestTraceHandler;
import dev.aerun.runtime.server.PublicServers;
import java.time.Duration;
import java.util.Objects;
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
   * @param host the address to bind, or null for all interfaces
   * @param port the port to bind; 0 picks a free one (see {@link #port()})
   * @param app the app's handler, e.g. the webapp context
   * @param contract trust policy and header visibility
   * @param limits body and header size limits
   * @param idleTimeout how long an idle connection stays open
   * @param capacity how many requests run at once and wait, and on which threads
   */
  public record Spec(
      String host,
      int port,
      Handler app,
      ContractOptions contract,
      RequestLimits limits,
      Duration idleTimeout,
      Capacity capacity) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(contract, "contract");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      Objects.requireNonNull(capacity, "capacity");
    }

    /**
     * A spec with the defaults: all interfaces, port 8080, trust nobody, the platform's limits, a
     * 30 s idle timeout, the capacity for this JVM's heap ({@link Capacity#forThisJvm()}).
     */
    public static Spec defaults(Handler app) {
      return new Spec(
          null,
          8080,
          app,
          ContractOptions.defaults(),
          RequestLimits.defaults(),
          Duration.ofSeconds(30),
          Capacity.forThisJvm());
    }

    public Spec withHost(String newHost) {
      return new Spec(newHost, port, app, contract, limits, idleTimeout, capacity);
    }

    public Spec withPort(int newPort) {
      return new Spec(host, newPort, app, contract, limits, idleTimeout, capacity);
    }

    public Spec withContract(ContractOptions newContract) {
      return new Spec(host, port, app, newContract, limits, idleTimeout, capacity);
    }

    public Spec withLimits(RequestLimits newLimits) {
      return new Spec(host, port, app, contract, newLimits, idleTimeout, capacity);
    }

    public Spec withIdleTimeout(Duration newIdleTimeout) {
      return new Spec(host, port, app, contract, limits, newIdleTimeout, capacity);
    }

    public Spec withCapacity(Capacity newCapacity) {
      return new Spec(host, port, app, contract, limits, idleTimeout, newCapacity);
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
    Server server = PublicServers.newServer("aerun-http", spec.capacity());

    // The request path: health and draining -> concurrency limit -> body timeout (a slow body
    // cannot keep its slot) -> contract (trust, headers, address, scheme, attributes) -> trace
    // for logs -> deadline -> size limits -> app.
    Handler.Wrapper bodyTimeout = spec.limits().newBodyTimeoutHandler();
    AppEngineRequestHandler contract = new AppEngineRequestHandler(spec.contract());
    RequestTraceHandler trace = new RequestTraceHandler();
    DeadlineHandler deadline = new DeadlineHandler(null);
    Handler.Wrapper sizeLimits = spec.limits().newBodySizeLimitHandler();
    server.setHandler(new DrainHandler(new ConcurrencyLimitHandler(spec.capacity(), bodyTimeout)));
    bodyTimeout.setHandler(contract);
    contract.setHandler(trace);
    trace.setHandler(deadline);
    deadline.setHandler(sizeLimits);
    sizeLimits.setHandler(spec.app());
    server.setRequestLog(new AccessLog());
    return server;
  }

  private static ServerConnector newConnector(Server server, Spec spec) {
    return PublicServers.newConnector(
        server, spec.limits(), spec.host(), spec.port(), spec.idleTimeout());
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
