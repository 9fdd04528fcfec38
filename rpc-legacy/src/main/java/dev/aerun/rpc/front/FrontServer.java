package dev.aerun.rpc.front;

import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.lifecycle.DrainHandler;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.load.ConcurrencyLimitHandler;
import dev.aerun.runtime.logging.AccessLog;
import dev.aerun.runtime.server.PublicServers;
import io.grpc.Channel;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Legacy mode's public server: a Jetty server built exactly like HttpConnector mode's (same HTTP
 * configuration, header limit, error pages, idle timeout), so that what Jetty answers on its own
 * (400, 431, error pages) is the same in both modes, with a {@link FrontHandler} that forwards
 * every request to the runtime over {@code runtime}.
 */
public final class FrontServer {
  private final Spec spec;
  private final Server server;
  private final ServerConnector connector;
  private final DrainHandler drain;

  /**
   * What the front server needs. Immutable.
   *
   * @param host the address to bind, or null for all interfaces
   * @param port the port to bind; 0 picks a free one (see {@link #port()})
   * @param contract trust policy and header visibility
   * @param limits body and header size limits
   * @param idleTimeout how long an idle connection stays open
   * @param capacity how many requests run at once and wait, and on which threads
   * @param environment the app, version and service ids sent to the runtime
   * @param logAppLines whether to log the app's log lines that come back with each response (false
   *     when the runtime shares this JVM and already logged them)
   */
  public record Spec(
      String host,
      int port,
      ContractOptions contract,
      RequestLimits limits,
      Duration idleTimeout,
      Capacity capacity,
      AppEnvironment environment,
      boolean logAppLines) {
    public Spec {
      Objects.requireNonNull(contract, "contract");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(environment, "environment");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      Objects.requireNonNull(capacity, "capacity");
    }
  }

  public FrontServer(Spec spec, Channel runtime) {
    this.spec = spec;
    this.server = PublicServers.newServer("aerun-front", spec.capacity());
    // Health and draining -> concurrency limit (before any body is buffered) -> body timeout (a
    // slow body cannot keep its slot) -> the call.
    Handler.Wrapper bodyTimeout = spec.limits().newBodyTimeoutHandler();
    bodyTimeout.setHandler(
        new FrontHandler(
            runtime, spec.contract(), spec.limits(), spec.environment(), spec.logAppLines()));
    this.drain = new DrainHandler(new ConcurrencyLimitHandler(spec.capacity(), bodyTimeout));
    server.setHandler(drain);
    // One request-log line per request, written here where the client's status, size and latency
    // are known; the runtime side writes none.
    server.setRequestLog(new AccessLog());
    this.connector =
        PublicServers.newConnector(
            server, spec.limits(), spec.host(), spec.port(), spec.idleTimeout());
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

  /** Starts the server, then opens the port; when it returns, {@link #port()} is bound. */
  public void start() throws Exception {
    PublicServers.startThenOpen(server, connector);
  }

  /** Stops the server, waiting for it to stop. */
  public void stop() throws Exception {
    server.stop();
  }

  /** The bound port once started. */
  public int port() {
    return connector.getLocalPort();
  }

  public Spec spec() {
    return spec;
  }

  public Server server() {
    return server;
  }
}
