package dev.aerun.rpc.transport;

import io.grpc.Server;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A started gRPC server on an {@link RpcTransport}, and the event loops it owns. */
public final class RpcServer implements AutoCloseable {
  private static final long GRACE_SECONDS = 5;

  private final Server server;
  private final RpcTransport address;
  private final List<EventLoopGroup> groups;

  RpcServer(Server server, RpcTransport address, List<EventLoopGroup> groups) {
    this.server = server;
    this.address = address;
    this.groups = groups;
  }

  /**
   * Where clients reach this server: the transport it was started on, with the bound port when a
   * TCP port 0 was asked for.
   */
  public RpcTransport address() {
    return address;
  }

  /** The gRPC server. */
  public Server server() {
    return server;
  }

  /** Blocks until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Stops taking calls, lets running ones finish for a few seconds, cancels what is left, then
   * stops the event loops (and, for a Unix socket, the socket file is removed).
   */
  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS)) {
        server.shutdownNow();
        server.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
    shutdownGroups(groups);
  }

  static void shutdownGroups(List<EventLoopGroup> groups) {
    for (EventLoopGroup group : groups) {
      group.shutdownGracefully(0, GRACE_SECONDS, TimeUnit.SECONDS);
    }
    for (EventLoopGroup group : groups) {
      group.terminationFuture().awaitUninterruptibly(2 * GRACE_SECONDS, TimeUnit.SECONDS);
    }
  }

  @Override
  public String toString() {
    return "RpcServer[" + address + "]";
  }
}
