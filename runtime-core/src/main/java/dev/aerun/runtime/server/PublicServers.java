package dev.aerun.runtime.server;

import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.runtime.load.Capacity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.HostPort;

/**
 * How every server that faces clients is built, whatever the mode: HttpConnector mode's server and
 * legacy mode's front server share these pieces, so the answers Jetty gives on its own (400 for
 * malformed HTTP, 431 for oversized headers, the error pages) are byte-identical in both modes.
 *
 * <ul>
 *   <li>{@link #newServer}: the thread pool of a {@link Capacity} and the {@link
 *       NoDetailsErrorHandler}.
 *   <li>{@link #newConnector}: HTTP/1.1 (and h2c) with no {@code Server} or {@code X-Powered-By}
 *       header, a {@code Date} header, the header size limit of {@link RequestLimits#configure},
 *       and the idle timeout.
 * </ul>
 */
public final class PublicServers {
  /** Jetty's default, and the most streams one HTTP/2 connection may open at once. */
  static final int MAX_CONCURRENT_STREAMS = 128;

  private PublicServers() {}

  /**
   * A server with no connector yet: its thread pool (see {@link Capacity#newThreadPool}, threads
   * named {@code threadPoolName-N}) and the error page that shows no details.
   */
  public static Server newServer(String threadPoolName, Capacity capacity) {
    Server server = new Server(capacity.newThreadPool(threadPoolName));
    server.setErrorHandler(new NoDetailsErrorHandler());
    return server;
  }

  /** The HTTP configuration of every public connector. */
  public static HttpConfiguration newHttpConfiguration(RequestLimits limits) {
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setSendDateHeader(true);
    limits.configure(http);
    return http;
  }

  /**
   * The public connector for {@code server}, not yet added to it (see {@link PublicServer}):
   * HTTP/1.1, and h2c on the same port as {@code serving}'s {@link Protocols#h2c()} says, with the
   * same configuration (so the same header limit), at most as many streams per connection as the
   * concurrency limit runs and queues, and Jetty's HTTP/2 protections (a per-connection rate limit
   * on frames that cost the server work without a request: resets, SETTINGS, PING, empty frames).
   */
  public static ServerConnector newConnector(Server server, PublicServerSpec serving) {
    ServerConnector connector = new ServerConnector(server, connectionFactories(serving, false));
    connector.setHost(serving.host());
    connector.setPort(serving.port());
    connector.setIdleTimeout(serving.idleTimeout().toMillis());
    return connector;
  }

  /**
   * The connector of {@code serving}'s Unix-domain socket, speaking what its TCP port speaks; not
   * yet added to {@code server} nor bound (see {@link PublicServer}).
   */
  public static UnixDomainServerConnector newUnixConnector(
      Server server, PublicServerSpec serving) {
    UnixDomainServerConnector connector =
        new UnixDomainServerConnector(server, connectionFactories(serving, true));
    connector.setIdleTimeout(serving.idleTimeout().toMillis());
    return connector;
  }

  /**
   * Fails with a {@link PortUnavailableException} when {@code socket}'s path cannot be listened on
   * now (another process answers there, or it is not a socket); a stale socket is removed. The
   * launcher asks before it deploys the app.
   */
  public static void checkBindable(UnixSocket socket) throws PortUnavailableException {
    socket.clearStale();
  }

  private static ConnectionFactory[] connectionFactories(PublicServerSpec serving, boolean unix) {
    HttpConfiguration http = newHttpConfiguration(serving.limits());
    if (unix) {
      // A request that names no host (HTTP/2's prior-knowledge upgrade, HTTP/1.0) is for
      // localhost: Jetty would otherwise take the socket's path for an authority, and refuse it.
      http.setServerAuthority(new HostPort("localhost"));
    }
    HttpConnectionFactory http11 = new HttpConnectionFactory(http);
    if (serving.protocols().h2c() == Protocols.H2c.OFF) {
      return new ConnectionFactory[] {http11};
    }
    http.addCustomizer(new Http2HostCustomizer());
    H2cConnectionFactory h2c =
        new H2cConnectionFactory(http, serving.protocols().h2c() == Protocols.H2c.UPGRADE);
    Capacity capacity = serving.capacity();
    h2c.setMaxConcurrentStreams(
        (int)
            Math.min(
                MAX_CONCURRENT_STREAMS,
                (long) capacity.maxConcurrentRequests() + capacity.maxQueuedRequests()));
    return new ConnectionFactory[] {http11, h2c};
  }

  /**
   * Fails with a {@link PortUnavailableException} when {@code host:port} cannot be bound now (in
   * use, not permitted), by binding it and letting it go: the launcher asks before it deploys the
   * app, so a port in use costs no deployment. Port 0 (and no port) always passes.
   *
   * @param host the address, or null for all interfaces
   */
  public static void checkBindable(String host, int port) throws PortUnavailableException {
    if (port == 0 || port == PublicServerSpec.NO_PORT) {
      return;
    }
    try (ServerSocketChannel channel = ServerSocketChannel.open()) {
      channel.setOption(StandardSocketOptions.SO_REUSEADDR, true); // as Jetty's connector
      channel.bind(
          host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port), 1);
    } catch (IOException e) {
      throw new PortUnavailableException(host, port, e);
    }
  }
}
