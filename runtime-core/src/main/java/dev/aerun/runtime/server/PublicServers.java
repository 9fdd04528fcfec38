package dev.aerun.runtime.server;

import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.runtime.load.Capacity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * How every server that faces clients is built, whatever the mode: HttpConnector mode's server and
 * legacy mode's front server share these pieces, so the answers Jetty gives on its own (400 for
 * malformed HTTP, 431 for oversized headers, the error pages) are byte-identical in both modes.
 *
 * <ul>
 *   <li>{@link #newServer}: the thread pool of a {@link Capacity} and the {@link
 *       NoDetailsErrorHandler}.
 *   <li>{@link #newConnector}: HTTP/1.1 with no {@code Server} or {@code X-Powered-By} header, a
 *       {@code Date} header, the header size limit of {@link RequestLimits#configure}, and the idle
 *       timeout.
 * </ul>
 */
public final class PublicServers {
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
   * A plain HTTP/1.1 connector for {@code server}, not yet added to it: see {@link PublicServer}.
   *
   * @param host the address to bind, or null for all interfaces
   * @param port the port; 0 picks a free one
   */
  public static ServerConnector newConnector(
      Server server, RequestLimits limits, String host, int port, Duration idleTimeout) {
    ServerConnector connector =
        new ServerConnector(server, new HttpConnectionFactory(newHttpConfiguration(limits)));
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(idleTimeout.toMillis());
    return connector;
  }

  /**
   * Fails with a {@link PortUnavailableException} when {@code host:port} cannot be bound now (in
   * use, not permitted), by binding it and letting it go: the launcher asks before it deploys the
   * app, so a port in use costs no deployment. Port 0 always passes.
   *
   * @param host the address, or null for all interfaces
   */
  public static void checkBindable(String host, int port) throws PortUnavailableException {
    if (port == 0) {
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
