package dev.aerun.runtime.server;

import dev.aerun.runtime.lifecycle.DrainHandler;
import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.component.ContainerLifeCycle;

/**
 * The Jetty server that faces clients, in either mode (HttpConnector mode's server, legacy mode's
 * front server), built from the same {@link PublicServers} pieces around the request path a mode
 * assembles; the {@link RuntimeServer.Entrance} of its runtime server.
 *
 * <p>It starts in three steps: it binds its port (one that cannot be bound, in use or not
 * permitted, fails with a {@link PortUnavailableException} before the app deploys), starts the
 * server (deploying the app, in HttpConnector mode), and only then accepts connections. A client
 * that connects during deployment waits in the backlog and is served once the app is ready, never
 * by a half-started server. If a step fails, the ones before are undone in reverse: the port is
 * closed again without ever accepting.
 */
public final class PublicServer extends ContainerLifeCycle implements RuntimeServer.Entrance {
  private final Server server;
  private final ServerConnector connector;
  private final DrainHandler drain;

  /**
   * @param threadPoolName the prefix of the server's thread names
   * @param serving where to listen, limits and capacity
   * @param requestPath the first handler of the request path, which has a {@link DrainHandler}
   * @param requestLog the request log, or null for none
   */
  public PublicServer(
      String threadPoolName, PublicServerSpec serving, Handler requestPath, RequestLog requestLog) {
    this.server = PublicServers.newServer(threadPoolName, serving.capacity());
    server.setHandler(requestPath);
    server.setRequestLog(requestLog);
    this.drain = server.getDescendant(DrainHandler.class);
    if (drain == null) {
      throw new IllegalArgumentException("the request path has no DrainHandler: " + requestPath);
    }
    this.connector =
        PublicServers.newConnector(
            server, serving.limits(), serving.host(), serving.port(), serving.idleTimeout());
    addBean(new BoundPort(), true);
    addBean(server, true);
    addBean(new Accepting(), true);
  }

  /** The port bound (not accepting yet) while it runs; closed again when it stops. */
  private final class BoundPort extends AbstractLifeCycle {
    @Override
    protected void doStart() throws PortUnavailableException {
      try {
        connector.open();
      } catch (IOException e) {
        throw new PortUnavailableException(connector.getHost(), connector.getPort(), e);
      }
    }

    @Override
    protected void doStop() {
      connector.close();
    }
  }

  /** The connector accepting on the bound port; the server stops it with its connections. */
  private final class Accepting extends AbstractLifeCycle {
    @Override
    protected void doStart() throws Exception {
      server.addConnector(connector);
      if (!connector.isStarted()) {
        connector.start();
      }
    }
  }

  /**
   * Stops accepting connections and waits up to {@code grace} for the requests in flight (see
   * {@link DrainHandler#drain}); {@link #stop()} next ends whatever still runs.
   *
   * @return true if every request finished in time
   */
  @Override
  public boolean drain(Duration grace) throws InterruptedException {
    return drain.drain(connector, grace);
  }

  /** {@code http://HOST:PORT/}, with {@code localhost} for all interfaces. */
  @Override
  public String endpoint() {
    String host = connector.getHost();
    String shown = host == null || host.equals("0.0.0.0") ? "localhost" : host;
    return "http://" + shown + ":" + port() + "/";
  }

  /** The bound port once started (the configured port before, -1 if not yet bound). */
  public int port() {
    return connector.getLocalPort();
  }

  public Server server() {
    return server;
  }
}
