package dev.aerun.runtime.server;

import dev.aerun.runtime.lifecycle.DrainHandler;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The server that faces clients, in either mode: HttpConnector mode's server and legacy mode's
 * front server are this one lifecycle (start, then open the port; drain; stop) around their own
 * request path, built from the same {@link PublicServers} pieces. A mode's subclass assembles its
 * whole request path in one place and hands it here; it has a {@link DrainHandler}.
 */
public abstract class PublicServer {
  private final Server server;
  private final ServerConnector connector;
  private final DrainHandler drain;

  /**
   * @param threadPoolName the prefix of the server's thread names
   * @param serving where to listen, limits and capacity
   * @param requestPath the first handler of the request path, which has a {@link DrainHandler}
   * @param requestLog the request log, or null for none
   */
  protected PublicServer(
      String threadPoolName, PublicServerSpec serving, Handler requestPath, RequestLog requestLog) {
    this.server = PublicServers.newServer(threadPoolName, serving.capacity());
    server.setHandler(requestPath);
    this.drain = server.getDescendant(DrainHandler.class);
    if (drain == null) {
      throw new IllegalArgumentException("the request path has no DrainHandler: " + requestPath);
    }
    server.setRequestLog(requestLog);
    this.connector =
        PublicServers.newConnector(
            server, serving.limits(), serving.host(), serving.port(), serving.idleTimeout());
  }

  /**
   * Starts the server (the app deploys then, in HttpConnector mode), then opens the port; when it
   * returns, {@link #port()} is the bound port. The connector joins the server only after every
   * handler started: Jetty would otherwise open the port even when the deployment failed, and a
   * client could reach a half-started server. If the start fails, the port is never opened.
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

  /** The bound port once started (the configured port before, -1 if not yet bound). */
  public int port() {
    return connector.getLocalPort();
  }

  public Server server() {
    return server;
  }
}
