package dev.aerun.rpc.runtime;

import dev.aerun.runtime.load.BodyMemory;
import java.io.EOFException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;

/**
 * The back server's only connector: it listens on nothing. Each {@code HandleRequest} call becomes
 * one {@link RpcConnection} on its own {@link RpcEndPoint}, tracked like a network connection, so
 * the server's life cycle (stop, graceful shutdown, dumps) sees the calls in progress.
 */
final class RpcConnector extends AbstractConnector {
  /** The protocol name the connector announces. */
  static final String PROTOCOL = "aerun-rpc";

  private final HttpConfiguration httpConfiguration;
  private final boolean captureAppLogs;
  private final BodyMemory memory;
  private final AtomicInteger callsInProgress = new AtomicInteger();

  RpcConnector(
      Server server,
      HttpConfiguration httpConfiguration,
      boolean captureAppLogs,
      BodyMemory memory) {
    // No acceptor threads: calls arrive through the gRPC service, not a socket.
    super(server, null, null, null, 0, new Factory(httpConfiguration));
    this.httpConfiguration = httpConfiguration;
    this.captureAppLogs = captureAppLogs;
    this.memory = memory;
  }

  /** The JVM's budget for buffered bodies, which each captured response reserves from. */
  BodyMemory bodyMemory() {
    return memory;
  }

  HttpConfiguration httpConfiguration() {
    return httpConfiguration;
  }

  /** Whether each call's answer carries the app's log lines (see {@link RpcRuntime.Spec}). */
  boolean capturesAppLogs() {
    return captureAppLogs;
  }

  @Override
  protected void accept(int acceptorID) {
    throw new UnsupportedOperationException("the RPC connector accepts no network connections");
  }

  @Override
  public Object getTransport() {
    return null;
  }

  /** Calls between {@link #opened} and {@link #closed}: running or waiting for a thread. */
  int callsInProgress() {
    return callsInProgress.get();
  }

  /** Registers a call's end point and opens its connection. */
  void opened(RpcEndPoint endPoint) {
    callsInProgress.incrementAndGet();
    onEndPointOpened(endPoint);
    endPoint.onOpen();
  }

  /** Forgets a finished call's end point. */
  void closed(RpcEndPoint endPoint) {
    callsInProgress.decrementAndGet();
    onEndPointClosed(endPoint);
  }

  /**
   * Fails every call still in progress before the server stops: their answers say the runtime is
   * going away instead of never coming.
   */
  @Override
  protected void doStop() throws Exception {
    for (EndPoint endPoint : getConnectedEndPoints()) {
      if (endPoint.getConnection() instanceof RpcConnection connection) {
        connection.abortForShutdown(new EOFException("runtime stopping"));
      }
    }
    super.doStop();
  }

  /**
   * The connector's connection factory: it only names the protocol and carries the HTTP
   * configuration. Connections are made per call by {@link RpcConnection}, never from a socket.
   */
  private static final class Factory extends AbstractConnectionFactory
      implements HttpConfiguration.ConnectionFactory {
    private final HttpConfiguration httpConfiguration;

    Factory(HttpConfiguration httpConfiguration) {
      super(PROTOCOL);
      this.httpConfiguration = httpConfiguration;
    }

    @Override
    public HttpConfiguration getHttpConfiguration() {
      return httpConfiguration;
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
      throw new UnsupportedOperationException("RPC connections are made per call");
    }
  }
}
