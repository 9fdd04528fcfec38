package dev.aerun.runtime.server;

import dev.aerun.runtime.lifecycle.DrainHandler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
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
 *
 * <p>With a {@link UnixSocket}, it also (or, with no TCP port, only) listens there: the socket's
 * path is checked in the first step (a stale socket is removed, a live one fails the start), and
 * the socket is bound, given its permissions and published at its path in the last, so it too takes
 * connections only once the app is ready; it is removed when the server stops.
 */
public final class PublicServer extends ContainerLifeCycle implements RuntimeServer.Entrance {
  private final Server server;
  private final ServerConnector connector;
  private final UnixSocket unixSocket;
  private final UnixDomainServerConnector unixConnector;
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
        serving.port() == PublicServerSpec.NO_PORT
            ? null
            : PublicServers.newConnector(server, serving);
    this.unixSocket = serving.unixSocket();
    this.unixConnector =
        unixSocket == null ? null : PublicServers.newUnixConnector(server, serving);
    addBean(new BoundPort(), true);
    addBean(server, true);
    addBean(new Accepting(), true);
  }

  /** The port bound (not accepting yet) while it runs; closed again when it stops. */
  private final class BoundPort extends AbstractLifeCycle {
    @Override
    protected void doStart() throws PortUnavailableException {
      if (unixSocket != null) {
        unixSocket.clearStale();
      }
      if (connector != null) {
        try {
          connector.open();
        } catch (IOException e) {
          throw new PortUnavailableException(connector.getHost(), connector.getPort(), e);
        }
      }
    }

    @Override
    protected void doStop() throws IOException {
      if (connector != null) {
        connector.close();
      }
      if (unixSocket != null) {
        // Jetty removes the socket where it bound it, before it was moved to its path.
        Files.deleteIfExists(unixSocket.path());
      }
    }
  }

  /** The connectors accepting; the server stops them with their connections. */
  private final class Accepting extends AbstractLifeCycle {
    @Override
    protected void doStart() throws Exception {
      if (connector != null) {
        server.addConnector(connector);
        if (!connector.isStarted()) {
          connector.start();
        }
      }
      if (unixConnector != null) {
        Path bound = unixSocket.privateBindPath();
        unixConnector.setUnixDomainPath(bound);
        server.addConnector(unixConnector);
        try {
          unixConnector.start();
          unixSocket.publish(bound);
        } catch (IOException e) {
          throw new PortUnavailableException(unixSocket, e);
        }
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
    if (unixConnector != null) {
      unixConnector.shutdown();
    }
    return drain.drain(connector, grace);
  }

  /**
   * {@code http://HOST:PORT/}, with {@code localhost} for all interfaces, and {@code unix:PATH} for
   * a Unix-domain socket ({@code http://HOST:PORT/ and unix:PATH} for both).
   */
  @Override
  public String endpoint() {
    if (connector == null) {
      return unixSocket.toString();
    }
    String host = connector.getHost();
    String shown = host == null || host.equals("0.0.0.0") ? "localhost" : host;
    String tcp = "http://" + shown + ":" + port() + "/";
    return unixSocket == null ? tcp : tcp + " and " + unixSocket;
  }

  /**
   * The bound port once started (the configured port before, -1 if not yet bound, or when the
   * server has no TCP port).
   */
  public int port() {
    return connector == null ? -1 : connector.getLocalPort();
  }

  public Server server() {
    return server;
  }
}
