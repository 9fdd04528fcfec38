package dev.aerun.rpc.runtime;

import java.net.SocketAddress;
import java.nio.channels.ReadPendingException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;

/**
 * The end point of one RPC: stands where a socket would, so that Jetty (and the EE8/EE10 layers,
 * which ask the connection for its end point) find the addresses, the security flag and an idle
 * timeout to read and set. No bytes ever pass through it: the request arrives whole in the {@code
 * UPRequest} and the response leaves whole in the {@code UPResponse}, so reading and writing are
 * unsupported.
 */
final class RpcEndPoint implements EndPoint {
  private final long created = System.currentTimeMillis();
  private final SocketAddress local;
  private final SocketAddress remote;
  private final boolean secure;
  private volatile Connection connection;
  private volatile long idleTimeout;
  private volatile boolean open = true;

  RpcEndPoint(SocketAddress local, SocketAddress remote, boolean secure) {
    this.local = local;
    this.remote = remote;
    this.secure = secure;
  }

  @Override
  public SocketAddress getLocalSocketAddress() {
    return local;
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return remote;
  }

  @Override
  public boolean isSecure() {
    return secure;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public long getCreatedTimeStamp() {
    return created;
  }

  @Override
  public void shutdownOutput() {
    open = false;
  }

  @Override
  public boolean isOutputShutdown() {
    return !open;
  }

  @Override
  public boolean isInputShutdown() {
    return !open;
  }

  @Override
  public void close(Throwable cause) {
    if (open) {
      open = false;
      onClose(cause);
    }
  }

  /** No network transport: the RPC carries the bytes. */
  @Override
  public Object getTransport() {
    return null;
  }

  @Override
  public long getIdleTimeout() {
    return idleTimeout;
  }

  /**
   * Stored only: the RPC's deadline, not an idle timer, bounds the request (the front end sets it).
   */
  @Override
  public void setIdleTimeout(long idleTimeout) {
    this.idleTimeout = idleTimeout;
  }

  @Override
  public void fillInterested(Callback callback) throws ReadPendingException {
    callback.failed(new UnsupportedOperationException("an RPC end point has no bytes to read"));
  }

  @Override
  public boolean tryFillInterested(Callback callback) {
    return false;
  }

  @Override
  public boolean isFillInterested() {
    return false;
  }

  @Override
  public Callback cancelWrite(Throwable cause) {
    return null; // nothing is ever written here
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public void setConnection(Connection connection) {
    this.connection = connection;
  }

  @Override
  public void onOpen() {
    Connection c = connection;
    if (c != null) {
      c.onOpen();
    }
  }

  @Override
  public void onClose(Throwable cause) {
    open = false;
    Connection c = connection;
    if (c != null) {
      c.onClose(cause);
    }
  }

  @Override
  public void upgrade(Connection newConnection) {
    throw new UnsupportedOperationException("an RPC end point cannot be upgraded");
  }

  @Override
  public String toString() {
    return "RpcEndPoint[" + remote + "->" + local + (open ? "" : ",closed") + "]";
  }
}
