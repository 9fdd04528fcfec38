package dev.aerun.apihost;

import java.io.IOException;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The local API host: Jetty on {@code 127.0.0.1} (never another address), {@link GuardHandler} in
 * front of {@link RpcHandler} in front of {@link LocalServices}. Start, then {@link #port()};
 * {@link #stop()} stops serving and then the services, so the Datastore is on disk when it returns.
 */
final class LocalApiHost {
  private final Server server;
  private final ServerConnector connector;
  private final LocalServices services;

  private LocalApiHost(Server server, ServerConnector connector, LocalServices services) {
    this.server = server;
    this.connector = connector;
    this.services = services;
  }

  /** Starts the host; fails if its port cannot be bound or its storage cannot be made. */
  static LocalApiHost start(HostOptions options, String secret) throws Exception {
    AppServer app = new AppServer(options.appDir().toFile());
    LocalServices services = new LocalServices(options, app);
    QueuedThreadPool threads = new QueuedThreadPool(64, 4);
    threads.setName("api-host");
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(options.port());
    server.addConnector(connector);
    server.setHandler(new GuardHandler(secret, new RpcHandler(services, app)));
    server.setStopTimeout(2000);
    LocalApiHost host = new LocalApiHost(server, connector, services);
    try {
      server.start();
    } catch (Exception e) {
      host.stop();
      throw e;
    }
    return host;
  }

  /** The bound port. */
  int port() {
    return connector.getLocalPort();
  }

  /** Stops serving, then the services (the Datastore writes its data). */
  void stop() throws IOException {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IOException("stopping the local API host: " + e, e);
    } finally {
      services.stop();
    }
  }
}
